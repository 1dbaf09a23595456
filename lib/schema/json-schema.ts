import { ToolDefinitionError } from '../tool/tool-definition-error';
import { deepFreeze } from './deep-freeze';
import { dialectOf, toPrefixItems } from './dialect';

/** A JSON Schema object as sent to a provider: plain data, no TypeBox symbols. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * TypeBox's kind marker (a registered symbol, so it matches every TypeBox copy without loading TypeBox at run time:
 * the core only needs TypeBox's types).
 */
const Kind = Symbol.for('TypeBox.Kind');

/** TypeBox's optional-property marker. */
export const OptionalKind = Symbol.for('TypeBox.Optional');

/** TypeBox kinds that describe JavaScript values with no JSON Schema counterpart. */
const NON_JSON_KINDS = new Set(['Function', 'Constructor', 'Undefined', 'Symbol', 'BigInt', 'Promise', 'Void', 'Uint8Array', 'Date', 'Iterator', 'AsyncIterator', 'Never']);

/**
 * Checks that `schema` is JSON Schema a model can be given: no TypeBox kind that describes functions, `undefined`,
 * symbols, bigints, promises or dates, and no function, symbol, bigint or undefined value anywhere in it.
 *
 * @param where - the tool and place, named in the error.
 * @throws ToolDefinitionError naming the path of the first offending sub-schema and what to use instead.
 */
export function assertJsonSchema(schema: unknown, where: string, path = '#'): void {
  if (path === '#') {
    readSchema(where, () => {
      assertAcyclic(schema, where);
      assertJsonSchema(schema, where, '#/');
    });
    return;
  }
  if (path === '#/') path = '#';
  if (schema === null || typeof schema !== 'object') {
    throw new ToolDefinitionError(`${where}: the schema at ${path} is ${describe(schema)}, not a JSON Schema object. Use a TypeBox schema such as Type.String().`);
  }
  // TypeBox 0.34 marks the kind with a symbol, TypeBox 1.x with a non-enumerable `~kind` property.
  const kind = (schema as Record<symbol, unknown>)[Kind] ?? (schema as Record<string, unknown>)['~kind'];
  if (typeof kind === 'string' && NON_JSON_KINDS.has(kind)) {
    throw new ToolDefinitionError(
      `${where}: the schema at ${path} is Type.${kind}(), which is not JSON Schema and cannot be sent to a model. ` +
        `Use a JSON type instead (for a date, Type.String({ format: 'date-time' })).`,
    );
  }
  for (const [key, value] of Object.entries(schema)) {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' || value === undefined) {
      throw new ToolDefinitionError(`${where}: the schema holds ${describe(value)} at ${path}/${key}; JSON Schema holds only JSON values. Remove it.`);
    }
    if (value !== null && typeof value === 'object') {
      const at = `${path}/${key}`;
      if (Array.isArray(value)) {
        value.forEach((item, i) => {
          if (SCHEMA_ARRAYS.has(key) && typeof item !== 'boolean') assertJsonSchema(item, where, `${at}/${i}`);
          else if (item !== null && typeof item === 'object') assertJsonSchema(item, where, `${at}/${i}`);
          else assertJsonValue(item, where, `${at}/${i}`);
        });
      }
      else if (isSchemaMap(key)) for (const [name, sub] of Object.entries(value)) assertJsonSchema(sub, where, `${at}/${name}`);
      else if (isSubSchema(key)) assertJsonSchema(value, where, at);
    }
  }
}

/** How deep a schema object may nest (far deeper than any schema written by hand or generated from types). */
const MAX_SCHEMA_DEPTH = 256;

/**
 * Checks that a schema, as a JavaScript object, contains no cycle (an object inside itself, which JSON cannot carry:
 * recursion is written with `$defs` and `$ref`) and nests at most 256 levels.
 *
 * @throws ToolDefinitionError naming the path that refers back, and where it leads.
 */
export function assertAcyclic(schema: unknown, where: string): void {
  const open = new Map<object, string>();
  const visit = (value: unknown, path: string, depth: number): void => {
    if (value === null || typeof value !== 'object') return;
    const ancestor = open.get(value);
    if (ancestor !== undefined) {
      throw new ToolDefinitionError(`${where}: the schema at ${path} refers back to ${ancestor}, which contains it: JSON has no cycles. Write recursion with $defs and $ref.`);
    }
    if (depth > MAX_SCHEMA_DEPTH) throw new ToolDefinitionError(`${where}: the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels at ${path}.`);
    open.set(value, path);
    for (const [key, child] of Object.entries(value)) if (child !== null && typeof child === 'object') visit(child, `${path}/${key}`, depth + 1);
    open.delete(value);
  };
  visit(schema, '#', 0);
}

/**
 * Runs `read` on a schema given by a user, turning any exception that is not the library's own (a getter or a Proxy
 * trap that throws) into a `ToolDefinitionError`.
 *
 * @throws ToolDefinitionError for anything `read` throws.
 */
export function readSchema<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ToolDefinitionError) throw error;
    throw new ToolDefinitionError(`${where}: the schema could not be read: ${errorText(error)}`, { cause: error });
  }
}

/** The message of anything thrown, never throwing itself. */
export function errorText(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'an error that could not be read';
  }
}

function assertJsonValue(value: unknown, where: string, at: string): void {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' || value === undefined) {
    throw new ToolDefinitionError(`${where}: the schema holds ${describe(value)} at ${at}; JSON Schema holds only JSON values. Remove it.`);
  }
}

const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SUB_SCHEMAS = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems']);
const isSchemaMap = (key: string) => SCHEMA_MAPS.has(key);
const isSubSchema = (key: string) => SUB_SCHEMAS.has(key);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return 'a bigint';
  if (value === undefined) return 'undefined';
  return `a ${typeof value}`;
}

/**
 * A deep, frozen copy of `schema` as plain JSON: TypeBox's symbol keys dropped, nothing shared with the input. This
 * is the model-facing form every provider format starts from. A schema in JSON Schema 2020-12 (one that names no other
 * dialect in `$schema`) has its draft-07 tuples rewritten to `prefixItems` (see `toPrefixItems`); a schema that names
 * draft-07 or 2019-09 is kept as written.
 */
export function toPlainJsonSchema(schema: object): JsonSchema {
  return plainJsonSchema(schema).schema;
}

/** {@link toPlainJsonSchema} with the JSON text of what it returns. */
export function plainJsonSchema(schema: object): { schema: JsonSchema; text: string } {
  const text = JSON.stringify(schema);
  const plain = JSON.parse(text) as JsonSchema;
  if (dialectOf(plain) !== '2020-12') return { schema: deepFreeze(plain), text };
  const rewritten = toPrefixItems(plain, text);
  return { schema: deepFreeze(rewritten), text: rewritten === plain ? text : JSON.stringify(rewritten) };
}

