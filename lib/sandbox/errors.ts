import { AgentToolkitError } from '../errors';
import { cutText } from '../text/cut-text';

/**
 * Stable codes of {@link SandboxError}. Match on these, never on the message.
 *
 * - `POLICY_INVALID`: a {@link SandboxPolicy} field is out of range (non-positive limit, bad environment key or value,
 *   empty path).
 * - `OPTIONS_INVALID`: a backend's constructor options or `execute` options are malformed (bad per-call environment,
 *   non-positive `timeoutMs`, empty command, bad user).
 * - `LIMIT_UNSUPPORTED`: the backend cannot enforce a limit the policy sets (Bubblewrap and memory, pids or CPU
 *   limits); it refuses rather than pretend.
 * - `ENVIRONMENT_MISSING`: a name in `inheritEnvironment` is not set in the host environment. Raised when the sandbox
 *   is constructed, before anything starts. The message names the variable, never a value.
 * - `MOUNT_INVALID`: a bind mount or policy path cannot be mounted (missing on the host, target not absolute, `/`,
 *   containing `..`, or used twice).
 * - `CWD_INVALID`: the working directory of a call is missing, not a directory, outside the readable paths, or not
 *   reachable inside the sandbox.
 * - `SANDBOX_CLOSED`: `execute` was called after `close()`.
 * - `ENGINE_UNAVAILABLE`: the isolation engine is missing or does not answer (no `bwrap` binary, Docker socket
 *   unreachable, image missing).
 * - `SHELL_UNAVAILABLE`: `execute` asked for a shell the backend cannot run (no bash on the host or in the image).
 * - `READ_ONLY_UNSUPPORTED`: `execute` asked for `readOnly` on a backend that cannot enforce it.
 * - `ENGINE_FAILED`: the engine answered but failed to create, start or run something; `cause` holds its error.
 */
export type SandboxErrorCode =
  | 'POLICY_INVALID'
  | 'OPTIONS_INVALID'
  | 'LIMIT_UNSUPPORTED'
  | 'ENVIRONMENT_MISSING'
  | 'MOUNT_INVALID'
  | 'CWD_INVALID'
  | 'SANDBOX_CLOSED'
  | 'ENGINE_UNAVAILABLE'
  | 'SHELL_UNAVAILABLE'
  | 'READ_ONLY_UNSUPPORTED'
  | 'ENGINE_FAILED';

/**
 * Error thrown by the sandbox port and every backend. `code` is one of {@link SandboxErrorCode}; the message says
 * what was refused and how to fix it, and never contains an environment variable's value.
 */
export class SandboxError extends AgentToolkitError<SandboxErrorCode> {}

/**
 * A caller's text (a path, a name, a URL) as a message quotes it: cut to `max` UTF-16 units at a character boundary,
 * well-formed, in JSON quotes so control characters show.
 */
export function quoted(text: string, max = 200): string {
  return JSON.stringify(cutText(String(text), max));
}
