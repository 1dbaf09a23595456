import { ToolDefinitionError } from '../tool/tool-definition-error';
import { mergeAllOf } from './merge-all-of';
import { ANNOTATION_KEYWORDS, constraintNote, withNotes } from './constraint-notes';
import type { JsonSchema } from './json-schema';
import { normalizeRefs, withDefs } from './schema-refs';
import { defineField, forEachSubschema, isNode, pointer, type SchemaNode } from './schema-walk';
import { deepFreeze } from './deep-freeze';

/** The string formats OpenAI strict mode accepts on the wire; any other is removed there and enforced locally. */
export const STRICT_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Constraints OpenAI strict mode accepts, kept on the wire as they are. */
const KEPT = new Set(['pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems']);
/** Regular-expression features strict mode does not take (lookaround, backreferences): such a pattern moves to the description. */
const UNSUPPORTED_PATTERN = /\(\?<?[=!]|\\[1-9]|\\k</;
/**
 * The size limits of a strict schema (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas):
 * objects nest at most 10 levels deep; at most 5,000 object properties in all; at most 120,000 characters of property
 * names, definition names, enum values and const values in all; at most 1,000 enum values in all; and the values of
 * one string enum with more than 250 values at most 15,000 characters long.
 */
export const STRICT_LIMITS = { depth: 10, properties: 5000, nameCharacters: 120_000, enumValues: 1000, largeEnum: 250, largeEnumCharacters: 15_000 } as const;
const MAX_DEPTH = STRICT_LIMITS.depth;

/** Keywords this converter reads itself. */
const STRUCTURAL = new Set([
  'type', 'enum', 'const', 'title', 'description', 'properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'items', 'anyOf', 'oneOf', 'allOf', 'format',
]);

/**
 * The strict-mode form of a params schema (OpenAI structured outputs, function calling with `strict: true`):
 *
 * - every object closed (`additionalProperties: false`) with every property listed in `required`;
 * - an optional field (not required, or with a `default`) made nullable while keeping its own type:
 *   `type: [T, "null"]` (an `enum` gains `null`), or an added `{ "type": "null" }` branch for unions, `const` and refs;
 * - `oneOf` written as `anyOf`, `allOf` of plain objects merged into one object;
 * - references as `#/$defs/<name>` (recursion allowed);
 * - unsupported keywords and formats (`minLength`, `uri`, `default`, `uniqueItems`, a `pattern` with lookaround or
 *   backreferences, ...) removed and named in the
 *   sub-schema's description. They stay in `tool.parameters`, so local validation keeps enforcing them, and defaults
 *   are applied locally once the nulls of omitted fields are stripped (see `compileNullStripper`).
 *
 * @example
 * ```ts
 * toStrictSchema({ type: 'object', properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: 'string' } }, required: ['command'] }, "tool 'shell'");
 * // { type: 'object', properties: { command: {...}, workdir: { type: ['string', 'null'] } },
 * //   required: ['command', 'workdir'], additionalProperties: false }
 * ```
 *
 * @param parameters - a tool's params schema (plain JSON Schema with `type: "object"` at the root).
 * @param where - the tool, named in errors.
 * @returns a new, frozen schema.
 * @throws ToolDefinitionError naming the tool, the path and the reason when the schema cannot be made strict: a union
 *   at the root, a map with free keys (`Type.Record`, `patternProperties`, `additionalProperties` with a schema), a
 *   tuple, a value of any type (`Type.Any()`, `Type.Unknown()`), an `allOf` that is not a set of plain objects, a
 *   `required` name that `properties` does not declare, objects nested more than 10 levels deep.
 */
export function toStrictSchema(parameters: JsonSchema, where: string): JsonSchema {
  return deepFreeze(strictSchema(parameters, where));
}

/**
 * Checks that `parameters` can be made strict, throwing the error {@link toStrictSchema} would throw: what
 * registration runs for a tool in strict mode (the formats build the schema when they list the tool).
 *
 * @throws ToolDefinitionError as {@link toStrictSchema} does.
 */
export function assertStrictSchema(parameters: JsonSchema, where: string): void {
  strictSchema(parameters, where);
}

function strictSchema(parameters: JsonSchema, where: string): SchemaNode {
  const normalized = normalizeRefs(parameters, where);
  const convert = (node: unknown, path: string) => strictNode(node, path, where);
  const root = convert(normalized.root, '#');
  if (Array.isArray(root.anyOf)) refuse(where, '#', 'is a union (anyOf/oneOf) at the root; providers need an object there', 'Make the union a field of the params object.');
  const defs = Object.fromEntries(Object.entries(normalized.defs).map(([name, def]) => [name, convert(def, `#/$defs/${name}`)]));
  const out = withDefs(normalized, root, defs);
  assertStrictSize(out, where);
  return out;
}

/** Refuses a strict schema over the size limits of {@link STRICT_LIMITS}, naming the first path over a limit. */
function assertStrictSize(schema: SchemaNode, where: string): void {
  const total = { properties: 0, nameCharacters: 0, enumValues: 0 };
  const textLength = (value: unknown) => (typeof value === 'string' ? value.length : 0);
  const visit = (node: unknown, path: string): void => {
    if (!isNode(node)) return;
    if (isNode(node.properties)) {
      for (const key of Object.keys(node.properties)) {
        total.properties += 1;
        total.nameCharacters += key.length;
        if (total.properties > STRICT_LIMITS.properties) refuse(where, pointer(pointer(path, 'properties'), key), `is object property number ${total.properties}; strict mode takes at most ${STRICT_LIMITS.properties} in all`, 'Split the tool.');
      }
    }
    if (isNode(node.$defs)) for (const name of Object.keys(node.$defs)) total.nameCharacters += name.length;
    if (Array.isArray(node.enum)) {
      total.enumValues += node.enum.length;
      if (total.enumValues > STRICT_LIMITS.enumValues) refuse(where, pointer(path, 'enum'), `brings the enum values to ${total.enumValues}; strict mode takes at most ${STRICT_LIMITS.enumValues} in all`, 'Use a string field and check the value in the tool.');
      const characters = node.enum.reduce((sum: number, value) => sum + textLength(value), 0);
      total.nameCharacters += characters;
      if (node.enum.length > STRICT_LIMITS.largeEnum && node.enum.every((value) => typeof value === 'string' || value === null) && characters > STRICT_LIMITS.largeEnumCharacters) {
        refuse(where, pointer(path, 'enum'), `lists ${node.enum.length} strings of ${characters} characters; strict mode takes at most ${STRICT_LIMITS.largeEnumCharacters} characters in an enum of more than ${STRICT_LIMITS.largeEnum} strings`, 'Use a string field and check the value in the tool.');
      }
    }
    total.nameCharacters += textLength(node.const);
    if (total.nameCharacters > STRICT_LIMITS.nameCharacters) refuse(where, path, `brings the property names, definition names, enum and const values to ${total.nameCharacters} characters; strict mode takes at most ${STRICT_LIMITS.nameCharacters}`, 'Split the tool or shorten the names.');
    forEachSubschema(node, path, visit);
  };
  visit(schema, '#');
}

function strictNode(input: unknown, path: string, where: string): SchemaNode {
  if (!isNode(input)) refuse(where, path, `is the boolean schema ${String(input)}`, 'Give it a typed schema.');
  if (typeof input.$ref === 'string') return typeof input.description === 'string' ? { $ref: input.$ref, description: input.description } : { $ref: input.$ref };
  const node = Array.isArray(input.allOf) ? mergeAllOf(input, path, (at, reason, fix) => refuse(where, at, reason, fix)) : input;
  const out: SchemaNode = {};
  const notes: string[] = [];
  if (typeof node.title === 'string') out.title = node.title;
  if (typeof node.description === 'string') out.description = node.description;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern' && UNSUPPORTED_PATTERN.test(String(value))) notes.push(constraintNote(key, value)!);
    else if (KEPT.has(key)) out[key] = value;
    else if (key === 'format') {
      if (STRICT_FORMATS.has(String(value))) out.format = value;
      else notes.push(constraintNote(key, value)!);
    } else if (!STRUCTURAL.has(key) && !ANNOTATION_KEYWORDS.has(key)) {
      const note = constraintNote(key, value);
      if (note !== undefined) notes.push(note);
    }
  }
  const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    const keyword = node.anyOf ? 'anyOf' : 'oneOf';
    if (isNode(node.properties) && Object.keys(node.properties).length > 0) {
      refuse(where, path, `has fields of its own beside its ${keyword}`, 'Repeat the shared fields in every branch.');
    }
    out.anyOf = union.map((branch, i) => strictNode(branch, pointer(pointer(path, keyword), i), where));
    return withNotes(out, notes);
  }
  const types = typesOf(node);
  if (types.length === 0) refuse(where, path, 'accepts a value of any type (no type, as Type.Any() or Type.Unknown() give)', 'Give it a type.');
  out.type = node.type ?? (types.length === 1 ? types[0] : types);
  if ('enum' in node) out.enum = node.enum;
  if ('const' in node) out.const = node.const;
  if (types.includes('object')) Object.assign(out, strictObject(node, path, where));
  if (types.includes('array')) out.items = strictItems(node, path, where);
  return withNotes(out, notes);
}

function strictObject(node: SchemaNode, path: string, where: string): SchemaNode {
  const extra = node.additionalProperties ?? node.patternProperties;
  if ((isNode(extra) && Object.keys(extra).length > 0) || isNode(node.patternProperties)) {
    refuse(where, path, 'is a map with free keys (Type.Record, patternProperties or additionalProperties with a schema); strict mode needs every key declared', 'Use an array of { key, value } objects.');
  }
  const depth = path.split('/properties/').length;
  if (depth > MAX_DEPTH) refuse(where, path, `nests objects ${depth} levels deep; strict mode takes at most ${MAX_DEPTH}`, 'Flatten the params.');
  const properties = isNode(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const key of required) {
    if (!Object.hasOwn(properties, key)) refuse(where, pointer(path, 'required'), `requires '${key}', which it does not declare in properties`, 'Declare the field or drop it from required.');
  }
  const out: SchemaNode = {};
  for (const [key, sub] of Object.entries(properties)) {
    const strict = strictNode(sub, pointer(pointer(path, 'properties'), key), where);
    defineField(out, key, required.has(key) && !(isNode(sub) && 'default' in sub) ? strict : nullable(strict));
  }
  return { properties: out, required: Object.keys(properties), additionalProperties: false };
}

function strictItems(node: SchemaNode, path: string, where: string): SchemaNode {
  if (Array.isArray(node.items) || Array.isArray(node.prefixItems)) {
    refuse(where, path, 'is a tuple (positional item schemas); strict mode takes one schema for all items', 'Use an object with named fields.');
  }
  if (!isNode(node.items)) refuse(where, path, 'is an array without an item schema', 'Give it items, e.g. Type.Array(Type.String()).');
  return strictNode(node.items, pointer(path, 'items'), where);
}

/**
 * The JSON types a node admits: its `type`; without one, `object` for object keywords and `array` for `items` (draft 7
 * lets them imply the type), else the types of its `const`/`enum` values.
 */
export function typesOf(node: SchemaNode): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  if (isNode(node.properties) || isNode(node.additionalProperties) || isNode(node.patternProperties)) return ['object'];
  if ('items' in node || Array.isArray(node.prefixItems)) return ['array'];
  const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : [];
  return [...new Set(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)))];
}

/** The node accepting `null` as well, keeping its own type (provider rule: "add null and nothing else"). */
function nullable(node: SchemaNode): SchemaNode {
  if (acceptsNull(node)) return node;
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  if (typeof node.$ref === 'string' || 'const' in node) {
    const { description, ...inner } = node;
    return { ...(description === undefined ? {} : { description }), anyOf: [inner, { type: 'null' }] };
  }
  const type = Array.isArray(node.type) ? [...(node.type as string[]), 'null'] : [node.type, 'null'];
  return Array.isArray(node.enum) ? { ...node, type, enum: [...node.enum, null] } : { ...node, type };
}

function acceptsNull(node: SchemaNode): boolean {
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  if (Array.isArray(node.anyOf)) return node.anyOf.some((branch) => isNode(branch) && acceptsNull(branch));
  return false;
}

function refuse(where: string, path: string, reason: string, fix: string): never {
  throw new ToolDefinitionError(`${where}: the params schema cannot be made strict: the schema at ${path} ${reason}. ${fix} Or opt the tool out of strict mode with { strict: false }.`);
}

