/**
 * Core benchmarks: one tool call through `Tools.execute` on the bench-anchors workload (`add_numbers {a: integer, b:
 * integer, note?: string}`), beside the floors it is judged against, all measured in the same process: a direct
 * awaited call, bare Ajv (compiled validate + awaited call; the object-input floor), JSON.parse + Ajv (the text-input
 * floor) and Ajv's invalid path compiled with `allErrors` plus its error text (like for like with a message that
 * names every offending field), and the call with `agenttoolkit/otel`'s telemetry: idle (no provider registered) and
 * traced (the SDK's tracer and meter providers, spans dropped after processing). The whole set runs in three fresh processes; each ratio is computed within a process,
 * and a target is judged on the median ratio over the processes.
 */
import Ajv from 'ajv';
import { Type } from '@sinclair/typebox';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { SimpleSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { Tools } from '../lib';
import { openTelemetry } from '../lib/otel';
import { formatNs, formatRatio, formatSpread, isBenchChild, measure, printTable, reportToParent, runInProcesses, spreadOf, verdict, type Measurement } from './harness';

const params = Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }, { additionalProperties: false });
const JSON_SCHEMA = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false } as const;
const addNumbers = ({ a, b }: { a: number; b: number }) => a + b;

const CASES = ['direct', 'ajv', 'ajvJson', 'ajvInvalidAll', 'execute', 'executeJson', 'executeInvalid', 'executeOtelIdle', 'executeOtelTraced'] as const;
type CaseId = (typeof CASES)[number];
type ChildResult = Record<CaseId, Measurement>;

const LABELS: Record<CaseId, string> = {
  direct: 'direct call (async, awaited)',
  ajv: 'Ajv validate + call (object floor)',
  ajvJson: 'JSON.parse + Ajv validate + call (text floor)',
  ajvInvalidAll: 'Ajv allErrors, invalid + errorsText (invalid floor)',
  execute: 'tools.execute, valid object',
  executeJson: 'tools.execute, valid JSON text',
  executeInvalid: 'tools.execute, invalid (full message)',
  executeOtelIdle: 'tools.execute with openTelemetry(), no provider registered',
  executeOtelTraced: 'tools.execute with openTelemetry(), SDK tracer and meter providers',
};

/** A span exporter that drops what it receives: the SDK's span and processor work is measured, not an export. */
const discard: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };

/** A metric reader that never exports: measurements are aggregated in memory, as between two exports. */
class IdleReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** Measures every case in this process (a child of {@link coreBench}). */
async function child(): Promise<ChildResult> {
  const tools = new Tools();
  tools.action({ name: 'add_numbers', description: 'Add two integers and return the sum.', params }, async ({ a, b }) => addNumbers({ a, b }));
  const idle = new Tools({ telemetry: openTelemetry() });
  idle.action({ name: 'add_numbers', description: 'Add two integers and return the sum.', params }, async ({ a, b }) => addNumbers({ a, b }));
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: discard })] });
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
  const traced = new Tools({ telemetry: openTelemetry({ tracerProvider, meterProvider }) });
  traced.action({ name: 'add_numbers', description: 'Add two integers and return the sum.', params }, async ({ a, b }) => addNumbers({ a, b }));
  const ajv = new Ajv();
  const validate = ajv.compile(JSON_SCHEMA);
  const ajvAll = new Ajv({ allErrors: true });
  const validateAll = ajvAll.compile(JSON_SCHEMA);

  const sanity = [await tools.execute('add_numbers', { a: 1, b: 2 }), await tools.execute('add_numbers', '{"a":1,"b":2}'), await tools.execute('add_numbers', { a: 'x' })];
  if (sanity[0]!.result !== 3 || sanity[1]!.result !== 3 || sanity[2]!.ok || !/a: must be integer/.test(sanity[2]!.error ?? '') || !/b: is required/.test(sanity[2]!.error ?? '')) {
    throw new Error(`sanity check failed: ${JSON.stringify(sanity)}`);
  }

  const results: Partial<ChildResult> = {};
  results.direct = await measure(LABELS.direct, async (i) => addNumbers({ a: i, b: 2 }));
  results.ajv = await measure(LABELS.ajv, async (i) => {
    const args = { a: i, b: 2 };
    if (!validate(args)) return ajv.errorsText(validate.errors);
    return addNumbers(args);
  });
  results.ajvJson = await measure(LABELS.ajvJson, async (i) => {
    const args = JSON.parse('{"a":' + i + ',"b":2}') as { a: number; b: number };
    if (!validate(args)) return ajv.errorsText(validate.errors);
    return addNumbers(args);
  });
  results.ajvInvalidAll = await measure(LABELS.ajvInvalidAll, async () => {
    const args = { a: 'x' } as unknown as { a: number; b: number };
    if (!validateAll(args)) return ajvAll.errorsText(validateAll.errors);
    return addNumbers(args);
  });
  results.execute = await measure(LABELS.execute, (i) => tools.execute('add_numbers', { a: i, b: 2 }));
  results.executeJson = await measure(LABELS.executeJson, (i) => tools.execute('add_numbers', '{"a":' + i + ',"b":2}'));
  results.executeInvalid = await measure(LABELS.executeInvalid, () => tools.execute('add_numbers', { a: 'x' }));
  results.executeOtelIdle = await measure(LABELS.executeOtelIdle, (i) => idle.execute('add_numbers', { a: i, b: 2 }));
  results.executeOtelTraced = await measure(LABELS.executeOtelTraced, (i) => traced.execute('add_numbers', { a: i, b: 2 }));
  return results as ChildResult;
}

/** The targets: the case, its floor, and the highest ratio allowed. */
const TARGETS: ReadonlyArray<{ id: CaseId; floor: CaseId; max: number }> = [
  { id: 'execute', floor: 'ajv', max: 3 },
  { id: 'executeJson', floor: 'ajvJson', max: 1.5 },
  { id: 'executeInvalid', floor: 'ajvInvalidAll', max: 10 },
  // With the API loaded and no provider registered, telemetry may cost at most 5% of a call (issue: tracing's cost).
  { id: 'executeOtelIdle', floor: 'execute', max: 1.05 },
];

export default async function coreBench(): Promise<void> {
  const runs = runInProcesses<ChildResult>(__filename);
  const ns = (id: CaseId) => spreadOf(runs.map((r) => r[id].medianNs));
  const ratio = (id: CaseId, floor: CaseId) => spreadOf(runs.map((r) => r[id].medianNs / r[floor].medianNs));
  const rows = CASES.map((id) => {
    const target = TARGETS.find((t) => t.id === id);
    const versus = target ? ratio(id, target.floor) : undefined;
    return [
      LABELS[id],
      formatSpread(ns(id), formatNs),
      formatNs(runs[0]![id].spreadNs),
      formatRatio(ratio(id, 'direct').median),
      versus ? `${formatSpread(versus, (x) => formatRatio(x))} of ${target!.floor}` : '',
      target ? `≤ ${target.max}× ${target.floor}` : '',
      target ? verdict(versus!.median <= target.max) : '',
    ];
  });
  printTable(
    `Core: one tool call (ns/op: median over 40 batches per process; median (min–max) over ${runs.length} processes; ratios computed within each process)`,
    ['path', 'ns/op', '± (IQR/2, first process)', '× direct', 'ratio to its floor', 'target', 'met'],
    rows,
  );
}

if (require.main === module && isBenchChild()) {
  child().then(reportToParent, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
