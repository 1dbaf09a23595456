import { ANNOTATION_KEYWORDS, constraintNote, withNotes } from '../schema/constraint-notes';
import type { JsonSchema } from '../schema/json-schema';
import { mergeAllOf } from '../schema/merge-all-of';
import { normalizeRefs, refTarget, type NormalizedSchema } from '../schema/schema-refs';
import { isNode, pointer, type SchemaNode } from '../schema/schema-walk';
import { typesOf } from '../schema/strict-schema';
import { ToolDefinitionError } from '../tool/tool-definition-error';

/** The values of the `@google/genai` SDK's `Type` enum. */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';

/**
 * A Gemini `Schema`: the OpenAPI 3.0 subset of function declarations. Field for field the SDK's `Schema` (its int64
 * counts are strings), with `type` as the enum's string values.
 */
export interface GeminiSchema {
  type?: GeminiType;
  title?: string;
  description?: string;
  nullable?: boolean;
  format?: string;
  enum?: string[];
  default?: unknown;
  anyOf?: GeminiSchema[];
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minProperties?: string;
  maxProperties?: string;
  items?: GeminiSchema;
  minItems?: string;
  maxItems?: string;
  minLength?: string;
  maxLength?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

/** The formats Gemini documents per type; others are dropped and named in the description. */
const GEMINI_FORMATS: Record<string, ReadonlySet<string>> = { string: new Set(['date-time', 'enum']), number: new Set(['float', 'double']), integer: new Set(['int32', 'int64']) };
const COUNTS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;
/** The counts that apply to each type (JSON Schema ignores the others for that type, and so does this converter). */
const COUNTS_OF: Record<string, ReadonlyArray<(typeof COUNTS)[number]>> = { string: ['minLength', 'maxLength'], array: ['minItems', 'maxItems'], object: ['minProperties', 'maxProperties'] };
const HANDLED = new Set([
  'type', 'title', 'description', 'enum', 'const', 'default', 'format', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'properties', 'required', 'additionalProperties', 'patternProperties', 'items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'unevaluatedProperties', ...COUNTS,
]);

/** Gemini's rule for parameter names (the top-level properties). */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

interface Walk {
  readonly where: string;
  readonly schema: NormalizedSchema;
  /** The definitions being inlined, outermost first: a ref back into one of them is recursion. */
  readonly inlining: readonly string[];
}

/**
 * Converts a params schema to Gemini's OpenAPI subset (provider rules): `$ref`s inlined, `oneOf` as `anyOf`, `allOf`
 * of objects merged, `nullable: true` instead of type lists and null branches, `additionalProperties` dropped, enums
 * kept only for strings (`const` strings become one-value enums; numeric enums keep their type, gain their smallest
 * and largest value as bounds and are listed in the description), exclusive bounds rewritten as inclusive ones (an
 * integer bound moves by one; a number bound is named in the description), unsupported formats and keywords moved
 * into the description, counts written as strings. A union is sent as `{anyOf}` alone (Gemini 3 and Vertex AI refuse
 * any field beside `anyOf`): its description, `nullable` and `default` move into the branches. A string enum with an
 * empty member (which Gemini refuses) is sent as a plain string with its values in the description. Local validation
 * keeps enforcing the original schema.
 *
 * @param where - the tool, named in errors.
 * @throws ToolDefinitionError naming the tool, the path and the reason for what the subset cannot express: a
 *   recursive schema, a map with free keys, a tuple, a value of any type, a parameter name Gemini does not take, a
 *   union at the root.
 */
export function toGeminiSchema(parameters: JsonSchema, where: string): GeminiSchema {
  const schema = normalizeRefs(parameters, where);
  const walk: Walk = { where, schema, inlining: [] };
  for (const keyword of ['anyOf', 'oneOf']) {
    if (keyword in schema.root) refuse(walk, '#', `is a union (${keyword}) at the root; Gemini needs an object there`, 'Make the union a field of the params object.');
  }
  const root = convert(schema.root, '#', walk);
  // Checked on the converted root, so the fields of a merged root allOf are checked too.
  for (const key of Object.keys(root.properties ?? {})) {
    if (!PARAMETER_NAME.test(key)) refuse(walk, pointer('#/properties', key), `is named '${key}': Gemini takes parameter names of letters, digits and '_' that start with a letter or '_' (at most 64)`, 'Rename the field.');
  }
  return { ...root, type: 'OBJECT', properties: root.properties ?? {} };
}

function convert(input: unknown, path: string, walk: Walk): GeminiSchema {
  if (!isNode(input)) refuse(walk, path, `is the boolean schema ${String(input)}`, 'Give it a typed schema.');
  if (typeof input.$ref === 'string') return inline(input, path, walk);
  const node = Array.isArray(input.allOf) ? mergeAllOf(input, path, (at, reason, fix) => refuse(walk, at, reason, fix)) : input;
  const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    if (isNode(node.properties) && Object.keys(node.properties).length > 0) refuse(walk, path, 'has fields of its own beside its union', 'Repeat the shared fields in every branch.');
    return convertUnion(node, union, pointer(path, node.anyOf ? 'anyOf' : 'oneOf'), walk);
  }
  const types = typesOf(node);
  const nullable = types.includes('null');
  const concrete = types.filter((type) => type !== 'null');
  if (concrete.length === 0 && !nullable) refuse(walk, path, 'accepts a value of any type (no type, as Type.Any() or Type.Unknown() give)', 'Give it a type.');
  if (concrete.length > 1) {
    const { description, title: _title, default: _default, ...rest } = node;
    const anyOf = concrete.map((type) => convert(narrowValues({ ...rest, type }, type), path, walk));
    return unionOf(anyOf, { nullable, description: typeof description === 'string' ? description : undefined, ...('default' in node ? { default: node.default } : {}) });
  }
  const type = concrete[0];
  if (type === undefined) return { type: 'NULL', ...(typeof node.title === 'string' ? { title: node.title } : {}), ...(typeof node.description === 'string' ? { description: node.description } : {}) };
  const notes: string[] = [];
  const out: GeminiSchema = { type: type.toUpperCase() as GeminiType };
  if (typeof node.title === 'string') out.title = node.title;
  if (typeof node.description === 'string') out.description = node.description;
  if (nullable) out.nullable = true;
  enumPart(node, type, out, notes);
  if ('default' in node) out.default = node.default;
  if (typeof node.format === 'string') {
    if (GEMINI_FORMATS[type]?.has(node.format)) out.format = node.format;
    else notes.push(constraintNote('format', node.format)!);
  }
  if (typeof node.pattern === 'string' && type === 'string') out.pattern = node.pattern;
  for (const key of COUNTS_OF[type] ?? []) if (typeof node[key] === 'number') out[key] = String(node[key]);
  if (type === 'number' || type === 'integer') boundsPart(node, type, out, notes);
  if (type === 'object') objectPart(node, path, walk, out);
  if (type === 'array') out.items = itemsOf(node, path, walk);
  for (const [key, value] of Object.entries(node)) {
    if (HANDLED.has(key) || ANNOTATION_KEYWORDS.has(key)) continue;
    const note = constraintNote(key, value);
    if (note !== undefined) notes.push(note);
  }
  return withNotes(out as SchemaNode, notes) as GeminiSchema;
}

function inline(node: SchemaNode, path: string, walk: Walk): GeminiSchema {
  const ref = node.$ref as string;
  const name = ref.slice('#/$defs/'.length);
  if (walk.inlining.includes(name)) {
    refuse(walk, path, `refers back to '${name}', which contains it: a recursive schema cannot be inlined, and Gemini's schema subset has no references`, 'Bound the depth with explicit nested types.');
  }
  const target = convert(refTarget(walk.schema, ref), path, { ...walk, inlining: [...walk.inlining, name] });
  if (typeof node.description !== 'string') return target;
  return target.anyOf === undefined ? { ...target, description: node.description } : unionOf(target.anyOf, { nullable: false, description: node.description });
}

function convertUnion(node: SchemaNode, branches: unknown[], path: string, walk: Walk): GeminiSchema {
  // A branch taking only null (`{type: "null"}`, `{const: null}`) makes the union nullable.
  const onlyNull = (branch: unknown): boolean => isNode(branch) && (branch.type === 'null' || (branch.const === null && Object.keys(branch).every((key) => key === 'const' || key === 'type' || ANNOTATION_KEYWORDS.has(key))));
  const nullable = branches.some(onlyNull);
  const rest = branches.filter((branch) => !onlyNull(branch));
  if (rest.length === 0) return convert({ type: 'null', ...(typeof node.description === 'string' ? { description: node.description } : {}) }, path, walk);
  const literals = literalUnion(rest);
  const extra: GeminiSchema = { ...(nullable ? { nullable: true } : {}), ...('default' in node ? { default: node.default } : {}) };
  const description = typeof node.description === 'string' ? node.description : undefined;
  // A NULL schema already takes null: `nullable` on it is redundant, and reads as a type list naming null twice.
  const withExtra = (schema: GeminiSchema): GeminiSchema => (schema.type === 'NULL' ? { ...schema, ...extra, nullable: undefined } : { ...schema, ...extra });
  if (literals !== undefined) return dropUndefined(withExtra(convert({ ...literals, ...(description === undefined ? {} : { description }) }, path, walk)));
  const anyOf = rest.map((branch) => convert(branch, pointer(path, branches.indexOf(branch)), walk));
  if (anyOf.length === 1 && anyOf[0]!.anyOf === undefined) return annotate(dropUndefined(withExtra(anyOf[0]!)), description ?? anyOf[0]!.description);
  return unionOf(anyOf, { nullable, description, ...('default' in node ? { default: node.default } : {}) });
}

interface UnionExtras {
  readonly nullable: boolean;
  readonly description: string | undefined;
  readonly default?: unknown;
}

/**
 * `{anyOf}` and nothing else: Gemini 3 and Vertex AI refuse a schema with any field beside `anyOf` ("When using any_of,
 * it must be the only field set"). What the union node carried moves into its branches: `nullable` onto each branch
 * (a NULL branch already takes null), the description onto each branch (before the branch's own), the default onto the
 * branches whose type it has. Nested unions are flattened, so no branch is itself a union with fields of its own.
 */
function unionOf(branches: readonly GeminiSchema[], extras: UnionExtras): GeminiSchema {
  const flat = branches.flatMap((branch) => (branch.anyOf !== undefined && Object.keys(branch).length === 1 ? branch.anyOf : [branch]));
  const anyOf = flat.map((branch) => {
    const out: GeminiSchema = { ...branch };
    if (extras.nullable && out.type !== 'NULL') out.nullable = true;
    if (extras.description !== undefined) out.description = out.description === undefined || out.description === '' ? extras.description : `${extras.description} ${out.description}`;
    if ('default' in extras && out.default === undefined && hasGeminiType(extras.default, out)) out.default = extras.default;
    return out;
  });
  return { anyOf };
}

/** Whether `value` is of the branch's type (a null default goes to a nullable or NULL branch). */
function hasGeminiType(value: unknown, branch: GeminiSchema): boolean {
  if (value === null) return branch.nullable === true || branch.type === 'NULL';
  switch (branch.type) {
    case 'STRING':
      return typeof value === 'string' && (branch.enum === undefined || branch.enum.includes(value));
    case 'INTEGER':
      return Number.isInteger(value);
    case 'NUMBER':
      return typeof value === 'number';
    case 'BOOLEAN':
      return typeof value === 'boolean';
    case 'ARRAY':
      return Array.isArray(value);
    case 'OBJECT':
      return typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}

function dropUndefined(schema: GeminiSchema): GeminiSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined)) as GeminiSchema;
}

/** The node with its `enum`/`const` values cut to those of `type` (one branch of a type list such as `["string", "integer"]`). */
function narrowValues(node: SchemaNode, type: string): SchemaNode {
  if (!Array.isArray(node.enum)) return node;
  return { ...node, enum: node.enum.filter((value) => value === null || typesOf({ const: value }).some((t) => t === type || (t === 'integer' && type === 'number'))) };
}

/** A union of `const` branches of one type (`Type.Union` of literals, `Type.Enum`) as one enum node. */
function literalUnion(branches: unknown[]): SchemaNode | undefined {
  if (branches.length === 0 || !branches.every((branch) => isNode(branch) && 'const' in branch && Object.keys(branch).every((key) => key === 'const' || key === 'type'))) return undefined;
  const values = branches.map((branch) => (branch as SchemaNode).const);
  const types = new Set(values.map((value) => (typeof value === 'number' ? 'number' : typeof value)));
  if (types.size !== 1) return undefined;
  const type = values.every((value) => Number.isInteger(value)) ? 'integer' : [...types][0];
  return { type, enum: values };
}

function enumPart(node: SchemaNode, type: string, out: GeminiSchema, notes: string[]): void {
  const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values === undefined) return;
  const concrete = values.filter((value) => value !== null);
  if (concrete.length < values.length) out.nullable = true;
  // Gemini refuses an empty string as an enum member ("enum[N]: cannot be empty"): such an enum is sent as a plain
  // string with its values in the description, and local validation keeps enforcing them.
  if (type === 'string' && concrete.length > 0 && !concrete.includes('')) {
    out.enum = concrete as string[];
    return;
  }
  if (concrete.length === 0) return;
  notes.push(concrete.length === 1 ? constraintNote('const', concrete[0])! : constraintNote('enum', concrete)!);
  const numbers = concrete.filter((value): value is number => typeof value === 'number');
  if (numbers.length > 0 && (type === 'number' || type === 'integer')) {
    out.minimum = Math.min(...numbers);
    out.maximum = Math.max(...numbers);
  }
}

function boundsPart(node: SchemaNode, type: string, out: GeminiSchema, notes: string[]): void {
  if (typeof node.minimum === 'number') out.minimum = Math.max(node.minimum, out.minimum ?? -Infinity);
  if (typeof node.maximum === 'number') out.maximum = Math.min(node.maximum, out.maximum ?? Infinity);
  const step = type === 'integer' ? 1 : 0;
  if (typeof node.exclusiveMinimum === 'number') {
    const bound = Number.isInteger(node.exclusiveMinimum) ? node.exclusiveMinimum + step : node.exclusiveMinimum;
    if (out.minimum === undefined || bound >= out.minimum) out.minimum = step === 1 ? Math.ceil(bound) : bound;
    if (step === 0) notes.push(constraintNote('exclusiveMinimum', node.exclusiveMinimum)!);
  }
  if (typeof node.exclusiveMaximum === 'number') {
    const bound = Number.isInteger(node.exclusiveMaximum) ? node.exclusiveMaximum - step : node.exclusiveMaximum;
    if (out.maximum === undefined || bound <= out.maximum) out.maximum = step === 1 ? Math.floor(bound) : bound;
    if (step === 0) notes.push(constraintNote('exclusiveMaximum', node.exclusiveMaximum)!);
  }
}

function objectPart(node: SchemaNode, path: string, walk: Walk, out: GeminiSchema): void {
  const properties = isNode(node.properties) ? node.properties : {};
  const extra = node.additionalProperties ?? node.patternProperties;
  if (Object.keys(properties).length === 0 && ((isNode(extra) && Object.keys(extra).length > 0) || isNode(node.patternProperties))) {
    refuse(walk, path, 'is a map with free keys (Type.Record, patternProperties or additionalProperties with a schema), which the subset cannot express', 'Use an array of { key, value } objects.');
  }
  out.properties = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, convert(sub, pointer(pointer(path, 'properties'), key), walk)]));
  const required = Array.isArray(node.required) ? (node.required as string[]).filter((key) => Object.hasOwn(properties, key)) : [];
  if (required.length > 0) out.required = required;
}

function itemsOf(node: SchemaNode, path: string, walk: Walk): GeminiSchema {
  if (Array.isArray(node.items) || Array.isArray(node.prefixItems)) refuse(walk, path, 'is a tuple (positional item schemas), which the subset cannot express', 'Use an object with named fields.');
  if (!isNode(node.items)) refuse(walk, path, 'is an array without an item schema', 'Give it items, e.g. Type.Array(Type.String()).');
  return convert(node.items, pointer(path, 'items'), walk);
}

function annotate(schema: GeminiSchema, description: string | undefined): GeminiSchema {
  return description === undefined ? schema : { ...schema, description };
}

function refuse(walk: Walk, path: string, reason: string, fix: string): never {
  throw new ToolDefinitionError(`${walk.where}: the params schema cannot be sent to Gemini: the schema at ${path} ${reason}. ${fix}`);
}

/**
 * One Gemini function declaration: `{"name", "description", "parameters"}`, `parameters` in the OpenAPI subset (see
 * {@link toGeminiSchema}). Send them as `tools: [{ functionDeclarations }]`. Field for field the SDK's
 * `FunctionDeclaration`; TypeScript sees the SDK's `Type` enum as nominal, so typed code passes the declarations
 * through `withGeminiTypeEnum(declarations, Type)` (the values are the enum's already).
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters: GeminiSchema;
}
