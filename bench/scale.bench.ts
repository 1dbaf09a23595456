/**
 * Registration and listing at scale: 10,000 distinct tools with 3-parameter TypeBox schemas (no two alike, so nothing
 * is shared between them) registered into one registry; the heap they hold; `getSchema(OPENAI)` over all of them the
 * first time (every entry rendered) and once cached; the first call of one of them (its validator compiled then).
 * Each figure comes from three fresh processes; a target is judged on the median over the processes.
 */
import { Type, type TObject } from '@sinclair/typebox';
import { Tools, ToolSchemaFormat } from '../lib';
import { formatMs, formatSpread, isBenchChild, median, printTable, reportToParent, runInProcesses, spreadOf, verdict } from './harness';

const COUNT = 10_000;

interface ChildResult {
  registerMs: number;
  registerCpuMs: number;
  firstListingCpuMs: number;
  heapPerToolBytes: number;
  firstListingMs: number;
  cachedListingMs: number;
  firstCallMs: number;
}

function schemaOf(i: number): TObject {
  return Type.Object({
    [`query_${i}`]: Type.String({ description: `What to look up in source ${i}.`, maxLength: 200 + i }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 + i })),
    exact: Type.Boolean({ description: 'Match the whole phrase.' }),
  });
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** CPU time (user + system) this process spent since `start`, ms: what the work costs, whoever else shares the cores. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function child(): Promise<ChildResult> {
  const schemas = Array.from({ length: COUNT }, (_, i) => schemaOf(i));
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const tools = new Tools();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < COUNT; i++) tools.action({ name: `tool_${i}`, description: `Tool number ${i}: looks a phrase up in source ${i}.`, params: schemas[i]! }, () => i);
  const registerMs = performance.now() - t0;
  const registerCpuMs = cpuMs(c0);
  gc();
  const heapPerToolBytes = (process.memoryUsage().heapUsed - heapBefore) / COUNT;

  const c1 = process.cpuUsage();
  const t1 = performance.now();
  const listing = tools.getSchema(ToolSchemaFormat.OPENAI);
  const firstListingMs = performance.now() - t1;
  const firstListingCpuMs = cpuMs(c1);
  if (listing.length !== COUNT) throw new Error(`listed ${listing.length} tools`);
  const cached: number[] = [];
  for (let k = 0; k < 21; k++) {
    const t = performance.now();
    tools.getSchema(ToolSchemaFormat.OPENAI);
    cached.push(performance.now() - t);
  }

  const t2 = performance.now();
  const result = await tools.execute('tool_7', { query_7: 'x', exact: true });
  const firstCallMs = performance.now() - t2;
  if (result.result !== 7) throw new Error('sanity check failed');
  return { registerMs, registerCpuMs, heapPerToolBytes, firstListingMs, firstListingCpuMs, cachedListingMs: median(cached), firstCallMs };
}

export default async function scaleBench(): Promise<void> {
  const runs = runInProcesses<ChildResult>(__filename);
  const of = (key: keyof ChildResult) => spreadOf(runs.map((r) => r[key]));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
  // One-shot targets are judged on the process's CPU time: wall time on a shared machine also counts the time other
  // processes held the cores. Both are shown.
  const rows: Array<[string, keyof ChildResult, keyof ChildResult | undefined, (value: number) => string, string, number | undefined]> = [
    [`register ${COUNT.toLocaleString('en')} distinct tools`, 'registerCpuMs', 'registerMs', formatMs, '< 1 s', 1000],
    ['heap per registered 3-parameter tool', 'heapPerToolBytes', undefined, kb, '< 4 KB', 4096],
    [`getSchema(OPENAI), ${COUNT.toLocaleString('en')} tools, first time`, 'firstListingCpuMs', 'firstListingMs', formatMs, '< 50 ms', 50],
    [`getSchema(OPENAI), ${COUNT.toLocaleString('en')} tools, cached (median of 21)`, 'cachedListingMs', undefined, formatMs, '< 1 ms', 1],
    ['first call of a registered tool (validator compiled then)', 'firstCallMs', undefined, formatMs, '', undefined],
  ];
  printTable(
    `Scale: registration and listing (median (min–max) over ${runs.length} processes; CPU time where a wall time is also shown)`,
    ['measure', 'value', 'wall time', 'target', 'met'],
    rows.map(([name, key, wall, format, target, limit]) => [
      name,
      formatSpread(of(key), format),
      wall === undefined ? '' : formatSpread(of(wall), format),
      target,
      limit === undefined ? '' : verdict(of(key).median < limit),
    ]),
  );
}

if (require.main === module && isBenchChild()) {
  child().then(reportToParent, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
