/**
 * Every stable error code this library throws, one per refusal kind. Codes are part of the public API: match on
 * `error.code`, never on the message text, which may be reworded.
 *
 * Areas add their own codes (workspace, sandbox, skills) by extending {@link AgentToolkitError} with a code of
 * their own; each code is documented beside the class that throws it.
 */
export type AgentToolkitErrorCode = string;

/**
 * Base class of every error this library throws on purpose. An area narrows the code to its own union:
 * `class SandboxError extends AgentToolkitError<SandboxErrorCode> {}`.
 *
 * `code` is a stable, documented string (for example `TOOL_DEFINITION`, `MISSING_DEPENDENCY`, `PATH_OUTSIDE_WORKSPACE`)
 * and `message` says what was asked, why it was refused and how to fix it. Errors thrown by the tool pipeline are turned
 * into failed `ActionResult`s before they reach a model; these classes are what a host program sees.
 */
export class AgentToolkitError<C extends AgentToolkitErrorCode = AgentToolkitErrorCode> extends Error {
  /** Stable machine-readable code of this refusal. */
  readonly code: C;

  /**
   * @param code - the stable code (see each subclass for its codes).
   * @param message - what was asked, why it was refused and how to fix it.
   * @param options - `cause`: the underlying error, kept for logs and debugging.
   */
  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}
