// Anthropic Messages tools, from docs/providers/limits.md: name ^[a-zA-Z0-9_-]{1,64}$, input_schema an object with
// properties and no anyOf/oneOf/allOf at its root, top-level property keys ^[a-zA-Z0-9_.-]{1,64}$.
import { checkJsonSchemaRoot, isObject, type Node } from './common';

export function checkAnthropic(entry: unknown): string[] {
  const tool = entry as Node;
  const out: string[] = [];
  if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) out.push(`Anthropic: name ${JSON.stringify(tool.name)}`);
  if (typeof tool.description !== 'string') out.push('Anthropic: description missing');
  out.push(...checkJsonSchemaRoot(tool.input_schema, 'Anthropic'));
  const properties = isObject(tool.input_schema) && isObject(tool.input_schema.properties) ? tool.input_schema.properties : {};
  for (const key of Object.keys(properties)) if (!/^[a-zA-Z0-9_.-]{1,64}$/.test(key)) out.push(`Anthropic: property key '${key}'`);
  return out;
}
