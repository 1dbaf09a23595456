import { Tools, type ToolsOptions } from '../../lib';

const NUMBERS = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false } as const;

/** A registry with `add` (two numbers, counted in `calls`) and whatever `extra` registers. */
export function registry(options: ToolsOptions<never> = {}): { tools: Tools; calls: string[] } {
  const calls: string[] = [];
  const tools = new Tools(options as ToolsOptions<never>);
  tools.action({ name: 'add', description: 'Add two numbers.', params: NUMBERS }, ({ a, b }) => {
    calls.push(`add ${a} ${b}`);
    return (a as number) + (b as number);
  });
  return { tools, calls };
}
