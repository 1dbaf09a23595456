/**
 * Attribute, span and metric names of the OpenTelemetry semantic conventions for generative AI (status Development)
 * that `agenttoolkit/otel` records, and the library's own names for what the conventions do not cover.
 * Source: https://opentelemetry.io/docs/specs/semconv/gen-ai/ (execute tool span, `gen_ai.execute_tool.duration`).
 */
export const GenAiAttributes = Object.freeze({
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  ERROR_TYPE: 'error.type',
} as const);

/**
 * Attribute names of the OpenTelemetry semantic conventions' MCP page (status Development) that an MCP client span
 * records, and `agenttoolkit.mcp.server` (the registry's name of the server) of this library's namespace.
 * Source: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ (client span).
 */
export const McpAttributes = Object.freeze({
  METHOD_NAME: 'mcp.method.name',
  SESSION_ID: 'mcp.session.id',
  PROTOCOL_VERSION: 'mcp.protocol.version',
  NETWORK_TRANSPORT: 'network.transport',
  SERVER_ADDRESS: 'server.address',
  SERVER_PORT: 'server.port',
  RPC_RESPONSE_STATUS_CODE: 'rpc.response.status_code',
  SERVER_NAME: 'agenttoolkit.mcp.server',
} as const);

/** `gen_ai.operation.name` of a tool call span and measurement. */
export const EXECUTE_TOOL = 'execute_tool';

/** The histogram of call durations, in seconds, by `gen_ai.tool.name` and `error.type` (absent on success). */
export const EXECUTE_TOOL_DURATION = 'gen_ai.execute_tool.duration';

/** The instrumentation scope (tracer and meter name) of this library's spans and measurements. */
export const INSTRUMENTATION_SCOPE = 'agenttoolkit';

/**
 * Values of `error.type` on a failed call: `unknown_tool` (the model named no registered tool), `cancelled` (the
 * call's signal aborted) and `tool_error` (any other failed result: invalid arguments, a denial, the tool's own
 * failure, a timeout).
 */
export type ToolErrorType = 'unknown_tool' | 'cancelled' | 'tool_error';
