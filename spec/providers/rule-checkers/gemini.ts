// Gemini function declarations, from docs/providers/limits.md: name starting with a letter or '_', then letters,
// digits, '_', '.', ':', '-' (at most 64); parameters in the OpenAPI 3.0 subset of the SDK's Schema (upper-case types,
// `nullable`, string enums only, int64 counts as strings, no $ref/$defs/additionalProperties); parameter names
// ^[A-Za-z_][A-Za-z0-9_]{0,63}$; no field beside anyOf, no empty enum member, type-specific fields only on their type.
import { isObject, type Node } from './common';

const FIELDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum']);
const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const COUNTS = ['maxItems', 'minItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'];

export function checkGemini(entry: unknown): string[] {
  const declaration = entry as Node;
  const out: string[] = [];
  if (typeof declaration.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/.test(declaration.name)) out.push(`Gemini: name ${JSON.stringify(declaration.name)}`);
  const parameters = declaration.parameters;
  if (!isObject(parameters) || parameters.type !== 'OBJECT') return [...out, 'Gemini: parameters not an OBJECT'];
  if ('anyOf' in parameters) out.push('Gemini: parameters root is a union');
  for (const key of Object.keys(isObject(parameters.properties) ? parameters.properties : {})) if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key)) out.push(`Gemini: parameter name '${key}'`);
  const visit = (node: unknown, path: string): void => {
    if (!isObject(node)) return void out.push(`Gemini: ${path} is not a schema object`);
    for (const key of Object.keys(node)) if (!FIELDS.has(key)) out.push(`Gemini: ${path} has '${key}'`);
    if (node.type !== undefined && !TYPES.has(node.type as string)) out.push(`Gemini: ${path} type ${JSON.stringify(node.type)}`);
    if (node.type === undefined && !Array.isArray(node.anyOf)) out.push(`Gemini: ${path} has neither type nor anyOf`);
    if (node.enum !== undefined && (node.type !== 'STRING' || !Array.isArray(node.enum) || !node.enum.every((v) => typeof v === 'string'))) out.push(`Gemini: ${path} enum is not a string enum`);
    // "enum[N]: cannot be empty"; "When using any_of, it must be the only field set" (Gemini 3, Vertex AI);
    // "properties: only allowed for OBJECT type".
    if (Array.isArray(node.enum) && (node.enum.length === 0 || node.enum.includes(''))) out.push(`Gemini: ${path} enum is empty or has an empty member`);
    if ('anyOf' in node && Object.keys(node).length > 1) out.push(`Gemini: ${path} has fields beside anyOf: ${Object.keys(node).join(', ')}`);
    for (const [key, type] of [['properties', 'OBJECT'], ['required', 'OBJECT'], ['items', 'ARRAY'], ['minimum', 'NUMBER|INTEGER'], ['maximum', 'NUMBER|INTEGER'], ['pattern', 'STRING']] as const) {
      if (key in node && !type.split('|').includes(node.type as string)) out.push(`Gemini: ${path} has '${key}' on type ${String(node.type)}`);
    }
    for (const key of COUNTS) if (key in node && !(typeof node[key] === 'string' && /^\d+$/.test(node[key] as string))) out.push(`Gemini: ${path} ${key} is not an int64 string`);
    if (node.nullable !== undefined && typeof node.nullable !== 'boolean') out.push(`Gemini: ${path} nullable`);
    if (node.type === 'ARRAY' && !isObject(node.items)) out.push(`Gemini: ${path} ARRAY without items`);
    if (isObject(node.properties)) for (const [key, sub] of Object.entries(node.properties)) visit(sub, `${path}/properties/${key}`);
    if (Array.isArray(node.required) && isObject(node.properties)) for (const key of node.required) if (!(key in node.properties)) out.push(`Gemini: ${path} requires undeclared '${String(key)}'`);
    if (node.items !== undefined) visit(node.items, `${path}/items`);
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((sub, i) => visit(sub, `${path}/anyOf/${i}`));
  };
  visit(parameters, '#');
  return out;
}

/** The JSON Schema a Gemini schema stands for, to check which values it accepts: the subset's meaning, read back. */
export function geminiToJsonSchema(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Node = {};
  if (typeof node.type === 'string') out.type = node.nullable === true ? [node.type.toLowerCase(), 'null'] : node.type.toLowerCase();
  if (Array.isArray(node.enum)) out.enum = node.nullable === true ? [...node.enum, null] : node.enum;
  for (const key of ['minimum', 'maximum', 'pattern', 'required', 'title', 'description']) if (key in node) out[key] = node[key];
  for (const key of COUNTS) if (typeof node[key] === 'string') out[key] = Number(node[key]);
  if (node.format === 'date-time') out.format = 'date-time';
  if (isObject(node.properties)) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, geminiToJsonSchema(v)]));
  if (node.items !== undefined) out.items = geminiToJsonSchema(node.items);
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf.map(geminiToJsonSchema);
    out.anyOf = node.nullable === true ? [...branches, { type: 'null' }] : branches;
  }
  return out;
}
