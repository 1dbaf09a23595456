import type { JsonSchema } from './json-schema';
import { normalizeRefs, refTarget, type NormalizedSchema } from './schema-refs';
import { isNode, type SchemaNode } from './schema-walk';

/**
 * Returns `value` without the `null`s a strict-mode model sends for fields it leaves out. Never changes `value`: the
 * objects and arrays on the way to a removed null are copied, everything else is shared (the same reference comes back
 * when nothing is removed).
 */
export type NullStripper = (value: unknown) => unknown;

const NOTHING: NullStripper = (value) => value;

/**
 * Compiles, once per params schema, the step that turns the nulls of omitted fields back into absent fields (OpenAI
 * strict mode: the model sends `null` for every optional field it wants to leave out). It runs before validation and
 * before defaults, so the tool, its approval predicate and its status line see what a non-strict call would give.
 *
 * A field's `null` is removed when the field is optional (not required, or with a `default`) and its own schema does
 * not accept `null`; a field whose schema accepts `null` keeps it. The walk follows nested objects, array items,
 * `allOf` parts, `$ref`s (recursion included) and unions, where the first branch whose type and `const`/`enum`
 * discriminators fit the value is followed. A non-strict call never sends such nulls, so it is unaffected. The input
 * is never changed (see {@link NullStripper}).
 *
 * @param where - the tool, named in errors.
 * @throws ToolDefinitionError for a `$ref` that points nowhere (see `normalizeRefs`).
 */
export function compileNullStripper(parameters: JsonSchema, where: string): NullStripper {
  const schema = normalizeRefs(parameters, where);
  const byDef = new Map<string, NullStripper>();
  const compile = (node: unknown): NullStripper => {
    if (!isNode(node)) return NOTHING;
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      return (value) => {
        let strip = byDef.get(ref);
        if (strip === undefined) byDef.set(ref, (strip = compile(refTarget(schema, ref))));
        return strip(value);
      };
    }
    const parts = [objectStripper(node, compile, schema), ...(Array.isArray(node.allOf) ? node.allOf.map(compile) : [])];
    if (isNode(node.items)) parts.push(arrayStripper(compile(node.items)));
    const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    if (Array.isArray(union)) parts.push(unionStripper(union, compile, schema));
    const active = parts.filter((part) => part !== NOTHING);
    if (active.length === 0) return NOTHING;
    return active.length === 1 ? active[0]! : (value) => active.reduce((current, strip) => strip(current), value);
  };
  const root = compile(schema.root);
  if (root === NOTHING) return NOTHING;
  const fields = topLevelNullFields(schema.root, compile, schema);
  if (fields !== undefined) {
    // Only top-level fields can lose a null: a look at each of them answers, without a pass over the whole value.
    const strip: NullStripper = (value) => (isNode(value) && hasNullIn(value, fields) ? root(value) : value);
    FIELDS_ONLY.add(strip);
    return strip;
  }
  // Most calls carry no null at all: one pass over the value answers them without walking the schema.
  return (value) => (containsNull(value, 0) ? root(value) : value);
}

/** The strippers that look at a few named top-level fields only (see {@link checksFieldsOnly}). */
const FIELDS_ONLY = new WeakSet<NullStripper>();

/**
 * Whether `strip` costs a look at a few named top-level fields, not a pass over the value: its schema is a flat
 * object (no field holds anything the stripper walks into). A caller then skips its own search for a null (such as
 * scanning the JSON text for the word `null`) and simply calls it.
 */
export function checksFieldsOnly(strip: NullStripper): boolean {
  return FIELDS_ONLY.has(strip);
}

/**
 * The top-level fields whose null the stripper removes, when the schema is a flat object: `properties` at the root,
 * no root `$ref`, `allOf`, `items` or union, and no field whose own stripper walks into it. Undefined otherwise.
 */
function topLevelNullFields(node: unknown, compile: (node: unknown) => NullStripper, schema: NormalizedSchema): readonly string[] | undefined {
  if (!isNode(node) || !isNode(node.properties) || typeof node.$ref === 'string') return undefined;
  if (['allOf', 'anyOf', 'oneOf', 'items'].some((key) => key in node)) return undefined;
  const fields = objectFields(node, compile, schema);
  if (fields.some((field) => field.strip !== NOTHING)) return undefined;
  return fields.filter((field) => field.dropsNull).map((field) => field.key);
}

/** Whether one of `fields` of `value` is null (an inherited one too: the stripper itself then checks ownership). */
function hasNullIn(value: SchemaNode, fields: readonly string[]): boolean {
  for (let i = 0; i < fields.length; i++) if (value[fields[i]!] === null) return true;
  return false;
}

/** How deep {@link containsNull} looks before it assumes a null may be there (arguments are rarely this deep). */
const MAX_NULL_SCAN_DEPTH = 64;

/** Whether a null is anywhere in `value` (conservatively true past {@link MAX_NULL_SCAN_DEPTH} levels). */
function containsNull(value: unknown, depth: number): boolean {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  if (depth > MAX_NULL_SCAN_DEPTH) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (containsNull(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // Primitives answer without a call; the own-property check only for what could hold a null.
    if ((field === null || typeof field === 'object') && Object.hasOwn(value, key) && containsNull(field, depth + 1)) return true;
  }
  return false;
}

/** Each declared field of an object schema: whether its null is removed, and the stripper of its value. */
function objectFields(node: SchemaNode, compile: (node: unknown) => NullStripper, schema: NormalizedSchema): Array<{ key: string; dropsNull: boolean; strip: NullStripper }> {
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  return Object.entries(node.properties as SchemaNode).map(([key, sub]) => {
    const target = resolve(sub, schema);
    const dropsNull = (!required.has(key) || (isNode(sub) && 'default' in sub)) && !acceptsNull(target, schema);
    return { key, dropsNull, strip: compile(sub) };
  });
}

function objectStripper(node: SchemaNode, compile: (node: unknown) => NullStripper, schema: NormalizedSchema): NullStripper {
  if (!isNode(node.properties)) return NOTHING;
  const fields = objectFields(node, compile, schema);
  return (value) => {
    if (!isNode(value)) return value;
    let out: SchemaNode | undefined;
    for (const { key, dropsNull, strip } of fields) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const current = value[key];
      if (current === null && dropsNull) {
        out ??= { ...value };
        delete out[key];
        continue;
      }
      const next = strip(current);
      if (next === current) continue;
      out ??= { ...value };
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out ?? value;
  };
}

function arrayStripper(strip: NullStripper): NullStripper {
  return (value) => {
    if (!Array.isArray(value)) return value;
    // An item holding no null is kept as it is: a long array costs one pass, not one schema walk per item.
    const out = value.map((item: unknown) => (item !== null && typeof item === 'object' && !containsNull(item, 0) ? item : strip(item)));
    return out.every((item, i) => item === value[i]) ? value : out;
  };
}

function unionStripper(branches: unknown[], compile: (node: unknown) => NullStripper, schema: NormalizedSchema): NullStripper {
  const compiled = branches.map((branch) => ({ fit: branchFit(resolve(branch, schema), schema), strip: compile(branch) }));
  // Branches none of which strips anything (`string | null`, a union of primitives): whichever fits, nothing changes.
  if (compiled.every((branch) => branch.strip === NOTHING)) return NOTHING;
  return (value) => {
    let match: (typeof compiled)[number] | undefined;
    let best = -1;
    for (const candidate of compiled) {
      const score = candidate.fit(value);
      if (score > best) [match, best] = [candidate, score];
    }
    return match === undefined ? value : match.strip(value);
  };
}

/**
 * How well a value fits a union branch, or -1 when it cannot be that branch: the branch's type, its `const`/`enum`
 * fields (the discriminators of a union), its required fields present (a strict model sends every field, nulls
 * included), no null in a required field whose schema refuses null and, for a closed object, no field it does not
 * declare. Among the branches that fit, the one declaring most
 * of the value's fields wins, so the nulls of a later branch without a discriminator are stripped by that branch.
 * What the branch says is read once, when the stripper is compiled.
 */
function branchFit(branch: unknown, schema: NormalizedSchema): (value: unknown) => number {
  if (!isNode(branch)) return () => -1;
  const types = typesOf(branch, schema, 0);
  // The fields a branch declares include those of its `allOf` parts (`Type.Intersect`, a merged object).
  const parts = [branch, ...(Array.isArray(branch.allOf) ? branch.allOf.map((part) => resolve(part, schema)) : [])].filter(isNode);
  const declaring = parts.filter((part) => isNode(part.properties));
  let properties: SchemaNode | undefined;
  for (const part of declaring) {
    properties ??= {};
    // defineProperty: a field named `__proto__` stays a field.
    for (const [key, sub] of Object.entries(part.properties as SchemaNode)) if (!Object.hasOwn(properties, key)) Object.defineProperty(properties, key, { value: sub, enumerable: true });
  }
  const requiredList = parts.flatMap((part) => (Array.isArray(part.required) ? part.required.filter((key): key is string => typeof key === 'string') : []));
  const required = new Set(requiredList);
  const fields = properties === undefined ? [] : Object.entries(properties).filter((entry): entry is [string, SchemaNode] => isNode(entry[1]));
  // A required field without a default whose schema refuses null cannot hold one in this branch.
  const refusesNull = new Set(fields.filter(([key, sub]) => required.has(key) && !('default' in sub) && !acceptsNull(resolve(sub, schema), schema)).map(([key]) => key));
  const closed = branch.additionalProperties === false;
  return (value) => {
    if (types !== undefined && !types.some((type) => hasType(value, type))) return -1;
    if (!isNode(value) || properties === undefined) return 0;
    for (const [key, sub] of fields) {
      if (!Object.hasOwn(value, key)) continue;
      const field = value[key];
      // The null a strict-mode model sends for an optional field it leaves out fits any branch declaring the field.
      if (field === null && (!required.has(key) || 'default' in sub)) continue;
      if (field === null && refusesNull.has(key)) return -1;
      if ('const' in sub ? sub.const !== field : Array.isArray(sub.enum) && !sub.enum.includes(field)) return -1;
    }
    for (const key of requiredList) if (!Object.hasOwn(value, key)) return -1;
    let declared = 0;
    let total = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      total++;
      if (Object.hasOwn(properties, key)) declared++;
    }
    if (closed && declared < total) return -1;
    return declared;
  };
}

/**
 * The JSON types a branch takes: its `type`, or for a branch without one that is a union, the types of its members
 * (`{anyOf: [{type: "null"}]}` takes only null); undefined when any type may pass.
 */
function typesOf(node: unknown, schema: NormalizedSchema, depth: number): string[] | undefined {
  if (!isNode(node) || depth > 8) return undefined;
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (!Array.isArray(union) || union.length === 0) return undefined;
  const types: string[] = [];
  for (const member of union) {
    const memberTypes = typesOf(resolve(member, schema), schema, depth + 1);
    if (memberTypes === undefined) return undefined;
    types.push(...memberTypes);
  }
  return types;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'null') return value === null;
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isNode(value);
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
}

function resolve(node: unknown, schema: NormalizedSchema): unknown {
  for (let seen = 0; isNode(node) && typeof node.$ref === 'string' && seen < 32; seen++) node = refTarget(schema, node.$ref);
  return node;
}

function acceptsNull(node: unknown, schema: NormalizedSchema): boolean {
  if (!isNode(node)) return node !== false;
  const keywords = Object.keys(node).filter((key) => key !== 'description' && key !== 'title' && key !== 'default');
  if (keywords.length === 0) return true;
  if ('const' in node) return node.const === null;
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  if (Array.isArray(node.enum)) return node.type === undefined;
  const branchAccepts = (branch: unknown) => acceptsNull(resolve(branch, schema), schema);
  if (Array.isArray(node.allOf) && !node.allOf.every(branchAccepts)) return false;
  if ('not' in node && branchAccepts(node.not)) return false;
  if (Array.isArray(node.anyOf)) return node.anyOf.some(branchAccepts);
  // oneOf: null passes only when exactly one branch takes it.
  if (Array.isArray(node.oneOf)) return node.oneOf.filter(branchAccepts).length === 1;
  // Without a type, JSON Schema lets null through the other keywords (properties, items, minLength, ...) unless
  // they imply a type, as draft 7 and the strict converter read properties and items.
  return node.type === undefined && !isNode(node.properties) && !('items' in node) && (Array.isArray(node.allOf) || 'not' in node);
}
