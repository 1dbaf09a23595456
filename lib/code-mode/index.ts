/**
 * agenttoolkit/code-mode: the model writes one JavaScript program against a registry's tools (a typed `tools`
 * object) instead of calling them one per turn; each call the program makes passes the registry's pipeline and
 * permission engine. Needs the optional peer dependency `quickjs-emscripten` (0.32); nothing else in the library
 * loads it. See docs/code-mode.md.
 */
export { CODE_MODE_CALL, CodeMode, MAX_DECLARATION_CHARS, type CodeModeOptions } from './code-mode';
export { type CodeModeApproval, type CodeModeCallEvent, type CodeModeOutcome, type CodeModeResume, type CodeModeRunOptions } from './start-run';
export { MAX_DENIAL_REASON_CHARS, type CodeModeCallAnswer } from './resume-answers';
export { MemoryUsedLedgers, type CodeModeUsedLedgers } from './ledger';
export { DEFAULT_LIMITS, type CodeModeLimits, type ResolvedLimits } from './limits';
