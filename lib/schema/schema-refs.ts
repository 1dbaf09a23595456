import { ToolDefinitionError } from '../tool/tool-definition-error';
import type { JsonSchema } from './json-schema';
import { forEachSubschema, isNode, mapSubschemas, pointer, type SchemaNode } from './schema-walk';

/**
 * A params schema with every reference in one form: `$ref: "#/$defs/<name>"`, the definitions gathered in `defs`.
 * `root` carries no `$defs` (the formats add them back where their provider takes them).
 */
export interface NormalizedSchema {
  readonly root: SchemaNode;
  readonly defs: Readonly<Record<string, SchemaNode>>;
}

/**
 * Rewrites the references of a params schema into the one form every provider understands: `#/$defs/<name>`.
 *
 * Accepted targets: `#/$defs/<name>` and `#/definitions/<name>` of the root, `#` (the root itself), any other JSON
 * Pointer into the schema (`#/properties/a`), any sub-schema carrying an `$id` (what TypeBox's `Type.Recursive`
 * and `Type.Ref` produce) and any named by an `$anchor` (`#name`). `$id`s and `$anchor`s are dropped from the output and
 * only the definitions that are actually referenced are kept. Rules followed: MCP ("`$ref`s must point into
 * `$defs`"), OpenAI strict mode (`$defs` + `$ref`, recursion allowed).
 *
 * @param where - the tool, named in errors.
 * @throws ToolDefinitionError when a `$ref` points to nothing in the schema (the message names its path).
 */
export function normalizeRefs(schema: JsonSchema, where: string): NormalizedSchema {
  const root = schema as SchemaNode;
  // Most schemas have no reference, identifier or dialect keyword anywhere: their normal form is the schema itself
  // (shared when frozen, as a tool's parameters are; every consumer builds new nodes), else a plain copy.
  if (refFree.has(schema)) return { root, defs: NO_DEFS };
  const text = JSON.stringify(schema);
  if (!REF_KEYWORDS.test(text)) {
    if (!Object.isFrozen(schema)) return { root: JSON.parse(text) as SchemaNode, defs: {} };
    refFree.add(schema);
    return { root, defs: NO_DEFS };
  }
  const targets = new Map<string, { wanted: string; node: SchemaNode }>();
  for (const keyword of ['$defs', 'definitions']) {
    const map = root[keyword];
    if (!isNode(map)) continue;
    for (const [key, node] of Object.entries(map)) if (isNode(node)) targets.set(`#/${keyword}/${key}`, { wanted: key, node });
  }
  collectIds(root, (id, node) => {
    if (!targets.has(id)) targets.set(id, { wanted: id, node });
  });
  targets.set('#', { wanted: typeof root.$id === 'string' ? root.$id : 'root', node: root });

  const names = new Map<SchemaNode, string>();
  const defs: Record<string, SchemaNode> = {};
  const pending: Array<{ name: string; node: SchemaNode; path: string }> = [];
  const nameOf = (target: { wanted: string; node: SchemaNode }, path: string): string => {
    let name = names.get(target.node);
    if (name === undefined) {
      const base = target.wanted.replace(/[^A-Za-z0-9_.-]/g, '_') || 'def';
      name = base;
      for (let i = 2; name in defs; i++) name = `${base}_${i}`;
      names.set(target.node, name);
      defs[name] = {};
      pending.push({ name, node: target.node, path });
    }
    return name;
  };
  const rewrite = (node: unknown, path: string): unknown => {
    if (!isNode(node)) return node;
    const { $id: _id, $anchor: _anchor, $defs: _defs, definitions: _definitions, $schema: _schema, ...rest } = node;
    const out = mapSubschemas(rest, path, rewrite);
    if (typeof out.$ref === 'string') {
      const target = targets.get(out.$ref) ?? targets.get(out.$ref.replace(/^#(?=[^/])/, '')) ?? atPointer(root, out.$ref);
      if (target === undefined) {
        throw new ToolDefinitionError(`${where}: the $ref '${out.$ref}' at ${path} points to nothing in the schema. Put the schema it names under $defs and refer to it as '#/$defs/<name>'.`);
      }
      out.$ref = `#/$defs/${nameOf(target, pointer(path, '$ref'))}`;
    }
    return out;
  };
  const rootOut = rewrite(root, '#') as SchemaNode;
  while (pending.length > 0) {
    const next = pending.shift()!;
    defs[next.name] = rewrite(next.node, next.path) as SchemaNode;
  }
  return { root: rootOut, defs };
}

/** Frozen schemas already found free of {@link REF_KEYWORDS}. */
const refFree = new WeakSet<JsonSchema>();
const NO_DEFS: Readonly<Record<string, SchemaNode>> = Object.freeze({});

/**
 * The keywords {@link normalizeRefs} rewrites or drops, as they appear in a schema's JSON text (a field or value with
 * one of these names only sends the schema down the full rewrite), and `__proto__`, which a plain copy would turn into
 * a prototype.
 */
const REF_KEYWORDS = /"(?:\$ref|\$id|\$anchor|\$defs|definitions|\$schema|__proto__)"/;

/** The sub-schema a `#/a/b` JSON Pointer names inside `root`, named after its last segment. */
function atPointer(root: SchemaNode, ref: string): { wanted: string; node: SchemaNode } | undefined {
  if (!ref.startsWith('#/')) return undefined;
  const segments = ref.slice(2).split('/').map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = root;
  for (const segment of segments) node = isNode(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined;
  return isNode(node) ? { wanted: segments[segments.length - 1]!, node } : undefined;
}

function collectIds(node: unknown, found: (id: string, node: SchemaNode) => void): void {
  if (!isNode(node)) return;
  if (typeof node.$id === 'string') found(node.$id, node);
  if (typeof node.$anchor === 'string') found(`#${node.$anchor}`, node);
  forEachSubschema(node, '', (sub) => collectIds(sub, found));
}

/** The definition a normalized `$ref` names, or undefined for a ref this module did not write. */
export function refTarget(schema: NormalizedSchema, ref: string): SchemaNode | undefined {
  return ref.startsWith('#/$defs/') ? schema.defs[ref.slice('#/$defs/'.length)] : undefined;
}

/** The normalized schema as one JSON Schema document: the root with its `$defs` (only when there are any). */
export function withDefs(schema: NormalizedSchema, root: SchemaNode = schema.root, defs = schema.defs): SchemaNode {
  return Object.keys(defs).length > 0 ? { ...root, $defs: { ...defs } } : root;
}

