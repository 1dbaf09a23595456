// MCP tools, from docs/providers/limits.md: name ^[A-Za-z0-9_.-]{1,128}$, inputSchema an object schema with properties,
// $refs into $defs, no union at the root (clients forward it to providers that refuse one).
import { checkJsonSchemaRoot, isObject, type Node } from './common';

export function checkMcp(entry: unknown): string[] {
  const tool = entry as Node;
  const out: string[] = [];
  if (typeof tool.name !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(tool.name)) out.push(`MCP: name ${JSON.stringify(tool.name)}`);
  if (typeof tool.description !== 'string') out.push('MCP: description missing');
  if (!isObject(tool.annotations)) out.push('MCP: annotations missing');
  out.push(...checkJsonSchemaRoot(tool.inputSchema, 'MCP'));
  return out;
}
