import { dialectOf } from './dialect';
import type { JsonSchema } from './json-schema';

/**
 * The string formats ajv-formats defines (its "full" mode): a `format` outside this list is refused by the strict
 * compile, so a schema naming one is compiled at registration.
 */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set([
  'date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url',
  'email', 'hostname', 'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment',
  'relative-json-pointer', 'byte', 'int32', 'int64', 'float', 'double', 'password', 'binary',
]);

const TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS: ReadonlySet<string> = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
const BOUNDS: ReadonlySet<string> = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
const TEXTS: ReadonlySet<string> = new Set(['title', 'description', '$comment']);
const FLAGS: ReadonlySet<string> = new Set(['uniqueItems', 'deprecated', 'readOnly', 'writeOnly']);
const UNIONS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf']);
const DIALECT_2020 = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** Nesting past this depth is left to the compiler (nothing generated or hand-written comes near it). */
const MAX_DEPTH = 64;

/**
 * Whether the strict validator compile (see `compileValidator`) certainly accepts `schema`, so compiling it can wait
 * for the tool's first call without changing what registration refuses. The answer is conservative: true only for
 * schemas built from a closed list of keywords (types, properties, required names that are declared properties,
 * additionalProperties, items, enum, const, numeric and length bounds, patterns that compile as Unicode regular
 * expressions, the formats of {@link KNOWN_FORMATS}, unions, `not`, annotations) with well-formed values, in JSON
 * Schema 2020-12, with a `default` only where it is applied (a field's schema outside any union, `not` or `allOf`).
 * Anything else (`$ref`, `$defs`, conditionals, tuples, an unknown keyword or format, a malformed value, a field named
 * after an `Object.prototype` member) answers false: that schema is compiled at registration, and the compiler's
 * refusal is the registration error, word for word.
 */
export function isDeferrable(schema: JsonSchema): boolean {
  const declared = schema.$schema;
  if (declared !== undefined && (typeof declared !== 'string' || !DIALECT_2020.test(declared) || dialectOf(schema) !== '2020-12')) return false;
  return node(schema, true, false, false, 0);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * @param root - the top-level schema (`$schema` allowed, `default` never applied there).
 * @param field - a field's own schema (a value of `properties`): where a `default` is applied.
 * @param composite - inside `anyOf`, `oneOf`, `allOf` or `not`, where a `default` is never applied.
 */
function node(schema: unknown, root: boolean, field: boolean, composite: boolean, depth: number): boolean {
  if (!isObject(schema) || depth > MAX_DEPTH) return false;
  for (const key in schema) {
    if (!keyword(schema, key, schema[key], root, field, composite, depth)) return false;
  }
  return true;
}

function keyword(schema: Record<string, unknown>, key: string, value: unknown, root: boolean, field: boolean, composite: boolean, depth: number): boolean {
  if (COUNTS.has(key)) return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  if (BOUNDS.has(key)) return typeof value === 'number' && Number.isFinite(value);
  if (TEXTS.has(key)) return typeof value === 'string';
  if (FLAGS.has(key)) return typeof value === 'boolean';
  if (UNIONS.has(key)) return Array.isArray(value) && value.length > 0 && value.every((sub) => node(sub, false, false, true, depth + 1));
  switch (key) {
    case 'type':
      return typeof value === 'string' ? TYPES.has(value) : Array.isArray(value) && value.length > 0 && new Set(value).size === value.length && value.every((t) => typeof t === 'string' && TYPES.has(t));
    case 'properties':
      return isObject(value) && Object.keys(value).every((name) => !(name in Object.prototype) && node(value[name], false, true, composite, depth + 1));
    case 'required':
      return Array.isArray(value) && new Set(value).size === value.length && value.every((name) => typeof name === 'string' && isObject(schema.properties) && Object.hasOwn(schema.properties, name));
    case 'additionalProperties':
      return typeof value === 'boolean' || node(value, false, false, composite, depth + 1);
    case 'items':
    case 'not':
      return node(value, false, false, composite || key === 'not', depth + 1);
    case 'enum':
      return Array.isArray(value) && value.length > 0;
    case 'const':
    case 'examples':
      return key === 'const' || Array.isArray(value);
    case 'multipleOf':
      return typeof value === 'number' && Number.isFinite(value) && value > 0;
    case 'pattern':
      return typeof value === 'string' && compilesAsUnicode(value);
    case 'format':
      return typeof value === 'string' && KNOWN_FORMATS.has(value);
    case 'default':
      return field && !composite;
    case '$schema':
      return root;
    default:
      return false;
  }
}

function compilesAsUnicode(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
