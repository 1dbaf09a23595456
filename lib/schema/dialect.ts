import { isNode, mapSubschemas, type SchemaNode } from './schema-walk';

/** The JSON Schema dialects the validator compiles: 2020-12 (the default, MCP's default too), 2019-09 and draft-07. */
export type SchemaDialect = '2020-12' | '2019-09' | 'draft-07';

/**
 * The dialect a root schema names in `$schema`: `draft-07` for `http://json-schema.org/draft-07/schema#` (and
 * draft-06, which Ajv's draft-07 class also reads), `2019-09` for `https://json-schema.org/draft/2019-09/schema`,
 * otherwise (no `$schema`, or `https://json-schema.org/draft/2020-12/schema`) `2020-12`, the dialect of the JSON
 * Schema specification's current release and MCP's default (https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage).
 *
 * @returns undefined for a `$schema` naming a dialect none of these is (draft-04 and older): the caller refuses it.
 */
export function dialectOf(schema: SchemaNode): SchemaDialect | undefined {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return undefined;
  if (/^https?:\/\/json-schema\.org\/draft-0[67]\/schema#?$/.test(declared)) return 'draft-07';
  if (/^https:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/.test(declared)) return '2019-09';
  if (/^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/.test(declared)) return '2020-12';
  return undefined;
}

/**
 * Rewrites the draft-07 tuple form into its 2020-12 spelling, everywhere in `schema`: an array-form `items` becomes
 * `prefixItems`, and `additionalItems` beside it becomes `items` (JSON Schema 2020-12, "prefixItems" and "items",
 * https://json-schema.org/draft/2020-12/release-notes#changes-to-items-and-additionalitems). Both TypeBox lines emit
 * the draft-07 form for `Type.Tuple`, which a 2020-12 validator refuses. An `additionalItems` without an array-form
 * `items` means nothing in either dialect and is dropped. Returns `schema` itself when there is nothing to rewrite.
 */
export function toPrefixItems<T>(schema: T, text = JSON.stringify(schema)): T {
  if (!text.includes('"items":[') && !text.includes('"additionalItems":')) return schema;
  const rewrite = (node: unknown): unknown => {
    if (!isNode(node)) return node;
    const out = mapSubschemas(node, '', rewrite);
    if (Array.isArray(out.items)) {
      const { items, additionalItems, ...rest } = out;
      return { ...rest, prefixItems: items, ...(additionalItems === undefined ? {} : { items: additionalItems }) };
    }
    if ('additionalItems' in out) {
      const { additionalItems: _ignored, ...rest } = out;
      return rest;
    }
    return out;
  };
  return rewrite(schema) as T;
}
