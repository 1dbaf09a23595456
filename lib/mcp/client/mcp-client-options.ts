import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as Sdk2Client, ClientOptions as Sdk2ClientOptions } from '@modelcontextprotocol/client';
import type { StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LoggingLevel, ServerCapabilities, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';

/**
 * An MCP client as {@link McpClientOptions.client} takes it: the SDK's `Client`
 * (`@modelcontextprotocol/sdk/client/index.js`), declared by the members the adapter uses rather than by the class,
 * so the `Client` of the SDK's ES module build and of its CommonJS build both fit (TypeScript holds two declarations
 * of a class with private members apart). Members whose SDK signatures take zod schemas are declared with `never`
 * parameters: they are called only with the SDK's own values. Pass your `Client`; nothing else is expected to
 * implement it.
 */
export interface McpClientLike {
  /** Connects over `transport` and runs the initialization (called only on clients the adapter creates). */
  connect(transport: Transport, options?: RequestOptions): Promise<void>;
  /** Closes the connection (called only on clients the adapter creates). */
  close(): Promise<void>;
  /** The capabilities the server declared at initialization. */
  getServerCapabilities(): ServerCapabilities | undefined;
  /** Installs a notification handler (`tools/list_changed`, `notifications/message`). */
  setNotificationHandler(...args: never[]): void;
  /** Sends `logging/setLevel`. */
  setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<unknown>;
  /** Sends `tools/list` (one page). */
  listTools(params?: { cursor?: string }, options?: RequestOptions): Promise<{ tools: McpToolDefinition[]; nextCursor?: string | undefined }>;
  /** Sends `tools/call`. */
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: never, options?: RequestOptions): Promise<unknown>;
}
import type { ToolLogger } from '../../pipeline/logger';
import type { McpClientTelemetry } from './mcp-telemetry';

/**
 * Options of `McpClientTools.connect(tools, options)`. Give exactly one server: `command` (a stdio server the adapter
 * starts), `url` (a Streamable HTTP endpoint) or `client` (an SDK `Client` you connected yourself).
 */
export interface McpClientOptions {
  /**
   * The server's name: part of each tool's name (`mcp__<name>__<tool>`) and its `mcpName`, so the permission rules
   * `mcp__<name>` and `mcp__<name>__*` cover every tool of the server. Letters, digits and `-`, in runs joined by
   * single `_` (no `__`, which separates the parts of a tool name).
   */
  readonly name: string;
  /** A stdio server: the program to start (the MCP stdio transport: JSON-RPC over its stdin and stdout). */
  readonly command?: string | undefined;
  /** The program's arguments. */
  readonly args?: readonly string[] | undefined;
  /** Extra environment variables for the program (added to the SDK's small default environment, not to `process.env`). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** The program's working directory (default: this process's). */
  readonly cwd?: string | undefined;
  /** Where the program's stderr goes (default `'inherit'`). */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe' | undefined;
  /** A Streamable HTTP server: its MCP endpoint. */
  readonly url?: string | URL | undefined;
  /** Headers sent with every HTTP request (an `Authorization` header, for example). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Further options of the SDK's `StreamableHTTPClientTransport` (`authProvider`, `fetch`, `reconnectionOptions`). A
   * `fetch` of yours carries every request; a POST reaches it once the event loop has polled its sockets, so a
   * connection the server already closed is not used for it (docs/providers/mcp-client.md, "Which calls are sent
   * again").
   */
  readonly transportOptions?: StreamableHTTPClientTransportOptions | undefined;
  /**
   * An SDK `Client` you connected yourself (any transport). The adapter lists and calls tools through it and
   * installs its `tools/list_changed` handler on it; it never closes or reconnects it.
   */
  readonly client?: McpClientLike | Sdk2Client | undefined;
  /** The prefix of registered tool names (default `mcp__<name>__`). */
  readonly prefix?: string | undefined;
  /** The group of the registered tools (default `"basic"`, always active; see `tools.createGroup`). */
  readonly group?: string | undefined;
  /** Only these tools of the server (by the server's names) are registered. Default: all. */
  readonly allow?: readonly string[] | undefined;
  /** These tools of the server (by the server's names) are never registered; wins over `allow`. */
  readonly deny?: readonly string[] | undefined;
  /**
   * Whether the server's `readOnlyHint` makes a tool read-only here (so the permission engine allows its calls
   * without asking). Default `false`: annotations are hints a server may get wrong, so every remote tool is treated
   * as having side effects.
   */
  readonly trustReadOnlyHint?: boolean | undefined;
  /**
   * Fingerprints approved earlier (`mcp.fingerprints()` of a previous run, by the server's tool names): a tool whose
   * definition no longer matches is drift from the start. Tools without one are approved when first seen.
   */
  readonly approvedFingerprints?: Readonly<Record<string, string>> | undefined;
  /**
   * Called when a tool's definition differs from the one approved. Resolve `true` to approve the new definition
   * (the tool is registered with it), `false` to refuse it (the tool is removed from the registry until
   * `mcp.approve(name)`). Default: refuse, and log a warning.
   */
  readonly onDrift?: ((drift: McpToolDrift) => boolean | Promise<boolean>) | undefined;
  /** Called after each listing that changed the registry (the first one included). */
  readonly onToolsChanged?: ((change: McpToolsChange) => void) | undefined;
  /**
   * Reconnection of a server the adapter connected (`command` or `url`) when its connection is lost: up to
   * `maxAttempts` tries (default 3), waiting `delayMs` (default 250) and doubling up to `maxDelayMs` (default 5000)
   * between them; a call made while disconnected waits for it. `false` turns it off. Never for a `client` you pass.
   */
  readonly reconnect?: { readonly maxAttempts?: number; readonly delayMs?: number; readonly maxDelayMs?: number } | false | undefined;
  /** The timeout of each MCP request in milliseconds, progress notifications resetting it (default: the SDK's, 60 s). */
  readonly requestTimeoutMs?: number | undefined;
  /** How this client introduces itself (default `{ name: 'agenttoolkit', version: '1.0.0' }`). */
  readonly clientInfo?: { readonly name: string; readonly version: string } | undefined;
  /**
   * Options of each SDK `Client` the adapter creates (its `capabilities`, for example elicitation): the SDK 1.x
   * `ClientOptions`, or with `sdk: 2` those of `@modelcontextprotocol/client` (`versionNegotiation` defaults to
   * `{ mode: 'auto' }` there: 2026-07-28 when the server speaks it, else 2025-11-25).
   */
  readonly clientOptions?: ClientOptions | Sdk2ClientOptions | undefined;
  /**
   * Called with each SDK 1.x `Client` the adapter creates, before it connects (after a reconnection too): install
   * request handlers there, such as an elicitation or sampling handler. With `sdk: 2`, see {@link setupSdk2Client}.
   */
  readonly setupClient?: ((client: Client) => void) | undefined;
  /**
   * With `sdk: 2`: called with each SDK v2 `Client` the adapter creates, before it connects (after a reconnection
   * too). Install request handlers by method there, such as `client.setRequestHandler('elicitation/create', ...)`:
   * on 2026-07-28 the SDK's `input_required` loop answers a server's questions (an approval) with the same handler.
   */
  readonly setupSdk2Client?: ((client: Sdk2Client) => void) | undefined;
  /**
   * Which MCP SDK line the adapter connects with when it creates the client: `2` for `@modelcontextprotocol/client`
   * (protocol revisions 2026-07-28 and 2025-11-25, negotiated), `1` for `@modelcontextprotocol/sdk` (2025-11-25;
   * deprecated, supported until 2027-01-31). Default: `2` when `@modelcontextprotocol/client` resolves and no
   * `setupClient` (a 1.x hook) is given, else `1`. A `client` you pass decides by itself.
   */
  readonly sdk?: 1 | 2 | undefined;
  /**
   * Where warnings (refused, skipped or drifted tools, lost connections) and the server's log messages
   * (`notifications/message`: `debug`/`info`/`notice` to `debug`, `warning` to `warn`, `error` and above to `error`)
   * go. Default: the registry's logger (`tools.logger`).
   */
  readonly logger?: ToolLogger | undefined;
  /**
   * The least severe log level the server should send, set with `logging/setLevel` after each connection when the
   * server declares the `logging` capability (default: none set, the server decides). MCP specification 2025-06-18,
   * https://modelcontextprotocol.io/specification/2025-06-18/server/utilities/logging.
   */
  readonly logLevel?: LoggingLevel | undefined;
  /**
   * Where each request to the server (`tools/call`, `tools/list`, `logging/setLevel`) is reported, and where the trace
   * context sent in its `params._meta` comes from. Default: the registry's telemetry (`ToolsOptions.telemetry`) when it
   * reports MCP requests (`openTelemetry()` does: a span `{mcp.method.name} {target}` of kind CLIENT per request,
   * docs/observability.md); `false` reports nothing and sends no trace context.
   */
  readonly telemetry?: McpClientTelemetry | false | undefined;
}

/** A tool whose definition changed after it was approved. */
export interface McpToolDrift {
  /** The MCP server's name. */
  readonly serverName: string;
  /** The server's name for the tool. */
  readonly remoteName: string;
  /** The tool's name in the registry. */
  readonly toolName: string;
  /** The fingerprint that was approved. */
  readonly approvedFingerprint: string;
  /** The fingerprint of the definition the server lists now. */
  readonly fingerprint: string;
  /** The approved definition, when this adapter saw it (not for a fingerprint passed as `approvedFingerprints`). */
  readonly previous: Readonly<McpToolDefinition> | undefined;
  /** The definition the server lists now. */
  readonly current: Readonly<McpToolDefinition>;
}

/** What one listing changed, by registered tool name. */
export interface McpToolsChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Tools whose new definition was approved and re-registered. */
  readonly changed: readonly string[];
  /** Tools whose new definition was refused (and which are no longer registered). */
  readonly refused: readonly string[];
  /** Tools of the server that could not be registered, with the reason (a schema a format cannot express, a name taken). */
  readonly skipped: ReadonlyArray<{ readonly remoteName: string; readonly reason: string }>;
}
