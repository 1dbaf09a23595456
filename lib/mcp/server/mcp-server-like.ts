import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  ClientCapabilities,
  CreateMessageRequest,
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
  registerCapabilities(capabilities: ServerCapabilities): void;
  getClientCapabilities(): ClientCapabilities | undefined;
  setRequestHandler(...args: never[]): void;
  sendLoggingMessage(params: LoggingMessageNotification['params'], sessionId?: string): Promise<void>;
  elicitInput(params: ElicitRequestFormParams | ElicitRequestURLParams, options?: RequestOptions): Promise<ElicitResult>;
  createMessage(params: CreateMessageRequest['params'], options?: RequestOptions): Promise<unknown>;
}

/**
 * An MCP server as the functions of agenttoolkit/mcp take it: the SDK's `McpServer`
 * (`@modelcontextprotocol/sdk/server/mcp.js`), declared by the members they use rather than by the class. The SDK
 * ships its classes twice (an ES module build and a CommonJS build) and TypeScript holds two declarations of a class
 * with private members apart, so naming the class would refuse the ES module `McpServer` in a `"type": "module"`
 * project; both builds fit this interface. Pass your `McpServer`; nothing else is expected to implement it.
 */
export interface McpServerLike {
  /** The low-level `Server` the `McpServer` wraps. */
  readonly server: McpLowLevelServerLike;
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  isConnected(): boolean;
  sendToolListChanged(): void;
  registerTool(name: string, ...rest: never[]): unknown;
  registerPrompt(name: string, ...rest: never[]): unknown;
  registerResource(name: string, ...rest: never[]): unknown;
}

/** The SDK's `McpServer` type of `server` (the same object: both SDK builds have one run-time shape). */
export function sdkServer(server: McpServerLike): McpServer {
  return server as unknown as McpServer;
}
