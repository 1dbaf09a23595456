// Helpers shared by the rule checkers. The checkers are written from the table of provider limits in
// docs/providers/limits.md, not from lib/: they import nothing from the converters, so a converter bug makes them fail.

export type Node = Record<string, unknown>;

export const isObject = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every sub-schema of a JSON Schema with its JSON Pointer, the node itself first. */
export function* subschemas(node: unknown, path = '#'): Generator<[Node, string]> {
  if (!isObject(node)) return;
  yield [node, path];
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${key}`;
    if (['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'].includes(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) yield* subschemas(sub, `${at}/${name}`);
    } else if (['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'].includes(key) && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) yield* subschemas(sub, `${at}/${i}`);
    } else if (['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems', 'contentSchema'].includes(key)) {
      yield* subschemas(value, at);
    }
  }
}

/** The violations of the rules every JSON Schema format shares: an object root with properties, no root union, refs into $defs. */
export function checkJsonSchemaRoot(schema: unknown, provider: string): string[] {
  const out: string[] = [];
  if (!isObject(schema)) return [`${provider}: the schema is not an object`];
  if (schema.type !== 'object') out.push(`${provider}: root type is ${JSON.stringify(schema.type)}, not "object"`);
  if (!isObject(schema.properties)) out.push(`${provider}: root has no properties object`);
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) if (keyword in schema) out.push(`${provider}: root has ${keyword}`);
  const defs = isObject(schema.$defs) ? schema.$defs : {};
  for (const [node, path] of subschemas(schema)) {
    if (typeof node.$ref !== 'string') continue;
    const name = /^#\/\$defs\/([^/]+)$/.exec(node.$ref)?.[1];
    if (name === undefined || !(name in defs)) out.push(`${provider}: ${path}/$ref '${node.$ref}' does not point into $defs`);
  }
  return out;
}
