import type { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as Sdk2Client } from '@modelcontextprotocol/client';
import type { LoggingLevel, LoggingMessageNotification, Progress, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { McpClientError } from './mcp-client-error';
import type { McpClientOptions } from './mcp-client-options';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createTransport, isSessionGone, SDK1_TRANSPORTS, type TransportClasses } from './mcp-transport';

/** The SDK `Client` an {@link McpClientTools} uses: SDK v2 (`@modelcontextprotocol/client`) or 1.x (deprecated). */
export type McpSdkClient = Sdk2Client | Sdk1Client;

/** Request options the adapter passes to every request. */
export interface DialectRequestOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
  timeout?: number;
  resetTimeoutOnProgress?: boolean;
}

/** How a failed request failed, as far as the adapter must tell. */
export type RequestFailure =
  /** The server answered a JSON-RPC error: it processed the request and refused it. */
  | { readonly kind: 'remote'; readonly code: number }
  /** The request never left this process (nothing was sent): safe to send again on a new connection. */
  | { readonly kind: 'not-sent' }
  /** The server no longer knows the session (HTTP 404): it did not process the request. */
  | { readonly kind: 'session-gone' }
  /**
   * The server answered, but not with a valid result for the request (a result the SDK's schema refuses, a result kind
   * it cannot consume): the connection is fine, and the request may have run.
   */
  | { readonly kind: 'invalid' }
  /** The connection failed with the request in flight: it may or may not have run. */
  | { readonly kind: 'lost' };

/** @internal What `McpClientTools` needs of one SDK line's client. */
export interface ClientDialect {
  readonly sdk: 1 | 2;
  /** A new client with `options`' identity and client options, not connected. */
  create(options: McpClientOptions): McpSdkClient;
  /** Connects `client` to the server `options` name (starting it, for `command`). */
  connect(client: McpSdkClient, options: McpClientOptions, request: DialectRequestOptions): Promise<void>;
  onToolsChanged(client: McpSdkClient, listener: () => void): void;
  onLog(client: McpSdkClient, listener: (params: LoggingMessageNotification['params']) => void): void;
  /** After connecting: asks for list changes where the revision needs it (2026-07-28: `subscriptions/listen`). */
  listenForChanges(client: McpSdkClient): Promise<void>;
  /**
   * Every tool the server lists; `fresh` skips a cached listing (after a change notification); `meta` goes in each
   * page's `params._meta` (the trace context).
   */
  listAll(client: McpSdkClient, fresh: boolean, request: DialectRequestOptions, meta?: Readonly<Record<string, string>>): Promise<McpToolDefinition[]>;
  callTool(client: McpSdkClient, params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, string> }, request: DialectRequestOptions): Promise<unknown>;
  /** Sends `logging/setLevel`, with `meta` (the trace context) in its `params._meta`. */
  setLogLevel(client: McpSdkClient, level: LoggingLevel, request: DialectRequestOptions, meta: Readonly<Record<string, string>> | undefined): Promise<unknown>;
  failure(error: unknown, options: McpClientOptions): RequestFailure;
}

/** A network error code of a connection that was never made (the request was not sent). */
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether `error` (or one of its causes) says the connection was never made. */
function neverConnected(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_CONNECTED_CODES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** The SDK v2 error codes of an answer that arrived but is not a valid result (`SdkErrorCode` values). */
const INVALID_ANSWER_CODES = new Set(['INVALID_RESULT', 'UNSUPPORTED_RESULT_TYPE', 'INPUT_REQUIRED_ROUNDS_EXCEEDED']);

/** The 1.x dialect (`@modelcontextprotocol/sdk`, deprecated until 2027-01-31). */
export const SDK1: ClientDialect = {
  sdk: 1,
  create(options) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
    const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
    return new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities: {}, ...(options.clientOptions as import('@modelcontextprotocol/sdk/client/index.js').ClientOptions | undefined) });
  },
  async connect(client, options, request) {
    await (client as Sdk1Client).connect(createTransport(options, SDK1_TRANSPORTS) as Transport, request);
  },
  onToolsChanged(client, listener) {
    const { ToolListChangedNotificationSchema } = sdk1Types();
    (client as Sdk1Client).setNotificationHandler(ToolListChangedNotificationSchema, listener);
  },
  onLog(client, listener) {
    const { LoggingMessageNotificationSchema } = sdk1Types();
    (client as Sdk1Client).setNotificationHandler(LoggingMessageNotificationSchema, (notification) => listener(notification.params));
  },
  listenForChanges: () => Promise.resolve(),
  async listAll(client, _fresh, request, meta) {
    const all: McpToolDefinition[] = [];
    let cursor: string | undefined;
    do {
      const params = { ...(cursor === undefined ? {} : { cursor }), ...(meta === undefined ? {} : { _meta: { ...meta } }) };
      const page = await (client as Sdk1Client).listTools(Object.keys(params).length === 0 ? undefined : params, request);
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return all;
  },
  // `request` rather than `callTool`: SDK 1.32's `callTool` validates the `structuredContent` of an `isError` result
  // against the tool's output schema and throws -32602, which hid the server's error text from the model. The
  // adapter checks a successful result against the schema itself (`McpRemoteTool.checkResult`).
  callTool: (client, params, request) => (client as Sdk1Client).request({ method: 'tools/call', params }, sdk1Types().CallToolResultSchema, request),
  setLogLevel: (client, level, request, meta) => (client as Sdk1Client).request({ method: 'logging/setLevel', params: withMeta({ level }, meta) }, sdk1Types().EmptyResultSchema, request),
  failure(error, options) {
    const { McpError, ErrorCode } = sdk1Types();
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) return { kind: 'remote', code: error.code };
    if (isSessionGone(error, options)) return { kind: 'session-gone' };
    if (neverConnected(error)) return { kind: 'not-sent' };
    // SDK 1.x rejects a result its schema refuses with the zod error itself (`$ZodError` of zod/v4-mini, or `ZodError`).
    if (/^\$?ZodError$/.test(String((Object(error) as { name?: unknown }).name))) return { kind: 'invalid' };
    return { kind: 'lost' };
  },
};

/** The SDK v2 dialect (`@modelcontextprotocol/client`): version negotiation on (`mode: 'auto'`). */
export const SDK2: ClientDialect = {
  sdk: 2,
  create(options) {
    const { Client } = sdk2();
    return new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities: {}, versionNegotiation: { mode: 'auto' }, ...(options.clientOptions as object | undefined) });
  },
  async connect(client, options, request) {
    await (client as Sdk2Client).connect(createTransport(options, SDK2_TRANSPORTS) as never, request as never);
  },
  onToolsChanged(client, listener) {
    (client as Sdk2Client).setNotificationHandler('notifications/tools/list_changed', listener);
  },
  onLog(client, listener) {
    (client as Sdk2Client).setNotificationHandler('notifications/message', (notification) => listener(notification.params as never));
  },
  async listenForChanges(client) {
    const v2 = client as Sdk2Client;
    if (v2.getProtocolEra() !== 'modern' || v2.getServerCapabilities()?.tools?.listChanged !== true) return;
    await v2.listen({ toolsListChanged: true });
  },
  async listAll(client, fresh, request, meta) {
    const { tools } = await (client as Sdk2Client).listTools(meta === undefined ? undefined : { _meta: { ...meta } }, { ...request, ...(fresh ? { cacheMode: 'refresh' } : {}) } as never);
    return tools as McpToolDefinition[];
  },
  callTool: (client, params, request) => (client as Sdk2Client).callTool(params, request as never),
  setLogLevel: (client, level, request, meta) => (client as Sdk2Client).request({ method: 'logging/setLevel', params: withMeta({ level }, meta) }, request as never),
  failure(error) {
    const { ProtocolError, SdkError, SdkErrorCode } = sdk2();
    if (error instanceof ProtocolError) return { kind: 'remote', code: error.code };
    if (error instanceof SdkError) {
      const status = (error as { status?: unknown }).status;
      if (status === 404) return { kind: 'session-gone' };
      if (error.code === SdkErrorCode.SendFailed || error.code === SdkErrorCode.NotConnected) return { kind: 'not-sent' };
      if (INVALID_ANSWER_CODES.has(error.code)) return { kind: 'invalid' };
    }
    if (neverConnected(error)) return { kind: 'not-sent' };
    return { kind: 'lost' };
  },
};

/** @internal The client name and version an adapter announces by default. */
export const DEFAULT_CLIENT_INFO = { name: 'agenttoolkit', version: '1.0.0' };

/**
 * The dialect for `options`: the line of a `client` you passed; else `sdk` when set; else 1.x when `setupClient` (a
 * hook for SDK 1.x clients only) is given, so code written for 1.x keeps its handlers; else SDK v2 when
 * `@modelcontextprotocol/client` resolves, 1.x otherwise.
 */
export function dialectOf(options: McpClientOptions, resolves: (name: string) => unknown = require.resolve): ClientDialect {
  if (options.client !== undefined) return typeof (options.client as { getProtocolEra?: unknown }).getProtocolEra === 'function' ? SDK2 : SDK1;
  if (options.sdk === 1) return SDK1;
  if (options.sdk === 2) return SDK2;
  if (options.setupClient !== undefined) return SDK1;
  try {
    resolves('@modelcontextprotocol/client');
    return SDK2;
  } catch {
    return SDK1;
  }
}

/** `params` with `meta` as its `_meta`, when there is one. */
function withMeta<P extends object>(params: P, meta: Readonly<Record<string, string>> | undefined): P {
  return meta === undefined ? params : { ...params, _meta: { ...meta } };
}

function sdk1Types(): typeof import('@modelcontextprotocol/sdk/types.js') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
  return require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
}

function sdk2(): typeof import('@modelcontextprotocol/client') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
    return require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
  } catch (error) {
    throw new McpClientError('MCP_CLIENT_OPTIONS', 'Connecting with sdk: 2 needs the optional peer dependency @modelcontextprotocol/client (2.4 or later): npm install @modelcontextprotocol/client', { cause: error });
  }
}

/** SDK v2's transports (`@modelcontextprotocol/client`). */
const SDK2_TRANSPORTS: TransportClasses = {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of the stdio transport
  stdio: () => (require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio')).StdioClientTransport,
  http: () => sdk2().StreamableHTTPClientTransport as unknown as ReturnType<TransportClasses['http']>,
};
