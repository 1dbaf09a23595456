// OpenAI function tools, from docs/providers/limits.md: name ^[a-zA-Z0-9_-]{1,64}$, description at most 1,024
// characters, `strict` always sent; in strict mode the structured-outputs subset and its size limits.
import { checkJsonSchemaRoot, isObject, subschemas, type Node } from './common';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const STRICT_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const', '$ref', '$defs', 'description', 'title',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** A Chat Completions tool or a Responses function tool, as `{ name, description, parameters, strict }`. */
export function openAIFunction(entry: unknown): { name: unknown; description: unknown; parameters: unknown; strict: unknown } {
  const e = entry as Node;
  return (e.type === 'function' && isObject(e.function) ? e.function : e) as never;
}

export function checkOpenAI(entry: unknown): string[] {
  const fn = openAIFunction(entry);
  const out: string[] = [];
  if (typeof fn.name !== 'string' || !NAME.test(fn.name)) out.push(`OpenAI: name ${JSON.stringify(fn.name)}`);
  if (typeof fn.description !== 'string' || fn.description.length > 1024) out.push('OpenAI: description missing or over 1,024 characters');
  if (typeof fn.strict !== 'boolean') out.push('OpenAI: strict not sent');
  out.push(...checkJsonSchemaRoot(fn.parameters, 'OpenAI'));
  if (fn.strict === true) out.push(...checkStrict(fn.parameters as Node));
  return out;
}

function checkStrict(schema: Node): string[] {
  const out: string[] = [];
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  for (const [node, path] of subschemas(schema)) {
    for (const key of Object.keys(node)) if (!STRICT_KEYWORDS.has(key)) out.push(`strict: ${path} has '${key}'`);
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) out.push(`strict: ${path} has format ${node.format}`);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('object') || isObject(node.properties)) {
      const keys = Object.keys(isObject(node.properties) ? node.properties : {});
      if (node.additionalProperties !== false) out.push(`strict: ${path} is not closed`);
      const required = Array.isArray(node.required) ? node.required : [];
      if (required.length !== keys.length || keys.some((k) => !required.includes(k))) out.push(`strict: ${path} does not require every property`);
      properties += keys.length;
      characters += keys.reduce((sum, k) => sum + k.length, 0);
      if (path.split('/properties/').length > 10) out.push(`strict: ${path} nests deeper than 10 levels`);
    }
    if (types.includes('array') && !isObject(node.items) && node.$ref === undefined && !Array.isArray(node.anyOf)) out.push(`strict: ${path} is an array without items`);
    if (node.type === undefined && node.anyOf === undefined && node.$ref === undefined && node.enum === undefined && node.const === undefined) out.push(`strict: ${path} has no type`);
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      const text = node.enum.reduce((sum: number, v) => sum + (typeof v === 'string' ? v.length : 0), 0);
      characters += text;
      if (node.enum.length > 250 && node.enum.every((v) => typeof v === 'string' || v === null) && text > 15000) out.push(`strict: ${path} large enum over 15,000 characters`);
    }
    if (typeof node.const === 'string') characters += node.const.length;
    if (isObject(node.$defs)) characters += Object.keys(node.$defs).reduce((sum, k) => sum + k.length, 0);
  }
  if (Array.isArray(schema.anyOf)) out.push('strict: root is anyOf');
  if (properties > 5000) out.push(`strict: ${properties} properties`);
  if (enumValues > 1000) out.push(`strict: ${enumValues} enum values`);
  if (characters > 120000) out.push(`strict: ${characters} characters of names and values`);
  return out;
}
