import { McpServerError } from '../errors';

/** The server package of the MCP SDK v2, as its CommonJS build types it. */
export type ServerSdk = typeof import('@modelcontextprotocol/server');
/** The Node bridge of the MCP SDK v2. */
export type NodeSdk = typeof import('@modelcontextprotocol/node');

let server: ServerSdk | undefined;
let node: NodeSdk | undefined;

/**
 * `@modelcontextprotocol/server` (optional peer dependency), loaded on first use.
 * @throws McpServerError `MCP_SDK_MISSING` when it is not installed.
 */
export function serverSdk(): ServerSdk {
  if (server !== undefined) return server;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
    server = require('@modelcontextprotocol/server') as ServerSdk;
    return server;
  } catch (error) {
    throw new McpServerError('MCP_SDK_MISSING', 'Serving MCP on SDK v2 needs the optional peer dependency @modelcontextprotocol/server (2.4 or later): npm install @modelcontextprotocol/server', { cause: error });
  }
}

/**
 * `@modelcontextprotocol/node` (optional peer dependency), loaded on first use by `serveHttp`.
 * @throws McpServerError `MCP_SDK_MISSING` when it is not installed.
 */
export function nodeSdk(): NodeSdk {
  if (node !== undefined) return node;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
    node = require('@modelcontextprotocol/node') as NodeSdk;
    return node;
  } catch (error) {
    throw new McpServerError('MCP_SDK_MISSING', 'Serving MCP over HTTP on SDK v2 needs the optional peer dependency @modelcontextprotocol/node (2.1 or later): npm install @modelcontextprotocol/node', { cause: error });
  }
}

/**
 * The server and Node packages of the build `server` comes from. The SDK ships a CommonJS and an ES module build, and
 * its HTTP and stdio entries reach into the server's module-private state (the `server/discover` handler, the client
 * identity of a 2026-07-28 request), so they must come from the same build as the `McpServer`: an ES module project's
 * server gets the ES module build (loaded with `import()`), a CommonJS one this package's `require`.
 */
export async function sdksFor(server: object): Promise<{ server: ServerSdk; node: NodeSdk; stdio: () => Promise<typeof import('@modelcontextprotocol/server/stdio')> }> {
  const cjs = serverSdk();
  if (server instanceof cjs.McpServer) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
    return { server: cjs, node: nodeSdk(), stdio: () => Promise.resolve(require('@modelcontextprotocol/server/stdio') as typeof import('@modelcontextprotocol/server/stdio')) };
  }
  const esm = (await import('@modelcontextprotocol/server')) as unknown as ServerSdk;
  const esmNode = (await import('@modelcontextprotocol/node').catch(() => nodeSdk())) as unknown as NodeSdk;
  return { server: esm, node: esmNode, stdio: async () => (await import('@modelcontextprotocol/server/stdio')) as unknown as typeof import('@modelcontextprotocol/server/stdio') };
}
