/**
 * Benchmark harness shared by every `*.bench.ts` file. The method is the one of the bench-anchors comparison (the
 * peers' execute paths on one workload), so figures from both are comparable:
 *
 * - each measured function gets its own freshly compiled loop (`new Function`), so the call site inside the loop is
 *   monomorphic and carries no type feedback from another case;
 * - warm-up of at least 500 ms and 5,000 calls; then 40 batches of about 10 ms of back-to-back awaited calls, each
 *   timed with `process.hrtime.bigint()`: ns/op = the median over batches (± = half the inter-quartile range), with
 *   interpolated quantiles;
 * - then about 400 ms of individually timed calls give per-call p50/p99 (these include the timer's own cost);
 * - every result is written to a sink the optimiser cannot see through, so no call is dropped as dead code;
 * - `gc()` (node --expose-gc) is forced between phases, never inside a timed batch, so the cost of a call's
 *   allocations stays in its figure.
 *
 * `BENCH_QUICK=1` shortens every phase (a smoke run, not figures to quote). Compare ratios measured in one run, never
 * absolute times across runs: {@link runInProcesses} repeats a measurement in fresh processes so a table can show the
 * spread and judge a target on the median of several processes rather than on one noisy run.
 */
import { spawnSync } from 'node:child_process';

/** One measured case. */
export interface Measurement {
  name: string;
  /** Median nanoseconds per operation over the batches. */
  medianNs: number;
  /** Half the inter-quartile range of the batches, ns. */
  spreadNs: number;
  /** Number of timed operations in the batches. */
  ops: number;
  p25Ns: number;
  p75Ns: number;
  minNs: number;
  maxNs: number;
  batches: number;
  itersPerBatch: number;
  warmupIters: number;
  /** Individually timed calls: median and 99th percentile, ns (timer cost included). */
  callP50Ns: number;
  callP99Ns: number;
}

const QUICK = process.env.BENCH_QUICK === '1';
const env = (key: string, fallback: number) => (process.env[key] !== undefined ? Number(process.env[key]) : fallback);

/** The anchors' defaults (`BENCH_*` variables override them, as in the anchors' harness). */
export const CONFIG = {
  warmupMs: env('BENCH_WARMUP_MS', QUICK ? 100 : 500),
  warmupMinIters: env('BENCH_WARMUP_ITERS', QUICK ? 500 : 5000),
  batches: env('BENCH_BATCHES', QUICK ? 8 : 40),
  batchMs: env('BENCH_BATCH_MS', QUICK ? 5 : 10),
  sampleMs: env('BENCH_SAMPLE_MS', QUICK ? 50 : 400),
  sampleMax: env('BENCH_SAMPLE_MAX', 100_000),
  sampleMin: env('BENCH_SAMPLE_MIN', QUICK ? 100 : 1_000),
};

const now = process.hrtime.bigint;
const sinkBox: { v: unknown } = { v: undefined };

/** The last value a measured loop produced (read it so the loop's results are observably used). */
export function sink(): unknown {
  return sinkBox.v;
}

interface Loops {
  batch(n: number, i0: number): Promise<number> | number;
  samples(n: number, i0: number, out: Float64Array): Promise<void> | void;
  timed(msBudget: number, minIters: number, i0: number): Promise<{ iters: number; ns: number }> | { iters: number; ns: number };
}

/** A fresh copy of the timing loops for `fn`, compiled for this case only. */
function makeLoops(fn: (i: number) => unknown, isSync: boolean): Loops {
  const aw = isSync ? '' : 'await ';
  const asyncKw = isSync ? '' : 'async ';
  const source = `
    return {
      batch: ${asyncKw}function batch(n, i0) {
        let s;
        const t0 = now();
        for (let k = 0; k < n; k++) { s = ${aw}fn(i0 + k); }
        const t1 = now();
        sinkBox.v = s;
        return Number(t1 - t0);
      },
      samples: ${asyncKw}function samples(n, i0, out) {
        let s;
        for (let k = 0; k < n; k++) {
          const t0 = now();
          s = ${aw}fn(i0 + k);
          out[k] = Number(now() - t0);
        }
        sinkBox.v = s;
      },
      timed: ${asyncKw}function timed(msBudget, minIters, i0) {
        let s, k = 0;
        const end = now() + BigInt(Math.round(msBudget * 1e6));
        const t0 = now();
        while (k < minIters || now() < end) {
          for (let j = 0; j < 64; j++, k++) { s = ${aw}fn(i0 + k); }
        }
        const t1 = now();
        sinkBox.v = s;
        return { iters: k, ns: Number(t1 - t0) };
      },
    };`;
  return new Function('now', 'fn', 'sinkBox', source)(now, fn, sinkBox) as Loops;
}

/** The `q` quantile of ascending `sorted`, interpolated between neighbours. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The median of `values` (interpolated). */
export function median(values: readonly number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/**
 * Measures `fn(i)` (awaited, unless `sync`) with the method above. `batches`, `batchMs` and `warmupMs` override the
 * defaults for slow operations (each batch is at least one call).
 */
export async function measure(
  name: string,
  fn: (i: number) => unknown,
  options: { batches?: number; batchMs?: number; warmupMs?: number; sync?: boolean } = {},
): Promise<Measurement> {
  const batches = options.batches ?? CONFIG.batches;
  const batchMs = options.batchMs ?? CONFIG.batchMs;
  const warmupMs = options.warmupMs ?? CONFIG.warmupMs;
  const loops = makeLoops(fn, options.sync === true);
  let i = 1;

  gc();
  const warm = await loops.timed(warmupMs, CONFIG.warmupMinIters, i);
  i += warm.iters;
  const estimateNs = Math.max(warm.ns / warm.iters, 0.05);
  const n = Math.max(1, Math.min(50_000_000, Math.round((batchMs * 1e6) / estimateNs)));

  gc();
  const perOp: number[] = [];
  for (let b = 0; b < batches; b++) {
    const ns = await loops.batch(n, i);
    i += n;
    perOp.push(ns / n);
  }
  perOp.sort((a, b) => a - b);

  const sampleCount = Math.max(CONFIG.sampleMin, Math.min(CONFIG.sampleMax, Math.round((CONFIG.sampleMs * 1e6) / estimateNs)));
  const out = new Float64Array(sampleCount);
  gc();
  await loops.samples(sampleCount, i, out);
  const calls = Array.from(out).sort((a, b) => a - b);

  const p25 = quantile(perOp, 0.25);
  const p75 = quantile(perOp, 0.75);
  return {
    name,
    medianNs: quantile(perOp, 0.5),
    spreadNs: (p75 - p25) / 2,
    ops: n * batches,
    p25Ns: p25,
    p75Ns: p75,
    minNs: perOp[0]!,
    maxNs: perOp[perOp.length - 1]!,
    batches,
    itersPerBatch: n,
    warmupIters: warm.iters,
    callP50Ns: quantile(calls, 0.5),
    callP99Ns: quantile(calls, 0.99),
  };
}

/** Times a one-shot async operation `runs` times and returns the median in ms. */
export async function measureOnce(fn: () => unknown, runs = QUICK ? 3 : 7): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    gc();
    const t = performance.now();
    sinkBox.v = await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** The flag a bench file's child process is started with (see {@link runInProcesses}). */
export const CHILD_FLAG = '--bench-child';

/** Whether this process is a child started by {@link runInProcesses}. */
export function isBenchChild(): boolean {
  return process.argv.includes(CHILD_FLAG);
}

/** Prints a child's results: the one JSON line {@link runInProcesses} reads. */
export function reportToParent(results: unknown): void {
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

/**
 * Runs the compiled bench file `file` (an absolute path to its `.js`) as a child in `count` fresh processes, one after
 * the other, each with `node --expose-gc <file> --bench-child ...args`, and returns what each printed with
 * {@link reportToParent}. Repeating a measurement in fresh processes gives the spread between processes (JIT and GC
 * state, machine noise), which a single in-process figure hides.
 */
export function runInProcesses<T>(file: string, count = QUICK ? 2 : 3, args: readonly string[] = []): T[] {
  const results: T[] = [];
  for (let k = 0; k < count; k++) {
    const child = spawnSync(process.execPath, ['--expose-gc', file, CHILD_FLAG, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (child.status !== 0) throw new Error(`bench child ${file} failed (${String(child.status)}): ${child.stderr}`);
    const line = child.stdout.trim().split('\n').pop() ?? '';
    results.push(JSON.parse(line) as T);
  }
  return results;
}

/** Median, lowest and highest of a figure measured in several processes. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The {@link Spread} of `values`. */
export function spreadOf(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** `median (min–max)` with `format` applied to each. */
export function formatSpread(spread: Spread, format: (value: number) => string): string {
  return `${format(spread.median)} (${format(spread.min)}–${format(spread.max)})`;
}

/** A ratio as `1.23×`. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}

/** The "met" cell of a target: judged on the median over processes, so one noisy process cannot decide it alone. */
export function verdict(met: boolean): string {
  return met ? 'met' : '**not met**';
}

/** Formats nanoseconds for a table cell (ns, µs or ms). */
export function formatNs(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}

/** Formats milliseconds for a table cell. */
export function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`;
}

/** Prints a Markdown table: a title line, a header and one line per row. */
export function printTable(title: string, header: string[], rows: string[][]): void {
  const lines = [`\n### ${title}\n`, `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  console.log(lines.join('\n'));
}
