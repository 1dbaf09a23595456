import { constraintNote, withNotes } from '../schema/constraint-notes';
import { toStrictSchema } from '../schema/strict-schema';
import { isNode, mapSubschemas, type SchemaNode } from '../schema/schema-walk';
import type { Tool } from '../tool/tool';
import { ToolDefinitionError } from '../tool/tool-definition-error';
import type { ObjectParameters } from './object-parameters';

/**
 * Constraints Anthropic's strict tool use does not take ("JSON Schema limitations" of structured outputs,
 * https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations): numeric bounds,
 * string lengths, and array sizes other than `minItems` 0 or 1. They are moved into the description and still
 * enforced by local validation.
 */
const UNSUPPORTED = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems']);
/**
 * Regular-expression features strict tool use does not take (backreferences, lookaround, word boundaries `\b`/`\B`):
 * such a `pattern` moves into the description. The strict-mode converter already moves lookaround and backreferences.
 */
const UNSUPPORTED_PATTERN = /\(\?<?[=!]|\\[1-9]|\\k<|\\[bB]/;

/**
 * Anthropic's per-request limits on strict tool use ("JSON Schema limitations", schema complexity limits, of
 * https://platform.claude.com/docs/en/build-with-claude/structured-outputs): at most 20 tools with `strict: true` in
 * one request, at most 24 optional parameters and at most 16 parameters with union types (`anyOf` or a type list)
 * across all strict schemas of the request. Past them the API refuses the request ("Schemas contains too many optional
 * parameters (87) ... (limit: 24)"). A parameter here is any entry of a `properties` object, at any depth.
 */
export const ANTHROPIC_STRICT_LIMITS = { tools: 20, optionalParameters: 24, unionParameters: 16 } as const;

/** What one strict schema takes from a request's budget: optional parameters and parameters with union types. */
export interface StrictParameterCounts {
  readonly optional: number;
  readonly unions: number;
}

/**
 * The params schema for Anthropic strict tool use: the strict-mode schema (every object closed and fully required,
 * optional fields nullable; see `toStrictSchema`) without the constraints Anthropic's grammar does not take (named in
 * the description instead). Strict tool use refuses recursive schemas.
 *
 * @throws ToolDefinitionError when the schema cannot be made strict, or is recursive (naming the definition).
 */
export function anthropicStrictSchema(tool: Tool): ObjectParameters {
  const strict = toStrictSchema(tool.parameters, tool.source) as SchemaNode;
  const defs = isNode(strict.$defs) ? strict.$defs : {};
  const cycle = recursiveDefinition(defs);
  if (cycle !== undefined) {
    throw new ToolDefinitionError(`${tool.source}: Anthropic strict tool use does not take recursive schemas, and #/$defs/${cycle} refers to itself. Opt the tool out with { strict: false }.`);
  }
  const schema = relax(strict) as SchemaNode;
  const counts = strictParameterCounts(schema);
  const over =
    counts.unions > ANTHROPIC_STRICT_LIMITS.unionParameters
      ? `${counts.unions} parameters with union types (anyOf or a type list; an optional field is sent as nullable, which is one), over the ${ANTHROPIC_STRICT_LIMITS.unionParameters}`
      : counts.optional > ANTHROPIC_STRICT_LIMITS.optionalParameters
        ? `${counts.optional} optional parameters, over the ${ANTHROPIC_STRICT_LIMITS.optionalParameters}`
        : undefined;
  if (over !== undefined) {
    throw new ToolDefinitionError(`${tool.source}: the schema at # has ${over} that Anthropic's strict tool use takes in a whole request. Opt the tool out with { strict: false }, or split it.`);
  }
  return schema as unknown as ObjectParameters;
}

/**
 * Counts the parameters of a strict schema against {@link ANTHROPIC_STRICT_LIMITS}: every entry of a `properties`
 * object (at any depth, definitions included) that its object does not require is optional; one whose schema has
 * `anyOf` or a type list has a union type.
 */
export function strictParameterCounts(schema: unknown): StrictParameterCounts {
  let optional = 0;
  let unions = 0;
  const visit = (node: unknown): void => {
    if (!isNode(node)) return;
    if (isNode(node.properties)) {
      const required = Array.isArray(node.required) ? node.required : [];
      for (const [key, sub] of Object.entries(node.properties)) {
        if (!required.includes(key)) optional++;
        if (isNode(sub) && (Array.isArray(sub.anyOf) || Array.isArray(sub.type))) unions++;
      }
    }
    mapSubschemas(node, '#', (sub) => {
      visit(sub);
      return sub;
    });
  };
  visit(schema);
  return { optional, unions };
}

function relax(input: unknown): unknown {
  if (!isNode(input)) return input;
  const notes: string[] = [];
  const node: SchemaNode = {};
  for (const [key, value] of Object.entries(input)) {
    if (UNSUPPORTED.has(key) || (key === 'minItems' && typeof value === 'number' && value > 1) || (key === 'pattern' && typeof value === 'string' && UNSUPPORTED_PATTERN.test(value))) {
      const note = key === 'minimum' ? `at least ${String(value)}` : key === 'maximum' ? `at most ${String(value)}` : constraintNote(key, value);
      if (note !== undefined) notes.push(note);
    } else {
      Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return withNotes(mapSubschemas(node, '#', (sub) => relax(sub)), notes);
}

/**
 * An example of params in the form a strict schema takes (the form a strict model sends): every field an object
 * declares is present, an omitted one as `null` (strict schemas make optional fields nullable and required), and a
 * field the object does not declare is left out (strict objects are closed). Follows `$ref`s into `$defs`, array
 * `items`, and for a union the first branch that declares the fields of an object. Input examples are checked
 * against the schema they are sent with, so the strict listing sends them in this form.
 *
 * @param example - an example that is valid against the tool's params schema.
 * @param schema - the strict schema from {@link anthropicStrictSchema}.
 */
export function strictExample(example: Readonly<Record<string, unknown>>, schema: ObjectParameters): Record<string, unknown> {
  const defs = isNode((schema as SchemaNode).$defs) ? ((schema as SchemaNode).$defs as SchemaNode) : {};
  return fillNulls(example, schema, defs, 0) as Record<string, unknown>;
}

function fillNulls(value: unknown, schema: unknown, defs: SchemaNode, depth: number): unknown {
  if (!isNode(schema) || depth > 64 || value === null || typeof value !== 'object') return value;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/')) return fillNulls(value, defs[decodeURIComponent(schema.$ref.slice(8))], defs, depth + 1);
  if (Array.isArray(value)) return value.map((item) => fillNulls(item, schema.items, defs, depth + 1));
  if (Array.isArray(schema.anyOf)) {
    const record = value as Record<string, unknown>;
    const branch = schema.anyOf.find((b) => isNode(b) && (isNode(b.properties) || typeof b.$ref === 'string') && objectBranch(b, defs, record));
    return branch === undefined ? value : fillNulls(value, branch, defs, depth + 1);
  }
  if (!isNode(schema.properties)) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(schema.properties)) {
    const field = Object.hasOwn(record, key) ? fillNulls(record[key], sub, defs, depth + 1) : null;
    Object.defineProperty(out, key, { value: field, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Whether a union branch is an object schema declaring every field of `value`. */
function objectBranch(branch: SchemaNode, defs: SchemaNode, value: Record<string, unknown>): boolean {
  const target = typeof branch.$ref === 'string' ? defs[decodeURIComponent(branch.$ref.slice(8))] : branch;
  return isNode(target) && isNode(target.properties) && Object.keys(value).every((key) => Object.hasOwn(target.properties as SchemaNode, key));
}

/** The name of a definition that reaches itself through `$ref`s, or undefined. */
function recursiveDefinition(defs: SchemaNode): string | undefined {
  const edges = new Map(Object.entries(defs).map(([name, def]) => [name, refsIn(def)]));
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === start) return start;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
  }
  return undefined;
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, out);
  else if (isNode(node)) {
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) out.push(decodeURIComponent(node.$ref.slice(8)).replace(/~1/g, '/').replace(/~0/g, '~'));
    for (const value of Object.values(node)) refsIn(value, out);
  }
  return out;
}
