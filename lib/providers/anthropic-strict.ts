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
  return relax(strict) as unknown as ObjectParameters;
}

function relax(input: unknown): unknown {
  if (!isNode(input)) return input;
  const notes: string[] = [];
  const node: SchemaNode = {};
  for (const [key, value] of Object.entries(input)) {
    if (UNSUPPORTED.has(key) || (key === 'minItems' && typeof value === 'number' && value > 1)) {
      const note = key === 'minimum' ? `at least ${String(value)}` : key === 'maximum' ? `at most ${String(value)}` : constraintNote(key, value);
      if (note !== undefined) notes.push(note);
    } else {
      Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return withNotes(mapSubschemas(node, '#', (sub) => relax(sub)), notes);
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
