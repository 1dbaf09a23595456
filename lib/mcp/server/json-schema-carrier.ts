import { createRequire } from 'node:module';
import type * as ZodMini from 'zod/v4-mini';
import { McpServerError } from './errors';

type Zod = typeof ZodMini;
let zod: Zod | undefined;

/** zod as the MCP SDK resolves it (the SDK validates and renders the schemas with its own copy). */
function sdkZod(): Zod {
  if (zod !== undefined) return zod;
  try {
    const fromSdk = createRequire(require.resolve('@modelcontextprotocol/sdk/server/mcp.js'));
    zod = fromSdk('zod/v4-mini') as Zod;
    return zod;
  } catch (error) {
    throw new McpServerError('MCP_SDK_MISSING', 'Serving tools over MCP needs the optional peer dependencies @modelcontextprotocol/sdk (1.x) and zod (3.25 or 4.x): npm install @modelcontextprotocol/sdk zod', { cause: error });
  }
}

/**
 * A zod schema that the SDK's `McpServer.registerTool` accepts and lists as `jsonSchema` exactly. `registerTool`
 * takes zod schemas only; this is a loose object (it passes every argument through unchanged, validation stays with
 * the registry) whose zod metadata is the JSON Schema: zod's JSON Schema output merges a schema's metadata from its
 * global registry (https://zod.dev/json-schema#metadata), so the listing shows the registry's own schema, 2020-12
 * keywords, `$defs` and `additionalProperties` included. A key the schema leaves out and zod adds
 * (`additionalProperties: {}` of a loose object, zod's `$schema`) is set to `undefined`, which JSON leaves out.
 */
export function jsonSchemaCarrier(jsonSchema: object): object {
  const z = sdkZod();
  const carrier = z.looseObject({});
  const meta: Record<string, unknown> = { $schema: undefined, additionalProperties: undefined, ...jsonSchema };
  z.globalRegistry.add(carrier, meta);
  return carrier;
}
