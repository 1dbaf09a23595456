import type { JsonSchema } from '../schema/json-schema';
import { isIdentifier } from './program-names';

/** One tool as the declarations show it. */
export interface DeclaredTool {
  /** The property of `tools` (see `programNames`). */
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** The `returns` schema, when the tool declared one (else the result is `unknown`). */
  readonly returns: JsonSchema | undefined;
}

/** Deepest schema nesting rendered; below it a type is `unknown`. */
const MAX_DEPTH = 8;

/**
 * TypeScript declarations of the program's `tools` object: one method per tool taking its params type and returning a
 * promise of its result, each with the tool's description (and the registered name, when the property differs) as a
 * doc comment, and the fields' descriptions on the fields.
 */
export function renderDeclarations(tools: readonly DeclaredTool[]): string {
  const methods = tools.map((tool) => {
    const doc = tool.key === tool.name ? tool.description : `${tool.description}\n\n(The tool '${tool.name}'.)`;
    const returns = tool.returns === undefined ? 'unknown' : typeOf(tool.returns, 4, 0);
    return `${comment(doc, '  ')}  ${property(tool.key)}(args: ${typeOf(tool.parameters, 4, 0)}): Promise<${returns}>;`;
  });
  return `declare const tools: {\n${methods.join('\n')}\n};\n`;
}

function comment(text: string, indent: string): string {
  const body = text.trim().replace(/\*\//g, '*\\/');
  if (body.length === 0) return '';
  const lines = body.split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line.length > 0 ? ` ${line}` : ''}`).join('\n')}\n${indent} */\n`;
}

function property(key: string): string {
  return isIdentifier(key) ? key : JSON.stringify(key);
}

/** The TypeScript type of a JSON Schema, at `indent` spaces for object members. */
export function typeOf(schema: unknown, indent: number, depth: number): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (schema === null || typeof schema !== 'object' || depth > MAX_DEPTH) return 'unknown';
  const s = schema as Record<string, unknown>;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? 'never' : s.enum.map(literal).join(' | ');
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union !== undefined) return union.length === 0 ? 'never' : union.map((item) => parenthesized(typeOf(item, indent, depth + 1))).join(' | ');
  if (Array.isArray(s.allOf)) return s.allOf.length === 0 ? 'unknown' : s.allOf.map((item) => parenthesized(typeOf(item, indent, depth + 1))).join(' & ');
  const types = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : s.properties !== undefined ? ['object'] : [];
  if (types.length === 0) return 'unknown';
  if (types.length === 1) return single(String(types[0]), s, indent, depth);
  return types.map((type) => parenthesized(single(String(type), s, indent, depth))).join(' | ');
}

function single(type: string, s: Record<string, unknown>, indent: number, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return Array.isArray(s.items) ? `[${s.items.map((item) => typeOf(item, indent, depth + 1)).join(', ')}]` : `Array<${typeOf(s.items, indent, depth + 1)}>`;
    case 'object':
      return objectType(s, indent, depth);
    default:
      return 'unknown';
  }
}

function objectType(s: Record<string, unknown>, indent: number, depth: number): string {
  const properties = s.properties !== null && typeof s.properties === 'object' ? (s.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const pad = ' '.repeat(indent);
  const members = Object.entries(properties).map(([key, value]) => {
    const description = value !== null && typeof value === 'object' ? (value as { description?: unknown }).description : undefined;
    const doc = typeof description === 'string' ? comment(description, pad) : '';
    return `${doc}${pad}${property(key)}${required.has(key) ? '' : '?'}: ${typeOf(value, indent + 2, depth + 1)};`;
  });
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== false) members.push(`${pad}[key: string]: ${extra === true ? 'unknown' : typeOf(extra, indent + 2, depth + 1)};`);
  else if (extra === undefined && members.length === 0) return 'Record<string, unknown>';
  if (members.length === 0) return 'Record<string, never>';
  return `{\n${members.join('\n')}\n${' '.repeat(indent - 2)}}`;
}

function literal(value: unknown): string {
  return JSON.stringify(value) ?? 'unknown';
}

function parenthesized(type: string): string {
  return !type.startsWith('{') && (type.includes(' | ') || type.includes(' & ')) ? `(${type})` : type;
}
