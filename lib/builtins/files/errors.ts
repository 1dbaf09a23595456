import { AgentToolkitError } from '../../errors';

/**
 * Stable codes of {@link BuiltinToolError}, thrown to the host when a built-in tool is set up wrongly (never to a
 * model: a model's bad call is a failed result):
 * - `INVALID_BUILTIN_OPTION`: an option of a built-in tool factory is unusable (a workspace without a root and no
 *   `root` option, a root that is not absolute, a limit out of range).
 * - `RIPGREP_NOT_FOUND`: Grep found no ripgrep binary (the optional peer dependency `@vscode/ripgrep` or its
 *   platform package is not installed, or the `rgPath` given cannot be run).
 */
export type BuiltinToolErrorCode = 'INVALID_BUILTIN_OPTION' | 'RIPGREP_NOT_FOUND';

/** A built-in tool was configured with an unusable option; the message names it and what is expected. */
export class BuiltinToolError extends AgentToolkitError<BuiltinToolErrorCode> {}
