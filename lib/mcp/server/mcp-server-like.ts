import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSdk2ServerLike } from './v2/mcp-server-v2-like';
import type {
  ClientCapabilities,
  CreateMessageRequest,
  ListRootsResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  LoggingMessageNotification,
  ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The members of the SDK's low-level `Server` (`McpServer.server`) that agenttoolkit/mcp uses. Any `Server` of
 * `@modelcontextprotocol/sdk` 1.x has them. Members whose SDK signatures take zod schemas are declared with `never`
 * parameters: they are called only with the SDK's own values.
 */
export interface McpLowLevelServerLike {
  /** Adds capabilities to declare at initialization (before `connect`). */
  registerCapabilities(capabilities: ServerCapabilities): void;
  /** The capabilities the client declared at initialization. */
  getClientCapabilities(): ClientCapabilities | undefined;
  /** Installs a request handler (`logging/setLevel`). */
  setRequestHandler(...args: never[]): void;
  /** Sends `notifications/message` (replaced on the instance by `McpToolServer` to honour per-session levels). */
  sendLoggingMessage(params: LoggingMessageNotification['params'], sessionId?: string): Promise<void>;
  /** Sends `elicitation/create` to the client. */
  elicitInput(params: ElicitRequestFormParams | ElicitRequestURLParams, options?: RequestOptions): Promise<ElicitResult>;
  /** Sends `sampling/createMessage` to the client. */
  createMessage(params: CreateMessageRequest['params'], options?: RequestOptions): Promise<unknown>;
  /** Sends `roots/list` to the client. */
  listRoots(params?: undefined, options?: RequestOptions): Promise<ListRootsResult>;
}

/**
 * An `McpServer` of the SDK 1.x line (`@modelcontextprotocol/sdk/server/mcp.js`, deprecated: supported until
 * 2027-01-31, the end of the 1.x line's fixes), declared by the members they use rather than by the class. The SDK
 * ships its classes twice (an ES module build and a CommonJS build) and TypeScript holds two declarations of a class
 * with private members apart, so naming the class would refuse the ES module `McpServer` in a `"type": "module"`
 * project; both builds fit this interface. Pass your `McpServer`; nothing else is expected to implement it.
 */
export interface McpSdk1ServerLike {
  /** The low-level `Server` the `McpServer` wraps. */
  readonly server: McpLowLevelServerLike;
  /** Connects the server to `transport` (one connection per `McpServer`). */
  connect(transport: Transport): Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
  /** Whether the server is connected to a transport. */
  isConnected(): boolean;
  /** Sends `notifications/tools/list_changed`. */
  sendToolListChanged(): void;
  /** Registers a tool (the SDK's `registerTool`). */
  registerTool(name: string, ...rest: never[]): unknown;
  /** Registers a prompt (the SDK's `registerPrompt`). */
  registerPrompt(name: string, ...rest: never[]): unknown;
  /** Registers a resource or resource template (the SDK's `registerResource`). */
  registerResource(name: string, ...rest: never[]): unknown;
}

/** The SDK's `McpServer` type of `server` (the same object: both SDK builds have one run-time shape). */
export function sdkServer(server: McpSdk1ServerLike): McpServer {
  return server as unknown as McpServer;
}

/**
 * An MCP server as the functions of agenttoolkit/mcp take it: an `McpServer` of the SDK v2
 * (`@modelcontextprotocol/server`, {@link McpSdk2ServerLike}) or, deprecated until 2027-01-31, of the SDK 1.x
 * (`@modelcontextprotocol/sdk`, {@link McpSdk1ServerLike}). The functions tell them apart at run time.
 */
export type McpServerLike = McpSdk1ServerLike | McpSdk2ServerLike;
