import type { JsonSchema } from './json-schema';
import { isPlainObject } from './plain-copy';

/** Removes, in place, the object fields a schema does not declare (see {@link compileUndeclaredStripper}). */
export type UndeclaredStripper = (data: unknown) => void;

type Node = Readonly<Record<string, unknown>>;

/** Keywords by which a schema says what to do with fields it does not list: where one is present, nothing is removed. */
const OPEN_KEYWORDS = ['additionalProperties', 'patternProperties', 'unevaluatedProperties', 'if', 'dependentSchemas', 'propertyNames'] as const;
/** Keywords whose sub-schemas apply to the same value. */
const SAME_VALUE = ['allOf', 'anyOf', 'oneOf'] as const;
/** How deep the registration-time scan for a strippable object looks into a schema. */
const MAX_SCAN_DEPTH = 64;
/** How many `$ref`s in a row are followed before a node is left as it is (a ref that leads to itself). */
const MAX_REF_HOPS = 32;

/**
 * Compiles the remover of undeclared fields for a params schema: JSON Schema leaves an object open by default
 * (`Type.Object({...})` accepts any extra field), so a model's extra field would reach the tool. Applied to data that
 * passed validation, it deletes every field of an object that no applicable schema lists in `properties`, at the root
 * and in nested objects (through `properties`, `items`, `prefixItems`, `additionalProperties` schemas, `allOf` /
 * `anyOf` / `oneOf` branches, whose declared fields add up, and local `$ref`s).
 *
 * An object whose schema declares what happens to other fields itself (`additionalProperties`, `patternProperties`,
 * `unevaluatedProperties`, or a conditional or per-name rule: `if`, `dependentSchemas`, `propertyNames`) keeps
 * its fields, as does an object whose schemas list no property at all (a free-form object), or one that an
 * `anyOf`/`oneOf` branch taking any object (`{type: 'object'}`, `{}`) may describe.
 *
 * @returns the stripper; a no-op when no object in the schema can hold an undeclared field.
 */
export function compileUndeclaredStripper(schema: JsonSchema): UndeclaredStripper {
  if (!hasStrippableObject(schema, 0)) return () => undefined;
  return (data) => strip(data, [schema], schema);
}

function hasStrippableObject(schema: unknown, depth: number): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  // Deeper than any hand-written schema: assume there is something to strip (the stripper only walks the data).
  if (depth > MAX_SCAN_DEPTH) return true;
  const node = schema as Node;
  if (isPlainObject(node.properties) && !OPEN_KEYWORDS.some((k) => k in node)) return true;
  for (const value of Object.values(node)) {
    if (value !== null && typeof value === 'object' && hasStrippableObject(value, depth + 1)) return true;
  }
  return false;
}

function strip(data: unknown, schemas: readonly unknown[], root: JsonSchema): void {
  if (data === null || typeof data !== 'object') return;
  const { nodes, freeBranch } = applicable(schemas, root);
  if (Array.isArray(data)) stripItems(data, nodes, root);
  else stripObject(data as Record<string, unknown>, nodes, root, freeBranch);
}

/**
 * The schemas that apply to one value: each given schema with its `$ref` followed and its `allOf`/`anyOf`/`oneOf`
 * branches. `freeBranch` is set when an `anyOf`/`oneOf` branch (or the schema its `$ref`s lead to) takes any object:
 * the value may be that object, whose fields no schema restricts.
 */
function applicable(schemas: readonly unknown[], root: JsonSchema): { nodes: Node[]; freeBranch: boolean } {
  const out: Node[] = [];
  let freeBranch = false;
  const visit = (schema: unknown, hops: number, branch: boolean) => {
    if (schema === null || typeof schema !== 'object' || hops > MAX_REF_HOPS) return;
    const node = schema as Node;
    if (branch && takesAnyObject(node)) freeBranch = true;
    if (out.includes(node)) return;
    out.push(node);
    if (typeof node.$ref === 'string') visit(resolveRef(node.$ref, root), hops + 1, branch);
    for (const key of SAME_VALUE) if (Array.isArray(node[key])) for (const member of node[key] as unknown[]) visit(member, hops, key !== 'allOf');
  };
  for (const schema of schemas) visit(schema, 0, false);
  return { nodes: out, freeBranch };
}

/** Whether a union branch takes any object: it may be an object, and lists no fields, values or further schemas. */
function takesAnyObject(node: Node): boolean {
  const type = node.type;
  const mayBeObject = type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
  const listsFields = isPlainObject(node.properties) && Object.keys(node.properties).length > 0;
  return mayBeObject && !listsFields && !('$ref' in node) && !('enum' in node) && !('const' in node) && !SAME_VALUE.some((key) => key in node);
}

function stripObject(data: Record<string, unknown>, nodes: readonly Node[], root: JsonSchema, freeBranch: boolean): void {
  const declared = new Map<string, unknown[]>();
  let open = false;
  let unresolved = false;
  const extra: unknown[] = [];
  for (const node of nodes) {
    if (OPEN_KEYWORDS.some((k) => k in node)) open = true;
    if (typeof node.$ref === 'string' && resolveRef(node.$ref, root) === undefined) unresolved = true;
    if (isPlainObject(node.additionalProperties)) extra.push(node.additionalProperties);
    if (!isPlainObject(node.properties)) continue;
    for (const [name, sub] of Object.entries(node.properties)) {
      const list = declared.get(name);
      if (list === undefined) declared.set(name, [sub]);
      else list.push(sub);
    }
  }
  const removes = !open && !unresolved && !freeBranch && declared.size > 0;
  for (const key of Object.keys(data)) {
    const subs = declared.get(key);
    if (subs !== undefined) strip(data[key], subs, root);
    else if (removes) delete data[key];
    else if (extra.length > 0) strip(data[key], extra, root);
  }
}

function stripItems(data: unknown[], nodes: readonly Node[], root: JsonSchema): void {
  for (let i = 0; i < data.length; i++) {
    const subs: unknown[] = [];
    for (const node of nodes) {
      const positional = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : undefined;
      if (positional !== undefined && i < positional.length) subs.push(positional[i]);
      else if (positional !== undefined && Array.isArray(node.items)) subs.push(node.additionalItems);
      else subs.push(node.items);
    }
    strip(data[i], subs, root);
  }
}

/** The sub-schema a local `$ref` (`#`, `#/$defs/Name`, `#/definitions/Name`, any JSON pointer) names, or undefined. */
function resolveRef(ref: string, root: JsonSchema): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  const pointer = ref.slice(1);
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  for (const raw of pointer.slice(1).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
