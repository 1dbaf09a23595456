import type { SchemaNode } from './schema-walk';

/**
 * Words for a constraint a provider cannot take, so that the model still learns it from the description while local
 * validation keeps enforcing it (OpenAI strict mode: "say in the description what was removed where it matters to the
 * model"; Gemini: exclusive bounds and numeric enums). Returns undefined for keywords a model does not need to know.
 */
export function constraintNote(keyword: string, value: unknown): string | undefined {
  switch (keyword) {
    case 'format':
      return `format: ${String(value)}`;
    case 'default':
      return `default: ${JSON.stringify(value)}`;
    case 'minLength':
      return `at least ${count(value, 'character')}`;
    case 'maxLength':
      return `at most ${count(value, 'character')}`;
    case 'pattern':
      return `matches the pattern ${String(value)}`;
    case 'minItems':
      return `at least ${count(value, 'item')}`;
    case 'maxItems':
      return `at most ${count(value, 'item')}`;
    case 'uniqueItems':
      return value === true ? 'items must be unique' : undefined;
    case 'minProperties':
      return `at least ${count(value, 'field')}`;
    case 'maxProperties':
      return `at most ${count(value, 'field')}`;
    case 'exclusiveMinimum':
      return `greater than ${String(value)}`;
    case 'exclusiveMaximum':
      return `less than ${String(value)}`;
    case 'multipleOf':
      return `a multiple of ${String(value)}`;
    case 'enum':
      return `one of ${(value as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `always ${JSON.stringify(value)}`;
    case 'not':
    case 'if':
    case 'contains':
    case 'dependentRequired':
    case 'dependentSchemas':
    case 'propertyNames':
      return 'further rules are checked when the tool is called';
    default:
      return undefined;
  }
}

function count(value: unknown, noun: string): string {
  return `${String(value)} ${value === 1 ? noun : `${noun}s`}`;
}

/** Keywords that only annotate a schema: dropped silently where a provider does not take them. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(['$comment', 'examples', 'readOnly', 'writeOnly', 'deprecated', 'contentEncoding', 'contentMediaType', '$anchor', '$dynamicAnchor']);

/** Appends `notes` to the node's description: `"<description> (<note>; <note>)"`. Unchanged without notes. */
export function withNotes(node: SchemaNode, notes: readonly string[]): SchemaNode {
  const unique = [...new Set(notes)];
  if (unique.length === 0) return node;
  const text = `(${unique.join('; ')})`;
  const description = typeof node.description === 'string' && node.description !== '' ? `${node.description} ${text}` : text;
  return { ...node, description };
}
