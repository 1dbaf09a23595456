import { dialectOf, toPrefixItems } from '../schema/dialect';
import { mergeAllOf } from '../schema/merge-all-of';
import { normalizeRefs, withDefs } from '../schema/schema-refs';
import { defineField, isNode, type SchemaNode } from '../schema/schema-walk';
import type { Tool } from '../tool/tool';
import { ToolDefinitionError } from '../tool/tool-definition-error';

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
 *
 * - `type: "object"` and `properties` always present ("a tool with no parameters still has `{"type": "object",
 *   "properties": {}}`");
 * - a root `allOf` of plain objects (what `Type.Intersect` gives) merged into one object (an `unevaluatedProperties:
 *   false` beside it becomes `additionalProperties: false`): Anthropic refuses `allOf`, `anyOf` and `oneOf` at the root
 *   of `input_schema`, and OpenAI and MCP clients forward the schema to such providers;
 * - references rewritten to `#/$defs/<name>` with the definitions they use (MCP: "`$ref`s must point into `$defs`"),
 *   TypeBox's `$id`s dropped;
 * - the schema in JSON Schema 2020-12 (Anthropic's and MCP's default dialect): `$schema` dropped and draft-07 tuples
 *   written as `prefixItems`; with `keepDialect` (MCP), a declared `$schema` is kept with the schema as written.
 *
 * Everything else is kept, since these providers validate nothing beyond JSON Schema and local validation enforces
 * the rest anyway.
 *
 * @param provider - named in errors.
 * @throws ToolDefinitionError naming the tool and the path for a union (`anyOf`/`oneOf`) at the root, or a root
 *   `allOf` whose parts are not plain objects.
 */
export function objectParameters(tool: Tool, provider: string, options?: { keepDialect?: boolean }): ObjectParameters {
  const declared = tool.parameters.$schema;
  const keep = options?.keepDialect === true && typeof declared === 'string';
  let root: SchemaNode = withDefs(normalizeRefs(tool.parameters, tool.source));
  if (!keep && dialectOf(tool.parameters) !== '2020-12') root = toPrefixItems(root);
  const refuse = (path: string, reason: string, fix: string): never => {
    throw new ToolDefinitionError(`${tool.source}: the params schema cannot be sent to ${provider}: the schema at ${path} ${reason}. ${fix}`);
  };
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (keyword in root) refuse('#', `is a union (${keyword}) at the root; ${provider} needs a plain object there`, 'Make the union a field of the params object.');
  }
  // A non-list allOf never gets here: the validator refuses it at registration.
  if (Array.isArray(root.allOf)) root = mergeAllOf(root, '#', refuse);
  const properties = root.properties;
  const fields = (isNode(properties) ? properties : {}) as Record<string, JsonObject>;
  // Object literals with the leading keys: adding them one by one to `{}` costs several times more on a cold listing.
  const out: ObjectParameters = keep ? ({ $schema: declared, type: 'object', properties: fields } as ObjectParameters) : { type: 'object', properties: fields };
  // A loop rather than a rest pattern and a spread: this runs once per tool and format on a first listing.
  for (const key in root) {
    if (key === '__proto__') defineField(out, key, root[key]);
    else if (key !== 'type' && key !== 'properties') out[key] = root[key];
  }
  return out;
}
