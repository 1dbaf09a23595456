import { AgentToolkitError } from '../../errors';

/**
 * Codes of {@link ShellAnalysisError}:
 * - `SHELL_PARSER_UNAVAILABLE`: the bash grammar could not be loaded (`web-tree-sitter` or `tree-sitter-bash`
 *   missing or broken).
 * - `SHELL_UNANALYSABLE`: a command could not be analysed soundly (a syntax error, a construct the analysis does not
 *   know, nesting too deep); a command rule then applies as a deny or ask rule and never as an allow rule.
 * - `INVALID_COMMAND_RULE`: a command rule's content is not one simple command of literal words (see
 *   docs/shell-analysis.md).
 */
export type ShellAnalysisErrorCode = 'SHELL_PARSER_UNAVAILABLE' | 'SHELL_UNANALYSABLE' | 'INVALID_COMMAND_RULE';

/** A shell command or a command rule could not be analysed (see {@link ShellAnalysisErrorCode}). */
export class ShellAnalysisError extends AgentToolkitError<ShellAnalysisErrorCode> {
  constructor(code: ShellAnalysisErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
