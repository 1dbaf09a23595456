// Anthropic strict tool use, from docs/providers/limits.md (Anthropic's "JSON Schema limitations" of structured
// outputs): the Anthropic tool rules, plus, for a tool sent with `strict: true`, the supported subset (types, enum of
// primitives, const, anyOf, allOf, $ref/$defs without recursion, required, additionalProperties false on every object,
// formats date-time/time/date/duration/email/hostname/uri/ipv4/ipv6/uuid, minItems 0 or 1, pattern without
// backreferences, lookaround or word boundaries), and the per-request limits: at most 20 strict tools, 24 optional
// parameters and 16 parameters with union types (anyOf or a type array) across all strict schemas.
import { checkAnthropic } from './anthropic';
import { isObject, subschemas, type Node } from './common';

const KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'allOf', 'enum', 'const', '$ref', '$defs', 'definitions', 'description', 'title', 'default', 'format', 'pattern', 'minItems']);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
const BAD_PATTERN = /\(\?<?[=!]|\\[1-9]|\\k<|\\[bB]/;

export const ANTHROPIC_STRICT_REQUEST = { tools: 20, optional: 24, unions: 16 } as const;

export function checkAnthropicStrict(entry: unknown): string[] {
  const out = checkAnthropic(entry);
  const tool = entry as Node;
  if (typeof tool.strict !== 'boolean') out.push('Anthropic strict: strict not sent');
  if (tool.strict !== true) return out;
  const schema = tool.input_schema as Node;
  for (const [node, path] of subschemas(schema)) {
    for (const key of Object.keys(node)) if (!KEYWORDS.has(key)) out.push(`Anthropic strict: ${path} has '${key}'`);
    if (typeof node.format === 'string' && !FORMATS.has(node.format)) out.push(`Anthropic strict: ${path} has format ${node.format}`);
    if (typeof node.pattern === 'string' && BAD_PATTERN.test(node.pattern)) out.push(`Anthropic strict: ${path} pattern ${node.pattern}`);
    if ('minItems' in node && node.minItems !== 0 && node.minItems !== 1) out.push(`Anthropic strict: ${path} minItems ${String(node.minItems)}`);
    if (Array.isArray(node.enum) && node.enum.some((v) => v !== null && typeof v === 'object')) out.push(`Anthropic strict: ${path} enum of non-primitives`);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if ((types.includes('object') || isObject(node.properties)) && node.additionalProperties !== false) out.push(`Anthropic strict: ${path} is not closed`);
    if ('additionalProperties' in node && node.additionalProperties !== false) out.push(`Anthropic strict: ${path} additionalProperties is not false`);
  }
  const defs = isObject(schema.$defs) ? schema.$defs : {};
  for (const name of Object.keys(defs)) if (reaches(defs, name, name)) out.push(`Anthropic strict: #/$defs/${name} is recursive`);
  const counts = strictCounts(schema);
  if (counts.optional > ANTHROPIC_STRICT_REQUEST.optional) out.push(`Anthropic strict: ${counts.optional} optional parameters`);
  if (counts.unions > ANTHROPIC_STRICT_REQUEST.unions) out.push(`Anthropic strict: ${counts.unions} union parameters`);
  return out;
}

/** The violations of the per-request limits in a whole `tools` array. */
export function checkAnthropicStrictRequest(entries: readonly unknown[]): string[] {
  const strict = entries.filter((e) => (e as Node).strict === true);
  const total = strict.reduce((sum: { optional: number; unions: number }, e) => {
    const c = strictCounts((e as Node).input_schema as Node);
    return { optional: sum.optional + c.optional, unions: sum.unions + c.unions };
  }, { optional: 0, unions: 0 });
  const out: string[] = [];
  if (strict.length > ANTHROPIC_STRICT_REQUEST.tools) out.push(`Anthropic strict request: ${strict.length} strict tools`);
  if (total.optional > ANTHROPIC_STRICT_REQUEST.optional) out.push(`Anthropic strict request: ${total.optional} optional parameters`);
  if (total.unions > ANTHROPIC_STRICT_REQUEST.unions) out.push(`Anthropic strict request: ${total.unions} union parameters`);
  return out;
}

/** Parameters (entries of any `properties`) left out of `required`, and those whose schema is a union. */
export function strictCounts(schema: Node): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  for (const [node] of subschemas(schema)) {
    if (!isObject(node.properties)) continue;
    const required = Array.isArray(node.required) ? node.required : [];
    for (const [key, sub] of Object.entries(node.properties)) {
      if (!required.includes(key)) optional++;
      if (isObject(sub) && (Array.isArray(sub.anyOf) || Array.isArray(sub.type))) unions++;
    }
  }
  return { optional, unions };
}

function reaches(defs: Node, from: string, target: string, seen = new Set<string>()): boolean {
  for (const [node] of subschemas(defs[from])) {
    const name = typeof node.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(node.$ref)?.[1] : undefined;
    if (name === undefined) continue;
    if (name === target) return true;
    if (!seen.has(name)) {
      seen.add(name);
      if (reaches(defs, name, target, seen)) return true;
    }
  }
  return false;
}
