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

/**
 * Stable codes of {@link CoreError}, the errors of the tool registry and its pipeline (match on these, never on the
 * message):
 *
 * - `INVALID_OPTION`: an option of a core class is out of range (for example `new TimeoutMiddleware(0)`).
 * - `INVALID_CONTEXT`: a `ToolContext` was given a dependency without a value.
 * - `INVALID_RESULT`: an `ActionResult` (or subclass) was built with a field its class does not declare, or
 *   `ActionResult.image`/`file` got something that is not bytes or not a valid (image) media type.
 * - `NOT_EXTERNAL`: `tools.completeExternal(...)` got a request that names no external tool of this registry.
 * - `STREAM_CONSUMED`: a `ToolStream` was iterated a second time (it can be iterated once).
 * - `INVALID_MIDDLEWARE_RESULT`: a registry middleware returned something other than an `ActionResult`. Never thrown
 *   to the caller: the error boundary logs it and the call fails with a short generic message.
 * - `CALL_TIMED_OUT`: the reason of a tool's abort signal when `TimeoutMiddleware` abandoned the call.
 * - `STREAM_CLOSED`: the reason of a tool's abort signal when the consumer of `tools.stream(...)` stopped reading.
 * - `INVALID_TOOL_OUTPUT`: a tool's successful result does not match the output schema it declares (`returns`).
 *   Never thrown to the caller: the call fails with a generic message and the details are logged as the tool's bug.
 * - `OUTPUT_FOLDER_LINKED`: an output budget's `.agenttoolkit` or `.agenttoolkit/outputs` folder is a symbolic link.
 *   Never thrown to the caller: the full output is not saved, the result is cut without a copy and a warning logged.
 * - `DUPLICATE_CALL_ID`: `runToolCalls` got two calls with one id in a batch (an approval is bound to the call's id,
 *   so each call needs its own; the providers' call parsers give every call a unique id).
 *
 * The other core errors have classes of their own: `ToolDefinitionError` (`TOOL_DEFINITION`, at registration)
 * and `MissingDependencyError` (`MISSING_DEPENDENCY`, an `@Inject` dependency absent from the call's context).
 */
export type CoreErrorCode =
  | 'INVALID_OPTION'
  | 'INVALID_CONTEXT'
  | 'INVALID_RESULT'
  | 'NOT_EXTERNAL'
  | 'STREAM_CONSUMED'
  | 'INVALID_MIDDLEWARE_RESULT'
  | 'CALL_TIMED_OUT'
  | 'STREAM_CLOSED'
  | 'INVALID_TOOL_OUTPUT'
  | 'OUTPUT_FOLDER_LINKED'
  | 'DUPLICATE_CALL_ID'
  | 'MISSING_PEER';

/** An error of the tool registry and its pipeline; `code` is one of {@link CoreErrorCode}. */
export class CoreError extends AgentToolkitError<CoreErrorCode> {}

/**
 * An expected failure of a tool call, thrown by the tool's own code: "this call failed, tell the model" (an unknown
 * order, a closed account). The call resolves to a failed result whose `error` is the message as written, and the
 * registry logs one line at `warn`, without a stack: it is not a bug. Code `TOOL_FAILED`.
 *
 * Returning `ActionResult.fail(message)` is the same outcome without throwing. Any other exception a tool throws is
 * treated as a bug: logged with its stack, and the model is told the tool failed with the error's first line.
 *
 * @example
 * ```ts
 * const order = await orders.find(params.orderId);
 * if (order === undefined) throw new ToolError(`No order ${params.orderId}. List the customer's orders first.`);
 * ```
 */
export class ToolError extends AgentToolkitError<'TOOL_FAILED'> {
  /**
   * @param message - what went wrong, for the model (it is sent as written).
   * @param options - `cause`: the underlying error, kept for the host's debugging (never sent to the model).
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super('TOOL_FAILED', message, options);
  }
}
