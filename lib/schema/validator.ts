import type { default as Ajv07, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { default as Ajv2019 } from 'ajv/dist/2019';
import type { default as Ajv2020 } from 'ajv/dist/2020';
import type * as AjvModules from './ajv-modules';
import type { AjvInstance } from './ajv-modules';
import { dialectOf, type SchemaDialect } from './dialect';
import { isDeferrable } from './deferrable';
import { isNode, mapSubschemas, pointer } from './schema-walk';
import { ToolDefinitionError } from '../tool/tool-definition-error';
import type { JsonSchema } from './json-schema';
import { cutText } from '../text/cut-text';

const instances = new Map<string, AjvInstance>();
const compiled = new Map<string, ValidateFunction>();
/** Instances the string formats were added to (on the first schema that names a `format`). */
const withFormats = new WeakSet<AjvInstance>();
let compilations = 0;

/** How many schemas have been compiled in this process (identical schemas share one compilation). */
export function compileCount(): number {
  return compilations;
}

/**
 * The Ajv instance a schema is compiled with, one per dialect (Ajv's 2020-12 class by default, its draft-07 or
 * 2019-09 class where the schema's `$schema` names that dialect): all errors reported (the model corrects every field
 * in one retry), schema defaults applied, no type coercion, the standard string formats of ajv-formats, and Ajv's
 * strict mode so that unknown keywords, types and formats are registration errors rather than silently ignored.
 *
 * `ownProperties` is for schemas naming a field after an `Object.prototype` member (`constructor`, `toString`,
 * `valueOf`, ...): it checks own properties only, else such a field is "present" through the prototype, so an optional
 * one can never be left out and a missing required one is not reported. Kept apart because the own-property checks
 * cost every call of every other tool about a third of the validation time.
 */
function ajv(dialect: SchemaDialect, ownProperties: boolean, dynamic: boolean, meta: boolean): AjvInstance {
  const key = `${dialect}:${String(ownProperties)}:${String(dynamic)}:${String(meta)}`;
  let instance = instances.get(key);
  if (instance === undefined) instances.set(key, (instance = createAjv(dialect, ownProperties, dynamic, meta)));
  return instance;
}

/**
 * A reference that does not start with `#` (a URI: it may name the dialect's meta-schema), or a dynamic one: the schema
 * is compiled by an instance that holds Ajv's meta-schemas. Every other schema is compiled without them, which spares
 * the first compile in a process the cost of adding them (about a third of it).
 */
const NEEDS_META = /"\$(?:ref|dynamicRef|recursiveRef)":"(?!#)/;

/**
 * Keywords whose generated code needs Ajv's dynamic-scope and evaluated-property tracking. The 2019-09 and 2020-12
 * classes always generate that tracking, which costs every call (an object allocated per validation); a schema with
 * none of these keywords is compiled by an instance of the same class with the tracking turned off, which validates
 * the same values with the draft-07 class's code.
 */
const DYNAMIC_KEYWORDS = /"(?:\$dynamicRef|\$dynamicAnchor|\$recursiveRef|\$recursiveAnchor|unevaluatedProperties|unevaluatedItems)"/;

/** The Ajv modules, loaded with the first compile (see `ajv-modules.ts`). */
let modules: typeof AjvModules | undefined;

function ajvModules(): typeof AjvModules {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, off the import path
  return (modules ??= require('./ajv-modules') as typeof AjvModules);
}

/**
 * The Ajv class of a dialect, loaded on the first compile of a schema in that dialect: importing the library loads no
 * validator code, and a process whose schemas are all 2020-12 never loads the other dialects' classes.
 */
function ajvClass(dialect: SchemaDialect): typeof Ajv07 | typeof Ajv2019 | typeof Ajv2020 {
  if (dialect === 'draft-07') return ajvModules().ajvDraft07();
  if (dialect === '2019-09') return ajvModules().ajv2019();
  return ajvModules().ajv2020();
}

/** Adds ajv-formats' string formats to `instance` the first time one of its schemas names a `format`. */
function ensureFormats(instance: AjvInstance): void {
  if (withFormats.has(instance)) return;
  ajvModules().ajvFormats()(instance);
  withFormats.add(instance);
}

function createAjv(dialect: SchemaDialect, ownProperties: boolean, dynamic: boolean, meta: boolean): AjvInstance {
  const AjvClass = ajvClass(dialect);
  const instance = (
    new AjvClass({
      allErrors: true,
      useDefaults: true,
      coerceTypes: false,
      verbose: true,
      strict: true,
      strictTypes: false,
      strictTuples: false,
      allowUnionTypes: true,
      ownProperties,
      meta,
      // Compiling the draft-07 meta-schema costs ~35 ms at the first registration. Ajv's strict compile still refuses
      // unknown keywords, types and formats and malformed keyword values, and assertJsonSchema checks the structure.
      validateSchema: false,
      // Ajv's code optimiser makes compiling about 5x slower for no measurable gain in validation speed on tool-sized
      // schemas; registration of 1,000 tools is a benchmarked path.
      code: { optimize: false },
    } satisfies Options)
  ) as AjvInstance;
  // MCP 2026-07-28 (SEP-2243) annotates a tool's primitive params with `x-mcp-header` (the client mirrors them into
  // `Mcp-Param-*` HTTP headers): an annotation, not an assertion, which strict mode would otherwise refuse.
  instance.addKeyword('x-mcp-header');
  if (dialect !== 'draft-07') {
    // Ajv resolves `$anchor` (2019-09 and later) but its strict mode still reports the keyword as unknown.
    instance.addKeyword('$anchor');
    // Read at compile time only; see DYNAMIC_KEYWORDS.
    if (!dynamic) Object.assign(instance.opts, { dynamicRef: false, unevaluated: false });
  }
  return instance;
}

/**
 * The path of the first field `default` Ajv cannot apply: one on a field of an object inside `anyOf`, `oneOf`, `not`
 * or `if` (Ajv, "Assigning defaults": https://ajv.js.org/guide/modifying-data.html#assigning-defaults).
 */
function ignoredDefault(node: unknown, path: string, inside: boolean, isField = false): string | undefined {
  if (!isNode(node)) return undefined;
  if (inside && isField && 'default' in node) return pointer(path, 'default');
  let found: string | undefined;
  mapSubschemas(node, path, (sub, at) => {
    const keyword = at.slice(path.length + 1).split('/')[0];
    found ??= ignoredDefault(sub, at, inside || keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'not' || keyword === 'if', keyword === 'properties');
    return sub;
  });
  return found;
}

/** Whether a field anywhere in `schema` (a `properties` or `required` name) is also an `Object.prototype` member. */
function namesPrototypeMember(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.required) && node.required.some((name) => typeof name === 'string' && name in Object.prototype)) return true;
  const properties = node.properties;
  if (properties !== null && typeof properties === 'object' && Object.keys(properties).some((name) => name in Object.prototype)) return true;
  return Object.values(node).some(namesPrototypeMember);
}

/**
 * Compiles `schema` once (identical schemas share one validator, keyed by their JSON text), in the dialect its
 * `$schema` names (see `dialectOf`; JSON Schema 2020-12 when it names none). A 2020-12 schema is expected in its
 * 2020-12 spelling: `toPlainJsonSchema` rewrites draft-07 tuples (`items` as an array) to `prefixItems` first.
 *
 * @param where - the tool, named in the error.
 * @throws ToolDefinitionError when Ajv rejects the schema (unknown keyword or format, invalid structure) or `$schema`
 *   names a dialect other than 2020-12, 2019-09, draft-07 or draft-06.
 */
export function compileValidator(schema: JsonSchema, where: string): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    const dialect = dialectOf(schema);
    if (dialect === undefined) {
      throw new ToolDefinitionError(`${where}: the params schema names the dialect ${JSON.stringify(schema.$schema)} in $schema; the validator takes JSON Schema 2020-12 (the default), 2019-09, draft-07 and draft-06. Remove $schema or name one of these.`);
    }
    try {
      // A reference to a meta-schema brings the meta-schema's own dynamic references.
      const meta = DYNAMIC_KEYWORDS.test(key) || NEEDS_META.test(key);
      const dynamic = meta;
      const instance = ajv(dialect, namesPrototypeMember(schema), dynamic, meta);
      // `format`, ajv-formats' `formatMinimum`-like keywords, and the meta-schemas (which name formats).
      if (meta || key.includes('"format')) ensureFormats(instance);
      validate = instance.compile(schema);
      compilations++;
    } catch (error) {
      const message = (error as Error).message;
      const ignored = /default is ignored/.test(message) ? ignoredDefault(schema, '#', false) : undefined;
      if (ignored !== undefined) {
        throw new ToolDefinitionError(`${where}: the params schema has a default at ${ignored} on a field inside anyOf, oneOf, not or if, where it is never applied. Remove it, or declare the field with its default outside the union.`, { cause: error });
      }
      const loop = refLoop(schema);
      if (loop !== undefined) {
        throw new ToolDefinitionError(`${where}: the params schema's references ${loop.join(' -> ')} lead back to themselves without reaching a schema. Point one of them at a schema.`, { cause: error });
      }
      throw new ToolDefinitionError(`${where}: the params schema is not valid JSON Schema: ${message}. Fix the schema.`, { cause: error });
    }
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * A tool's params validator, compiled when first needed. A schema the strict compile certainly accepts (see
 * `isDeferrable`) is compiled on the first call that validates against it, so registering thousands of tools costs no
 * compilation and a tool never called never holds a compiled validator; any other schema is compiled here, so every
 * schema registration refuses today is still refused at registration, with the same error. Calls after the first use
 * the compiled function directly; identical schemas share one compiled function (see {@link compileValidator}).
 *
 * @param where - the tool, named in errors.
 * @returns a function giving the compiled validator.
 * @throws ToolDefinitionError as {@link compileValidator} does, for a schema compiled here.
 */
export function lazyValidator(schema: JsonSchema, where: string): () => ValidateFunction {
  if (!isDeferrable(schema)) {
    const validate = compileValidator(schema, where);
    return () => validate;
  }
  let validate: ValidateFunction | undefined;
  return () => (validate ??= compileValidator(schema, where));
}

/**
 * Turns Ajv's errors into the message a model reads: one line per offending field with its path and why, so the model
 * can correct every field in one retry. Errors inside the branches of a failed `anyOf`/`oneOf` are folded into that
 * union's line.
 */
export function describeValidationErrors(toolName: string, errors: readonly ErrorObject[]): string {
  let unions: ErrorObject[] | undefined;
  for (const error of errors) if (isUnion(error)) (unions ??= []).push(error);
  // Built as it goes: the first MAX_LINES distinct lines, and a count of the rest.
  const lines = new Set<string>();
  let text = `Invalid arguments for tool '${toolName}':`;
  for (const error of errors) {
    if (unions !== undefined && !isUnion(error) && unions.some((u) => error.schemaPath.startsWith(`${u.schemaPath}/`))) continue;
    const line = `\n- ${cutText(fieldPath(error), MAX_PATH)}: ${reason(error)}`;
    if (lines.has(line)) continue;
    lines.add(line);
    // A model that sends 10,000 wrong array items must not get a 400 kB message back: the first lines say what to fix.
    if (lines.size <= MAX_LINES) text += line;
  }
  if (lines.size > MAX_LINES) text += `\n- ... and ${lines.size - MAX_LINES} more problems of the same kinds`;
  return `${text}\nFix these fields and call the tool again.`;
}

/** At most this many offending fields are listed in one message. */
const MAX_LINES = 20;
/** A field path longer than this (a model-invented key of any length) is cut. */
const MAX_PATH = 200;
/** A value the model sent is echoed in at most this many characters (of its JSON text). */
const MAX_VALUE = 61;

const isUnion = (error: ErrorObject) => error.keyword === 'anyOf' || error.keyword === 'oneOf';

function fieldPath(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const last = error.keyword === 'required' ? String(params.missingProperty) : error.keyword === 'additionalProperties' ? String(params.additionalProperty) : undefined;
  // The common case, a top-level field: no pointer to decode.
  if (error.instancePath === '') return last === undefined ? '(arguments)' : segmentText(last, 0);
  const segments = error.instancePath.split('/');
  let path = '';
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    path += segmentText(segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment, i - 1);
  }
  return last === undefined ? path : path + segmentText(last, segments.length - 1);
}

/** A path segment as the message writes it: `[3]` for an array index, `name` first, `.name` after. */
function segmentText(segment: string, index: number): string {
  return isIndex(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`;
}

/** Whether a path segment is an array index: one or more ASCII digits. */
function isIndex(segment: string): boolean {
  if (segment.length === 0) return false;
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

function reason(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required but missing';
    case 'additionalProperties':
      return 'is not an accepted field; remove it';
    case 'type':
      return `must be ${String(params.type)}, got ${got(error.data)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${got(error.data)}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}, got ${got(error.data)}`;
    case 'anyOf':
    case 'oneOf':
      return `must match one of the allowed shapes, got ${got(error.data)}`;
    default:
      return `${error.message ?? 'is invalid'}${error.keyword === 'format' || error.keyword === 'pattern' ? `, got ${got(error.data)}` : ''}`;
  }
}

/**
 * What the model sent, in a few words. Arguments passed as objects by a host can hold values JSON has no text for
 * (undefined in a sparse array, NaN, a bigint, a function, a symbol): those are named by kind, never serialized.
 */
function got(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${String(value)}`;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
  return `${typeof value} ${cutText(JSON.stringify(value), MAX_VALUE, '..."')}`;
}

/**
 * A chain of definitions that are nothing but a `$ref` to the next one and lead back to the first (`A -> B -> A`),
 * which no validator can resolve to a schema; undefined when there is none.
 */
function refLoop(schema: JsonSchema): string[] | undefined {
  const defs = (schema as { $defs?: unknown }).$defs;
  if (defs === null || typeof defs !== 'object') return undefined;
  const onlyRef = (name: string): string | undefined => {
    const node = (defs as Record<string, unknown>)[name];
    if (node === null || typeof node !== 'object') return undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    return typeof ref === 'string' && ref.startsWith('#/$defs/') ? decodeURIComponent(ref.slice('#/$defs/'.length)) : undefined;
  };
  for (const start of Object.keys(defs)) {
    const chain = [start];
    for (let next = onlyRef(start); next !== undefined && chain.length <= Object.keys(defs).length; next = onlyRef(next)) {
      if (chain.includes(next)) return [...chain.slice(chain.indexOf(next)), next].map((name) => `#/$defs/${name}`);
      chain.push(next);
    }
  }
  return undefined;
}
