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
 * @returns the stripper, or `undefined` when no object in the schema can hold an undeclared field (nothing to call).
 */
export function compileUndeclaredStripper(schema: JsonSchema): UndeclaredStripper | undefined {
  if (!hasStrippableObject(schema, 0)) return undefined;
  const plans = new Plans(schema);
  const root: readonly unknown[] = [schema];
  return (data) => strip(data, root, plans);
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

/** What to do with a value that a given list of schemas applies to: computed once per list (the schema is frozen). */
interface Plan {
  /** The applicable schemas (refs followed, `allOf`/`anyOf`/`oneOf` branches added). */
  readonly nodes: readonly Node[];
  /** For an object: each declared field with the schemas that apply to its value. */
  readonly declared: ReadonlyMap<string, unknown[]>;
  /** For an object: whether fields not in `declared` are removed. */
  readonly removes: boolean;
  /** For an object that keeps other fields: the `additionalProperties` schemas that apply to them. */
  readonly extra: readonly unknown[];
}

/** How many distinct schema lists get a remembered plan (more are planned on each use). */
const MAX_PLANS = 10_000;

/**
 * The plans of one stripper, remembered by the identity of the schemas they are for, so that an array of many
 * objects (or a model's very long argument) costs one plan per distinct schema list, not one per element.
 */
class Plans {
  private readonly byKey = new Map<string, Plan>();
  /** The same plans by the identity of the list (the root's, and each plan's own lists of field schemas): no key to build. */
  private readonly byList = new WeakMap<readonly unknown[], Plan>();
  private readonly ids = new WeakMap<object, number>();
  private next = 0;

  constructor(readonly root: JsonSchema) {}

  for(schemas: readonly unknown[]): Plan {
    const listed = this.byList.get(schemas);
    if (listed !== undefined) return listed;
    const key = schemas.map((schema) => this.idOf(schema)).join(',');
    let plan = this.byKey.get(key);
    if (plan === undefined) {
      plan = makePlan(schemas, this.root);
      if (this.byKey.size >= MAX_PLANS) return plan;
      this.byKey.set(key, plan);
    }
    this.byList.set(schemas, plan);
    return plan;
  }

  private idOf(schema: unknown): string {
    if (schema === null || typeof schema !== 'object') return String(schema);
    let id = this.ids.get(schema);
    if (id === undefined) this.ids.set(schema, (id = this.next++));
    return `#${id}`;
  }
}

function strip(data: unknown, schemas: readonly unknown[], plans: Plans): void {
  if (data === null || typeof data !== 'object') return;
  const plan = plans.for(schemas);
  if (Array.isArray(data)) stripItems(data, plan.nodes, plans);
  else stripObject(data as Record<string, unknown>, plan, plans);
}

function makePlan(schemas: readonly unknown[], root: JsonSchema): Plan {
  const { nodes, freeBranch } = applicable(schemas, root);
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
  return { nodes, declared, removes: !open && !unresolved && !freeBranch && declared.size > 0, extra };
}

/**
 * The schemas that apply to one value: each given schema with its `$ref` followed and its `allOf`/`anyOf`/`oneOf`
 * branches. `freeBranch` is set when an `anyOf`/`oneOf` branch (or the schema its `$ref`s lead to) takes any object:
 * the value may be that object, whose fields no schema restricts.
 */
function applicable(schemas: readonly unknown[], root: JsonSchema): { nodes: Node[]; freeBranch: boolean } {
  const seen = new Set<Node>();
  let freeBranch = false;
  const visit = (schema: unknown, hops: number, branch: boolean) => {
    if (schema === null || typeof schema !== 'object' || hops > MAX_REF_HOPS) return;
    const node = schema as Node;
    if (branch && takesAnyObject(node)) freeBranch = true;
    if (seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === 'string') visit(resolveRef(node.$ref, root), hops + 1, branch);
    for (const key of SAME_VALUE) if (Array.isArray(node[key])) for (const member of node[key] as unknown[]) visit(member, hops, key !== 'allOf');
  };
  for (const schema of schemas) visit(schema, 0, false);
  return { nodes: [...seen], freeBranch };
}

/** Whether a union branch takes any object: it may be an object, and lists no fields, values or further schemas. */
function takesAnyObject(node: Node): boolean {
  const type = node.type;
  const mayBeObject = type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
  const listsFields = isPlainObject(node.properties) && Object.keys(node.properties).length > 0;
  return mayBeObject && !listsFields && !('$ref' in node) && !('enum' in node) && !('const' in node) && !SAME_VALUE.some((key) => key in node);
}

function stripObject(data: Record<string, unknown>, plan: Plan, plans: Plans): void {
  for (const key of Object.keys(data)) {
    const subs = plan.declared.get(key);
    if (subs !== undefined) strip(data[key], subs, plans);
    else if (plan.removes) delete data[key];
    else if (plan.extra.length > 0) strip(data[key], plan.extra, plans);
  }
}

function stripItems(data: unknown[], nodes: readonly Node[], plans: Plans): void {
  // The schemas of items past any tuple prefix are the same for every index: computed once.
  let rest: unknown[] | undefined;
  for (let i = 0; i < data.length; i++) {
    const item = data[i];
    if (item === null || typeof item !== 'object') continue;
    let subs: unknown[];
    if (rest !== undefined) subs = rest;
    else {
      subs = [];
      let positionalLeft = false;
      for (const node of nodes) {
        const positional = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : undefined;
        if (positional !== undefined && i < positional.length) {
          subs.push(positional[i]);
          positionalLeft = true;
        } else if (positional !== undefined && Array.isArray(node.items)) subs.push(node.additionalItems);
        else subs.push(node.items);
      }
      if (!positionalLeft) rest = subs;
    }
    strip(item, subs, plans);
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
