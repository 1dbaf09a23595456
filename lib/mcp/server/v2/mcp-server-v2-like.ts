import type { ClientCapabilities, ServerCapabilities } from '@modelcontextprotocol/server';

/**
 * An `McpServer` of the MCP SDK v2 (`@modelcontextprotocol/server` 2.x) as the functions of agenttoolkit/mcp take it,
 * declared by the members they use: the SDK ships an ES module build and a CommonJS build of its classes, and
 * TypeScript holds two declarations of a class with private members apart, so naming the class would refuse one of
 * them. Pass your `McpServer`; nothing else is expected to implement it.
 */
export interface McpSdk2ServerLike {
  /** The low-level `Server` the `McpServer` wraps. */
  readonly server: {
    /** The capabilities of the client (a session's `initialize`, or a 2026-07-28 request's envelope). */
    getClientCapabilities(): ClientCapabilities | undefined;
    /** The revision a session negotiated (`undefined` before `initialize` and on 2026-07-28 requests). */
    getNegotiatedProtocolVersion(): string | undefined;
    /** Adds capabilities to declare (before `connect`); `serveTools` declares `logging`. */
    registerCapabilities(capabilities: ServerCapabilities): void;
  };
  /** Whether the server is connected to a transport. */
  isConnected(): boolean;
  /** Closes the connection. */
  close(): Promise<void>;
  /** Sends `notifications/tools/list_changed` on a session (2025-11-25 and older). */
  sendToolListChanged(): void;
  /** Registers a tool (the SDK's `registerTool`). */
  registerTool(name: string, ...rest: never[]): unknown;
  /** Registers a prompt (the SDK's `registerPrompt`). */
  registerPrompt(name: string, ...rest: never[]): unknown;
  /** Registers a resource or resource template (the SDK's `registerResource`). */
  registerResource(name: string, ...rest: never[]): unknown;
  /** The JSON Schema a registered tool lists as `inputSchema`: only SDK v2 has it, which tells the two lines apart. */
  toolInputSchemaJson(name: string): Record<string, unknown> | undefined;
}

/** @internal Whether `server` is an SDK v2 `McpServer` (it has `toolInputSchemaJson`, which 1.x does not). */
export function isSdk2Server(server: object): server is McpSdk2ServerLike {
  return typeof (server as Partial<McpSdk2ServerLike>).toolInputSchemaJson === 'function';
}
