/**
 * `agenttoolkit/otel`: OpenTelemetry traces and metrics of tool calls. Needs `@opentelemetry/api` (an optional peer
 * dependency, loaded by this entry only). See docs/observability.md.
 */
export { openTelemetry, type OpenTelemetryOptions } from './open-telemetry';
export { tracedSandbox, SANDBOX_EXECUTE_SPAN, type TracedSandboxOptions } from './traced-sandbox';
export { type ContentRecorder, type ToolCallContent } from './tool-call-content';
export { EXECUTE_TOOL, EXECUTE_TOOL_DURATION, GenAiAttributes, McpAttributes, INSTRUMENTATION_SCOPE, type ToolErrorType } from './attribute-names';
