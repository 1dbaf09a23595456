import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

/** The SDK's per-request handler argument (`RequestHandlerExtra`) as the MCP server adapter receives it. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** MCP log levels from least to most severe (RFC 5424 order, as in the MCP logging utility). */
const SEVERITY: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The level a client set with `logging/setLevel`, per session (`undefined` key: a transport without sessions). */
export type McpLogLevels = Map<string | undefined, LoggingLevel>;

/** @internal Whether a message at `level` is below the level the client set for `sessionId` (nothing set: never). */
export function isBelowLevel(levels: McpLogLevels, level: LoggingLevel, sessionId: string | undefined): boolean {
  const minimum = levels.get(sessionId);
  return minimum !== undefined && SEVERITY.indexOf(level) < SEVERITY.indexOf(minimum);
}

/**
 * @internal What {@link McpRequest} needs of one `tools/call`, from either SDK line: built by the 1.x adapter from
 * `RequestHandlerExtra` (`Sdk1Port`) and by the SDK v2 adapter from `ServerContext`.
 */
export interface McpRequestPort {
  readonly sessionId: string | undefined;
  readonly authInfo: AuthInfo | undefined;
  readonly requestId: string | number;
  readonly signal: AbortSignal;
  readonly progressToken: string | number | undefined;
  /** The protocol revision the call speaks (`2026-07-28`, `2025-11-25`, ...), when known. */
  readonly protocolVersion: string | undefined;
  clientCapabilities(): ClientCapabilities | undefined;
  elicitInput(params: ElicitRequestFormParams | ElicitRequestURLParams, key: string | undefined): Promise<ElicitResult>;
  createMessage(params: CreateMessageRequest['params'], key: string | undefined): Promise<CreateMessageResult>;
  listRoots(key: string | undefined): Promise<ListRootsResult>;
  readonly closeSseStream: (() => void) | undefined;
  notify(notification: { method: 'notifications/progress' | 'notifications/message'; params: Record<string, unknown> }): Promise<void>;
  /** Sends a log message when `level` is at or above what the client asked for. */
  log(level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void>;
}

/** Options of a question a tool asks through {@link McpRequest}. */
export interface McpQuestionOptions {
  /**
   * The question's key in an MCP 2026-07-28 `input_required` result's `inputRequests` (the client answers under it).
   * Default `input-k` for the call's k-th question. Ignored on a session, where the question is a request.
   */
  key?: string | undefined;
}

/**
 * The MCP request a tool call is serving: inject it into a tool with `@Inject(McpRequest, { optional: true })` (or a
 * function tool's `inject: { mcp: McpRequest }`) to ask the connected user (`elicitInput`), ask the client's model
 * (`createMessage`), report progress and send logs. It is provided per call by {@link McpToolServer}; outside MCP
 * (a provider loop, a test) nothing provides it, so an optional injection gives `undefined`. It never reaches the
 * model's arguments.
 *
 * See the MCP specification 2025-06-18: elicitation (https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation),
 * sampling (.../client/sampling), progress (.../basic/utilities/progress), logging (.../server/utilities/logging).
 */
export class McpRequest {
  private lastProgress = -Infinity;

  /** @internal Built by the server adapter for each `tools/call`. */
  constructor(private readonly port: McpRequestPort) {}

  /** The session id of a Streamable HTTP connection, or `undefined` (stdio, in-memory). */
  get sessionId(): string | undefined {
    return this.port.sessionId;
  }

  /** The validated access token's information when the transport authenticated the request (the SDK's `AuthInfo`). */
  get authInfo(): AuthInfo | undefined {
    return this.port.authInfo;
  }

  /** The JSON-RPC id of the `tools/call` request. */
  get requestId(): string | number {
    return this.port.requestId;
  }

  /** Aborted when the client cancels the call (`notifications/cancelled`) or the connection closes. */
  get signal(): AbortSignal {
    return this.port.signal;
  }

  /** The capabilities the client declared at initialization (`elicitation`, `sampling`, ...), if known. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.port.clientCapabilities();
  }

  /**
   * The protocol revision the call speaks when the SDK tells it (SDK v2: `2026-07-28` for a stateless request,
   * the negotiated `2025-11-25` or older for a session); `undefined` on SDK 1.x.
   */
  get protocolVersion(): string | undefined {
    return this.port.protocolVersion;
  }

  /** The progress token the client sent with the call, or `undefined` when it asked for no progress. */
  get progressToken(): string | number | undefined {
    return this.port.progressToken;
  }

  /**
   * Asks the connected user for input (`elicitation/create`), tied to this call and cancelled with it.
   *
   * On a session (2025-11-25 and older) it is a request to the client. On MCP 2026-07-28 (SDK v2, no requests from
   * server to client) the question becomes an input request of an `input_required` result, and the client retries the
   * call with the answer: the tool runs again from its start on each round (its code before the question too:
   * guard side effects, see docs/providers/mcp.md "Questions over 2026-07-28"), and this call then returns the
   * answer. `options.key` names the question in `inputRequests` (default `input-k` for the call's k-th question);
   * questions asked together (`Promise.all`) make one round. A client that did not declare the capability gets the
   * JSON-RPC error -32021 (MissingRequiredClientCapability) for the call.
   * @returns the user's answer: `action` is `accept` (with `content`), `decline` or `cancel`.
   * @throws the SDK's error when the client does not support elicitation or the request fails.
   */
  elicitInput(params: ElicitRequestFormParams | ElicitRequestURLParams, options?: McpQuestionOptions): Promise<ElicitResult> {
    return this.port.elicitInput(params, options?.key);
  }

  /**
   * Asks the client's model for a completion (`sampling/createMessage`), tied to this call and cancelled with it. On
   * MCP 2026-07-28 an input request, as {@link McpRequest.elicitInput} describes.
   * @throws the SDK's error when the client does not support sampling or the request fails.
   */
  createMessage(params: CreateMessageRequest['params'], options?: McpQuestionOptions): Promise<CreateMessageResult> {
    return this.port.createMessage(params, options?.key);
  }

  /**
   * Asks the client for its roots (`roots/list`: the directories or files it exposes, as `file://` URIs). On MCP
   * 2026-07-28 an input request, as {@link McpRequest.elicitInput} describes.
   * @throws the SDK's error when the client does not support roots or the request fails.
   */
  listRoots(options?: McpQuestionOptions): Promise<ListRootsResult> {
    return this.port.listRoots(options?.key);
  }

  /**
   * Closes the SSE stream this call answers on, so the client reconnects later (with `Last-Event-ID`) and gets the
   * result then: polling for a long call (MCP specification 2025-11-25, SEP-1699). Works only over Streamable HTTP
   * with an event store (`serveHttp({ eventStore })`).
   * @returns false when the transport cannot do it (stdio, in-memory, no event store): the call goes on as usual.
   */
  closeSseStream(): boolean {
    const close = this.port.closeSseStream;
    if (close === undefined) return false;
    close();
    return true;
  }

  /**
   * Sends `notifications/progress` for this call: `done` units of `total` (both in the tool's own unit; `total`
   * optional), with an optional message. Does nothing when the client sent no progress token, and drops a `done` not
   * above the last one sent (MCP requires progress to increase with each notification).
   */
  async progress(done: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.progressToken;
    if (progressToken === undefined || !(done > this.lastProgress)) return;
    this.lastProgress = done;
    const params: { progressToken: string | number; progress: number; total?: number; message?: string } = { progressToken, progress: done };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await this.port.notify({ method: 'notifications/progress', params });
  }

  /** @internal The next progress step for an automatic notification (status line, streamed chunk). */
  async step(message: string): Promise<void> {
    await this.progress(this.lastProgress === -Infinity ? 0 : this.lastProgress + 1, undefined, message);
  }

  /**
   * Sends a log message (`notifications/message`) for this call, when `level` is at or above the level the client
   * set with `logging/setLevel` (every level when it set none). `data` is any JSON value; `logger` names the source.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.port.log(level, data, logger);
  }
}
