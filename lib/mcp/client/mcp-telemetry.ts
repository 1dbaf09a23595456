/**
 * What an {@link McpClientTelemetry} is told of one request an `McpClientTools` sends to its server (`tools/call`,
 * `tools/list`, `logging/setLevel`), as the MCP pages of the OpenTelemetry semantic conventions name it.
 */
export interface McpRequestStart {
  /** The JSON-RPC method (`mcp.method.name`): `tools/call`, `tools/list`, `logging/setLevel`. */
  readonly method: string;
  /** For `tools/call`: the server's name of the tool (`gen_ai.tool.name`, the span name's target). */
  readonly toolName: string | undefined;
  /** The registry's name of the server (`McpClientOptions.name`). */
  readonly serverName: string;
  /** The Streamable HTTP session id (`mcp.session.id`), when the request is part of a session. */
  readonly sessionId: string | undefined;
  /** The negotiated MCP revision (`mcp.protocol.version`, `2025-11-25`, `2026-07-28`), when known. */
  readonly protocolVersion: string | undefined;
  /** `network.transport`: `pipe` for a stdio server, `tcp` for a Streamable HTTP one; unknown for a `client` you passed. */
  readonly transport: 'pipe' | 'tcp' | undefined;
  /** `server.address` of a Streamable HTTP server: the URL's host (an IPv6 address without brackets). */
  readonly serverAddress: string | undefined;
  /** `server.port` of a Streamable HTTP server: the URL's port, or the one its scheme implies (80, 443). */
  readonly serverPort: number | undefined;
}

/** How one traced MCP request ended. */
export type McpRequestOutcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /**
       * `error.type`: the JSON-RPC error code as text (`-32602`) when the server answered an error, `tool_error` for a
       * `tools/call` result with `isError`, `cancelled` when the caller aborted, else the error's class name.
       */
      readonly errorType: string;
      /** The JSON-RPC error code (`rpc.response.status_code`), when the server answered one. */
      readonly code?: number | undefined;
      /** The error's message (the span status's description). */
      readonly message?: string | undefined;
    };

/** One traced MCP request: the handle an {@link McpClientTelemetry} returns for a request it records. */
export interface McpRequestTrace {
  /**
   * The trace context to send with the request in `params._meta` (W3C `traceparent`, `tracestate`, `baggage`, as the
   * host's propagator writes them), so that a server continuing it nests its work under this request.
   */
  readonly meta: Readonly<Record<string, string>>;
  /** Runs `fn` (the request) with this request as the current trace context. Returns what `fn` returns. */
  run<T>(fn: () => T): T;
  /** Ends the request with its outcome. */
  end(outcome: McpRequestOutcome): void;
}

/**
 * The port through which `McpClientTools` reports the requests it sends (`McpClientOptions.telemetry`; by default
 * the registry's `ToolsOptions.telemetry` when it has this member, as `openTelemetry()` of `agenttoolkit/otel` does).
 * A telemetry that throws leaves the request untraced.
 */
export interface McpClientTelemetry {
  /** Called as a request starts; `undefined` leaves it untraced (nothing listening), with no `_meta` added. */
  startMcpRequest(start: McpRequestStart): McpRequestTrace | undefined;
}

/** Whether `value` (a registry's telemetry, say) is also an {@link McpClientTelemetry}. */
export function isMcpClientTelemetry(value: unknown): value is McpClientTelemetry {
  return typeof (value as Partial<McpClientTelemetry> | undefined)?.startMcpRequest === 'function';
}

/** `server.address` and `server.port` of a Streamable HTTP endpoint: the host (an IPv6 one without brackets) and the port, given or implied by the scheme. */
export function serverEndpoint(url: string | URL): { address: string; port: number } {
  const parsed = new URL(String(url));
  const port = parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  return { address: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}
