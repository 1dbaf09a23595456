import { context as contextApi, propagation, SpanKind, SpanStatusCode, trace as traceApi, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { McpRequestOutcome, McpRequestStart, McpRequestTrace } from '../mcp/client/mcp-telemetry';
import { EXECUTE_TOOL, GenAiAttributes, McpAttributes } from './attribute-names';

/**
 * One MCP request as a span `{mcp.method.name} {gen_ai.tool.name}` (`tools/call lookup`; `tools/list` has no target)
 * of kind CLIENT under the current span, with the trace context the host's propagator writes for it as the request's
 * `params._meta`. Attributes follow the MCP page of the OpenTelemetry semantic conventions (status Development):
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/.
 */
export function startMcpRequestSpan(tracer: Tracer, start: McpRequestStart): McpRequestTrace {
  const parent = contextApi.active();
  const name = start.toolName === undefined ? start.method : `${start.method} ${start.toolName}`;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: requestAttributes(start) }, parent);
  const spanContext = traceApi.setSpan(parent, span);
  const meta: Record<string, string> = {};
  propagation.inject(spanContext, meta);
  return new McpRequestSpan(span, spanContext, meta);
}

class McpRequestSpan implements McpRequestTrace {
  constructor(
    private readonly span: Span,
    private readonly spanContext: Context,
    readonly meta: Readonly<Record<string, string>>,
  ) {}

  run<T>(fn: () => T): T {
    return contextApi.with(this.spanContext, fn);
  }

  end(outcome: McpRequestOutcome): void {
    if (!outcome.ok) {
      this.span.setAttribute(GenAiAttributes.ERROR_TYPE, outcome.errorType);
      if (outcome.code !== undefined) this.span.setAttribute(McpAttributes.RPC_RESPONSE_STATUS_CODE, String(outcome.code));
      this.span.setStatus({ code: SpanStatusCode.ERROR, ...(outcome.message === undefined ? {} : { message: outcome.message }) });
    }
    this.span.end();
  }
}

function requestAttributes(start: McpRequestStart): Attributes {
  const attributes: Attributes = { [McpAttributes.METHOD_NAME]: start.method, [McpAttributes.SERVER_NAME]: start.serverName };
  if (start.toolName !== undefined) {
    attributes[GenAiAttributes.TOOL_NAME] = start.toolName;
    if (start.method === 'tools/call') attributes[GenAiAttributes.OPERATION_NAME] = EXECUTE_TOOL;
  }
  if (start.sessionId !== undefined) attributes[McpAttributes.SESSION_ID] = start.sessionId;
  if (start.protocolVersion !== undefined) attributes[McpAttributes.PROTOCOL_VERSION] = start.protocolVersion;
  if (start.transport !== undefined) attributes[McpAttributes.NETWORK_TRANSPORT] = start.transport;
  if (start.serverAddress !== undefined) attributes[McpAttributes.SERVER_ADDRESS] = start.serverAddress;
  if (start.serverPort !== undefined) attributes[McpAttributes.SERVER_PORT] = start.serverPort;
  return attributes;
}
