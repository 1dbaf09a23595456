import { normalizeRefs, withDefs } from '../schema/schema-refs';
import { isNode } from '../schema/schema-walk';
import type { Tool } from '../tool/tool';

/** A JSON Schema node as the provider SDKs type it: a JSON object. */
export type JsonObject = { [keyword: string]: unknown };

/** A params schema as the JSON-Schema formats send it: always an object with `properties`, even when empty. */
export interface ObjectParameters {
  type: 'object';
  properties: Record<string, JsonObject>;
  required?: string[];
  [keyword: string]: unknown;
}

/**
 * The tool's params schema for the formats that take JSON Schema as written (OpenAI without strict, Anthropic, MCP):
 * `type: "object"` and `properties` always present ("a tool with no parameters still has `{"type": "object",
 * "properties": {}}`"), references rewritten to `#/$defs/<name>` with the definitions they use (MCP: "`$ref`s must
 * point into `$defs`"), TypeBox's `$id`s dropped. Everything else is kept, since these providers validate nothing
 * beyond JSON Schema and local validation enforces the rest anyway.
 */
export function objectParameters(tool: Tool): ObjectParameters {
  const document = withDefs(normalizeRefs(tool.parameters, tool.source));
  const { type: _type, properties, ...rest } = document;
  return { type: 'object', properties: (isNode(properties) ? properties : {}) as Record<string, JsonObject>, ...rest };
}
