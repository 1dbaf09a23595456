/**
 * The AgentScope tool model's costs: the plain `execute` hot path must not pay for permissions, streaming or groups
 * (target <= 400 ns), and what the new paths cost when used.
 */
import { Type } from '@sinclair/typebox';
import { FunctionTool, Tools, type ToolChunk } from '../lib';
import { PermissionEngine } from '../lib/permissions';
import { formatNs, measure, printTable } from './harness';

export default async function run(): Promise<void> {
  const params = Type.Object({ a: Type.Integer(), b: Type.Integer() });
  const plain = new Tools();
  plain.action({ name: 'add', description: 'Add.', params }, ({ a, b }) => a + b);
  const grouped = new Tools();
  grouped.action({ name: 'add', description: 'Add.', params }, ({ a, b }) => a + b);
  grouped.createGroup('extra', 'Extra tools', { active: true });
  const add = new FunctionTool(({ a, b }: { a: number; b: number }) => a + b, { name: 'add', description: 'Add.', params });
  const engine = new PermissionEngine({ settings: { allow: ['add'], deny: ['rm'] } });
  const args = { a: 1, b: 2 };
  const rows = [
    await measure('execute, plain tool', () => plain.execute('add', args)),
    await measure('execute, registry with a switchable group', () => grouped.execute('add', args)),
    await measure('engine.check, allow rule', () => engine.check(add, args)),
    await measure('stream, plain tool (drained)', async () => {
      const stream = plain.stream('add', args);
      const seen: ToolChunk[] = [];
      for await (const chunk of stream) seen.push(chunk);
      return stream.result;
    }),
  ];
  printTable('AgentScope tool model', ['operation', 'median', '± spread'], rows.map((r) => [r.name, formatNs(r.medianNs), formatNs(r.spreadNs)]));
}
