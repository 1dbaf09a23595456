/** A JSON Schema node as plain, mutable data (the converters build these). */
export type SchemaNode = { [keyword: string]: unknown };

/** Keywords whose value is a map from names to sub-schemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is a list of sub-schemas. */
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value is one sub-schema (`items` may also be a list: the draft-07 tuple form). */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems',
]);

/**
 * Sets `key` as an own data property, even for `__proto__` (a plain assignment would replace the prototype and the
 * field would vanish from the schema while `required` still names it).
 */
export function defineField(target: SchemaNode, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** True for a JSON object (not null, not an array). */
export function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A JSON Pointer segment (`~` and `/` escaped), for the paths named in errors. */
export function pointer(path: string, key: string | number): string {
  const text = String(key);
  return text.includes('~') || text.includes('/') ? `${path}/${text.replace(/~/g, '~0').replace(/\//g, '~1')}` : `${path}/${text}`;
}

/**
 * Copies `node`, passing every sub-schema (in any keyword position) through `map` with its JSON Pointer path; other
 * values are copied as they are. The one place that knows where sub-schemas sit in a JSON Schema.
 */
export function mapSubschemas(node: SchemaNode, path: string, map: (sub: unknown, path: string) => unknown): SchemaNode {
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAP_KEYWORDS.has(key) && isNode(value)) {
      const at = pointer(path, key);
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, map(sub, pointer(at, name))]));
    } else if ((SCHEMA_LIST_KEYWORDS.has(key) || key === 'items') && Array.isArray(value)) {
      const at = pointer(path, key);
      out[key] = value.map((sub, i) => map(sub, pointer(at, i)));
    } else if (SCHEMA_KEYWORDS.has(key) && (isNode(value) || typeof value === 'boolean')) {
      out[key] = map(value, pointer(path, key));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Calls `visit` on every sub-schema of `node` (in any keyword position) with its JSON Pointer path, without copying:
 * the walk of {@link mapSubschemas} for checks that only read.
 */
export function forEachSubschema(node: SchemaNode, path: string, visit: (sub: unknown, path: string) => void): void {
  for (const key in node) {
    const value = node[key];
    if (SCHEMA_MAP_KEYWORDS.has(key) && isNode(value)) {
      const at = pointer(path, key);
      for (const name in value) visit(value[name], pointer(at, name));
    } else if ((SCHEMA_LIST_KEYWORDS.has(key) || key === 'items') && Array.isArray(value)) {
      const at = pointer(path, key);
      value.forEach((sub, i) => visit(sub, pointer(at, i)));
    } else if (SCHEMA_KEYWORDS.has(key) && (isNode(value) || typeof value === 'boolean')) {
      visit(value, pointer(path, key));
    }
  }
}
