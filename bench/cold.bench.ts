/**
 * Cold start, measured like the bench-anchors comparison: fresh `node` processes, one discarded warm-up round (page
 * cache), then five measured rounds, the kinds interleaved round-robin. Inside each child: load the library (and the
 * schema library it is used with), define one tool, await its first call. Reported: medians of the in-process total
 * (load + define + first call) and of the wall time seen by this parent (node's own start included; see the `node, no
 * library` row). The peers (Vercel AI SDK, Mastra, LangChain, ...) are not dependencies of this repository: compare
 * against them with `scripts/bench-anchors.sh` (see docs/benchmarks.md); this table keeps bare Ajv, the floor every
 * JSON Schema validating library stands on, as its reference row.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { formatMs, formatRatio, isBenchChild, median, printTable, reportToParent, CHILD_FLAG } from './harness';

const KINDS = ['none', 'ajv', 'typebox', 'agenttoolkit-typebox', 'agenttoolkit-json'] as const;
type Kind = (typeof KINDS)[number];

const LABELS: Record<Kind, string> = {
  none: 'node, no library (process floor)',
  ajv: 'Ajv alone: import, compile, validate (reference)',
  typebox: '@sinclair/typebox alone: import, build the schema',
  'agenttoolkit-typebox': 'agenttoolkit + TypeBox-built schema',
  'agenttoolkit-json': 'agenttoolkit + plain JSON Schema',
};

interface ChildTimes {
  loadMs: number;
  defineMs: number;
  firstCallMs: number;
}

const ROOT = join(__dirname, '..', 'lib');
const JSON_SCHEMA = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false } as const;

/* eslint-disable @typescript-eslint/no-require-imports -- loading is what is timed */
async function child(kind: Kind): Promise<ChildTimes> {
  const t0 = performance.now();
  if (kind === 'none') return { loadMs: 0, defineMs: 0, firstCallMs: 0 };
  if (kind === 'ajv') {
    const Ajv = (require('ajv') as { default: typeof import('ajv').default }).default;
    const t1 = performance.now();
    const validate = new Ajv().compile(JSON_SCHEMA);
    const t2 = performance.now();
    if (!validate({ a: 1, b: 2 })) throw new Error('Ajv refused valid arguments');
    return { loadMs: t1 - t0, defineMs: t2 - t1, firstCallMs: performance.now() - t2 };
  }
  const { Type } = kind === 'agenttoolkit-json' ? { Type: undefined } : (require('@sinclair/typebox') as typeof import('@sinclair/typebox'));
  if (kind === 'typebox') {
    const t1 = performance.now();
    Type!.Object({ a: Type!.Integer(), b: Type!.Integer(), note: Type!.Optional(Type!.String()) });
    return { loadMs: t1 - t0, defineMs: performance.now() - t1, firstCallMs: 0 };
  }
  const { Tools } = require(ROOT) as typeof import('../lib');
  const t1 = performance.now();
  const tools = new Tools();
  const params = (Type ? Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }) : JSON_SCHEMA) as typeof JSON_SCHEMA;
  tools.action({ name: 'add_numbers', description: 'Add two integers and return the sum.', params }, async (args: Record<string, unknown>) => (args.a as number) + (args.b as number));
  const t2 = performance.now();
  const result = await tools.execute('add_numbers', { a: 1, b: 2 });
  if (result.result !== 3) throw new Error('first call failed');
  return { loadMs: t1 - t0, defineMs: t2 - t1, firstCallMs: performance.now() - t2 };
}
/* eslint-enable @typescript-eslint/no-require-imports */

interface Sample extends ChildTimes {
  wallMs: number;
}

function runChild(kind: Kind): Sample {
  const t0 = performance.now();
  const out = spawnSync(process.execPath, [__filename, CHILD_FLAG, kind], { encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  if (out.status !== 0) throw new Error(`cold child ${kind} failed: ${out.stderr}`);
  return { wallMs, ...(JSON.parse(out.stdout.trim().split('\n').pop()!) as ChildTimes) };
}

export default async function coldBench(): Promise<void> {
  const rounds = process.env.BENCH_QUICK === '1' ? 2 : 5;
  const samples = Object.fromEntries(KINDS.map((kind) => [kind, [] as Sample[]])) as Record<Kind, Sample[]>;
  for (const kind of KINDS) runChild(kind);
  for (let r = 0; r < rounds; r++) for (const kind of KINDS) samples[kind].push(runChild(kind));
  const total = (kind: Kind) => median(samples[kind].map((s) => s.loadMs + s.defineMs + s.firstCallMs));
  const reference = total('ajv');
  printTable(
    `Cold start: fresh processes, medians of ${rounds} interleaved rounds (compare with the peers through scripts/bench-anchors.sh)`,
    ['kind', 'load', 'define', 'first call', 'in-process total', '× Ajv alone', 'wall (parent)'],
    KINDS.map((kind) => [
      LABELS[kind],
      formatMs(median(samples[kind].map((s) => s.loadMs))),
      formatMs(median(samples[kind].map((s) => s.defineMs))),
      formatMs(median(samples[kind].map((s) => s.firstCallMs))),
      formatMs(total(kind)),
      kind === 'none' ? '' : formatRatio(total(kind) / reference),
      formatMs(median(samples[kind].map((s) => s.wallMs))),
    ]),
  );
}

if (require.main === module && isBenchChild()) {
  const kind = process.argv[process.argv.indexOf(CHILD_FLAG) + 1] as Kind;
  child(kind).then(
    (times) => {
      reportToParent(times);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
