import type { Server as HttpServer } from 'node:http';
import type { McpSdk1ServerLike } from './mcp-server-like';

type EventStore = import('@modelcontextprotocol/sdk/server/streamableHttp.js').EventStore;

/**
 * {@link ServeHttpOptions.auth}: SDK v2's `VerifyBearerTokenOptions` (`verifier.verifyAccessToken(token)` returning
 * the `AuthInfo`, `requiredScopes`, `resourceMetadataUrl`, `expectedResource`).
 */
export type McpBearerAuthOptions = import('@modelcontextprotocol/server').VerifyBearerTokenOptions;

/**
 * @internal SDK 1.x: serves `server` over stdio (the SDK's `StdioServerTransport`: JSON-RPC on the process's stdin and stdout). Write
 * nothing else to stdout while it runs.
 * @returns once connected; the promise of `server.close()` ends it.
 */
export async function serveStdioSdk1(server: McpSdk1ServerLike): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
  const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js') as typeof import('@modelcontextprotocol/sdk/server/stdio.js');
  await server.connect(new StdioServerTransport());
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** The address to bind (default `127.0.0.1`). */
  host?: string | undefined;
  /** The TCP port (default 0: any free port; read the chosen one from `url`). */
  port?: number | undefined;
  /** The endpoint path (default `/mcp`). */
  path?: string | undefined;
  /**
   * Host names (`Host` header, port ignored) the server answers. Default for a loopback `host`: `localhost`,
   * `127.0.0.1` and `[::1]`. Required for any other `host`, so host-header validation is never off by default.
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Milliseconds a session may stay idle (no HTTP request or response stream open for it) before it is closed with
   * its `McpServer` and transport; a client that comes back gets HTTP 404 and starts a new session, as the MCP
   * specification says. Default 30 minutes; `0` keeps sessions until the client ends them (`DELETE`) or
   * {@link McpHttpEndpoint.close}. A client that keeps its standalone SSE stream (`GET`) open is not idle.
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Makes SSE streams resumable: every message sent on a stream is stored, each stream starts with a priming event,
   * and a client that reconnects with `Last-Event-ID` gets what it missed (MCP specification 2025-11-25,
   * "Resumability and Redelivery"). Pass an `McpMemoryEventStore` (one process) or your own store behind the SDK's
   * `EventStore` interface. Every session stores and replays through its own view of it (its stream ids carry a
   * prefix of the session's), so a `Last-Event-ID` never replays another session's messages. It also lets a tool
   * close its call's stream to have the client poll (`McpRequest.closeSseStream()`). Default: none, streams are not
   * resumable.
   */
  eventStore?: EventStore | undefined;
  /** The SSE `retry` field (milliseconds) sent to clients: how long they wait before reconnecting. Default: none. */
  retryIntervalMs?: number | undefined;
  /**
   * Host names an `Origin` header may name (the MCP specification requires servers to validate `Origin`, a
   * browser's cross-site request is answered 403). Default: `allowedHosts` (for a loopback `host`: `localhost`,
   * `127.0.0.1`, `[::1]`). A request without `Origin` (not from a browser) is served.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * The most 2025-11-25 (and older) sessions open or being opened at once; one more `initialize` is answered HTTP 503 with a
   * JSON-RPC error saying so, until a session ends (`DELETE`, idle timeout). Default {@link DEFAULT_MAX_SESSIONS}.
   */
  maxSessions?: number | undefined;
  /**
   * The largest request body, in bytes; a larger one is answered HTTP 413 (default
   * {@link DEFAULT_MAX_BODY_BYTES}, SDK v2's `DEFAULT_MAX_REQUEST_BODY_SIZE`).
   */
  maxBodyBytes?: number | undefined;
  /**
   * SDK v2: the registries your factory serves; a change of their listing is announced to 2026-07-28 clients
   * listening with `subscriptions/listen` (sessions of older clients get `notifications/tools/list_changed` from
   * `serveTools` itself). Default: none announced.
   */
  registries?: ReadonlyArray<ListingSource> | undefined;
  /**
   * SDK v2: requires a valid OAuth bearer token on every request (SDK v2's `verifyBearerToken`): a request without
   * one, or whose token the verifier refuses or that has expired, gets 401 with the `WWW-Authenticate: Bearer`
   * challenge (`resource_metadata` when `resourceMetadataUrl` is set), one missing a `requiredScopes` scope 403. The
   * verified `AuthInfo` reaches your servers (`McpRequest.authInfo`), and its `clientId` is the principal that
   * sessions and approval states are bound to: a 2025-11-25 session is answered 404 to another principal, and
   * another principal's `requestState` is refused. Have the verifier put the user's id in `clientId` when one OAuth
   * client serves several users (MCP requires binding to the user). Default: none, every caller is one principal,
   * so approval states are bound to the call only. Throws `MCP_HTTP_OPTIONS` with SDK 1.x servers.
   */
  auth?: McpBearerAuthOptions | undefined;
}

/** What {@link ServeHttpOptions.registries} needs of a registry (`Tools` has it): a way to hear of listing changes. */
export interface ListingSource {
  /** Calls `listener` after each change of the listing; returns the function that stops it. */
  onListChange(listener: () => void): () => void;
}

/** {@link McpHttpEndpoint.notify}: announces list changes to 2026-07-28 clients listening with `subscriptions/listen`. */
export interface McpListNotifier {
  /** The tool listing changed (`notifications/tools/list_changed`). */
  toolsChanged(): void;
  /** The prompt listing changed (`notifications/prompts/list_changed`). */
  promptsChanged(): void;
  /** The resource listing changed (`notifications/resources/list_changed`). */
  resourcesChanged(): void;
  /** The resource at `uri` changed (`notifications/resources/updated`). */
  resourceUpdated(uri: string): void;
}

/** The default {@link ServeHttpOptions.maxSessions}. */
export const DEFAULT_MAX_SESSIONS = 100;

/** The default {@link ServeHttpOptions.maxBodyBytes}: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The default {@link ServeHttpOptions.idleTimeoutMs}: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/** A running Streamable HTTP endpoint from {@link serveHttp}. */
export interface McpHttpEndpoint {
  /** The endpoint URL, for example `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** The underlying Node HTTP server. */
  readonly httpServer: HttpServer;
  /** Closes every session (and its `McpServer`) and stops listening. */
  close(): Promise<void>;
  /**
   * SDK v2: announces list changes to 2026-07-28 clients listening with `subscriptions/listen` (the SDK handler's
   * `notify`); `undefined` on SDK 1.x.
   */
  readonly notify?: McpListNotifier | undefined;
  /** How many 2025-11-25 (or older) sessions are open. */
  readonly sessions: number;
}

/** @internal */
export const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
