import { AgentToolkitError } from '../errors';

/**
 * Stable codes of the NestJS module (`agenttoolkit/nestjs`), one per refusal kind (match on `error.code`, never on
 * the message):
 *
 * - `NEST_FEATURE_UNKNOWN`: `AgentToolkitModule.forFeature(...)` names a provider that no module of the application
 *   provides (thrown while the module initializes).
 * - `NEST_SCOPED_TOOL_OUTSIDE_CALL`: a tool of a request-scoped or transient provider ran outside the registry the
 *   module built (for example through `tool.invoke(...)` directly), so no Nest context resolved its instance. Inside
 *   `tools.execute` it becomes a failed result.
 */
export type NestToolsErrorCode = 'NEST_FEATURE_UNKNOWN' | 'NEST_SCOPED_TOOL_OUTSIDE_CALL';

/** An error of the NestJS module; `code` is one of {@link NestToolsErrorCode}. */
export class NestToolsError extends AgentToolkitError<NestToolsErrorCode> {}
