/**
 * `agenttoolkit/builtins`: the built-in tools' building blocks. Shell analysis on tree-sitter's bash grammar (loaded
 * on first use) and the sound command rule matcher for any shell tool.
 */
export { analyzeCommand, analyzeCommandSync, type ShellAnalysis, type ShellFeature, type ShellRedirect, type SimpleCommand } from './shell/analyze-command';
export { allowBlocker, commandMatchesRule, commandRule, compileCommandRule, ruleApplies, type CompiledCommandRule } from './shell/command-rule';
export { loadBashParser } from './shell/bash-parser';
export { ShellAnalysisError, type ShellAnalysisErrorCode } from './shell/shell-error';
export type { ShellWord } from './shell/shell-word';
export { judgeRedirectWrites, type RedirectWriteOptions } from './shell/redirect-writes';
export { checkShellCommand } from './shell/bash-check';
