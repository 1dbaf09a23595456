import { normalizeRefs, withDefs } from '../schema/schema-refs';
import { isNode } from '../schema/schema-walk';
import type { Tool } from '../tool/tool';
import type { ToolIcon } from '../tool/action-options';
import { objectParameters, type JsonObject, type ObjectParameters } from './object-parameters';

/**
 * The MCP listing fields of a tool other than its annotations: name, `title`, `icons`, description, `inputSchema`,
 * `outputSchema` (from an object `returns` schema, refs into `$defs`, a declared `$schema` kept) and `_meta`.
 */
export function mcpToolExtras(tool: Tool, description: string): {
  name: string;
  title?: string;
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }>;
  description: string;
  inputSchema: ObjectParameters;
  outputSchema?: ObjectParameters;
  _meta?: Record<string, unknown>;
} {
  const { title, icons, meta, outputSchema } = tool.extras;
  return {
    name: tool.name,
    ...(title === undefined ? {} : { title }),
    ...(icons.length === 0 ? {} : { icons: icons.map(mcpIcon) }),
    description,
    inputSchema: objectParameters(tool, 'MCP', { keepDialect: true }),
    ...(outputSchema !== undefined && outputSchema.type === 'object' ? { outputSchema: objectSchema(outputSchema, tool.source) } : {}),
    ...(meta === undefined ? {} : { _meta: { ...meta } }),
  };
}

/** An icon as listed: a copy, without the fields given as undefined. */
function mcpIcon(icon: ToolIcon): { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' } {
  return {
    src: icon.src,
    ...(icon.mimeType === undefined ? {} : { mimeType: icon.mimeType }),
    ...(icon.sizes === undefined ? {} : { sizes: [...icon.sizes] }),
    ...(icon.theme === undefined ? {} : { theme: icon.theme }),
  };
}

function objectSchema(schema: JsonObject, where: string): ObjectParameters {
  const document = withDefs(normalizeRefs(schema, where));
  const { type: _type, properties, ...rest } = document;
  return { type: 'object', properties: (isNode(properties) ? properties : {}) as Record<string, JsonObject>, ...rest };
}
