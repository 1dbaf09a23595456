/**
 * Core benchmarks (issue 2): execute of a valid call, an invalid call and a JSON-text call through `Tools.execute`,
 * beside a direct call and bare Ajv on the bench-anchors workload (`add_numbers {a: integer, b: integer, note?:
 * string}`); registration of 1,000 tools; getSchema of 1,000 tools once computed; import plus first call in a fresh
 * process against a bare Node start.
 */
import Ajv from 'ajv';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Tools, ToolSchemaFormat } from '../lib';
import { formatNs, measure, measureOnce, printTable } from './harness';

const params = Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }, { additionalProperties: false });
const addNumbers = ({ a, b }: { a: number; b: number }) => a + b;

function coldStartMs(script: string, runs = 7): number {
  const times: number[] = [];
  for (let r = 0; r < runs + 1; r++) {
    const t = performance.now();
    execFileSync(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..') });
    if (r > 0) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export default async function coreBench(): Promise<void> {
  const tools = new Tools();
  tools.action({ name: 'add_numbers', description: 'Add two integers and return the sum.', params }, async ({ a, b }) => addNumbers({ a, b }));
  const ajv = new Ajv();
  const validate = ajv.compile({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false });

  const direct = await measure('direct call (async, awaited)', async (i) => addNumbers({ a: i, b: 2 }));
  const bareAjv = await measure('Ajv validate + call', async (i) => {
    const args = { a: i, b: 2 };
    if (!validate(args)) return { ok: false, error: ajv.errorsText(validate.errors) };
    return addNumbers(args);
  });
  const valid = await measure('execute, valid object', (i) => tools.execute('add_numbers', { a: i, b: 2 }));
  const json = await measure('execute, valid JSON text', (i) => tools.execute('add_numbers', '{"a":' + i + ',"b":2}'));
  const invalid = await measure('execute, invalid (with message)', () => tools.execute('add_numbers', { a: 'x' }));
  const check = await tools.execute('add_numbers', { a: 1, b: 2 });
  if (check.result !== 3) throw new Error('sanity check failed');

  printTable(
    'Core: one tool call (median ns/op over batches; same process, same run)',
    ['path', 'median', '± (IQR/2)', '× direct', '× Ajv', 'target'],
    [
      [direct.name, formatNs(direct.medianNs), formatNs(direct.spreadNs), '1.00', '', ''],
      [bareAjv.name, formatNs(bareAjv.medianNs), formatNs(bareAjv.spreadNs), (bareAjv.medianNs / direct.medianNs).toFixed(2), '1.00', ''],
      [valid.name, formatNs(valid.medianNs), formatNs(valid.spreadNs), (valid.medianNs / direct.medianNs).toFixed(2), (valid.medianNs / bareAjv.medianNs).toFixed(2), '<= 400 ns'],
      [json.name, formatNs(json.medianNs), formatNs(json.spreadNs), (json.medianNs / direct.medianNs).toFixed(2), (json.medianNs / bareAjv.medianNs).toFixed(2), '<= 700 ns'],
      [invalid.name, formatNs(invalid.medianNs), formatNs(invalid.spreadNs), '', '', '<= 3 µs'],
    ],
  );

  let run = 0;
  const registerMs = await measureOnce(() => {
    const many = new Tools();
    run++;
    for (let i = 0; i < 1000; i++) {
      // Every run uses schemas never seen before, so no compiled validator is reused across runs.
      many.action(
        { name: `tool_${i}`, description: `Tool number ${i}.`, params: Type.Object({ [`field_${run}_${i}`]: Type.String({ maxLength: 100 + i }), count: Type.Integer({ minimum: 0 }) }) },
        () => i,
      );
    }
  });
  const big = new Tools();
  for (let i = 0; i < 1000; i++) big.action({ name: `tool_${i}`, description: `Tool ${i}.`, params: Type.Object({ [`f${i}`]: Type.String() }) }, () => i);
  big.getSchema(ToolSchemaFormat.OPENAI);
  const schemaMs = await measureOnce(() => big.getSchema(ToolSchemaFormat.OPENAI), 21);

  const bare = coldStartMs('0');
  const plain = coldStartMs(
    "const { Tools } = require('./build/lib'); const t = new Tools(); t.action({ name: 'add', description: 'x', params: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } }, ({ a, b }) => a + b); t.execute('add', { a: 1, b: 2 }).then((r) => { if (r.result !== 3) process.exit(1); });",
  );
  const withTypeBox = coldStartMs(
    "const { Type } = require('@sinclair/typebox'); const { Tools } = require('./build/lib'); const t = new Tools(); t.action({ name: 'add', description: 'x', params: Type.Object({ a: Type.Integer(), b: Type.Integer() }) }, ({ a, b }) => a + b); t.execute('add', { a: 1, b: 2 }).then((r) => { if (r.result !== 3) process.exit(1); });",
  );
  const typeBoxAlone = coldStartMs("require('@sinclair/typebox')");
  printTable(
    'Core: registration, listing, cold start (median of runs)',
    ['measure', 'median', 'target'],
    [
      ['register 1,000 tools (distinct schemas, one validator each)', `${registerMs.toFixed(1)} ms`, '< 200 ms'],
      ['getSchema(OPENAI) for 1,000 tools, once computed', `${schemaMs.toFixed(3)} ms`, '< 5 ms'],
      ['bare `node -e 0`', `${bare.toFixed(1)} ms`, ''],
      ['added by import + define (JSON Schema params) + first call', `${(plain - bare).toFixed(1)} ms`, '<= 60 ms'],
      ['added by the same with a TypeBox-built schema', `${(withTypeBox - bare).toFixed(1)} ms`, ''],
      ['of which loading @sinclair/typebox alone', `${(typeBoxAlone - bare).toFixed(1)} ms`, ''],
    ],
  );
}
