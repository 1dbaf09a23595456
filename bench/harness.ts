/**
 * Small benchmark harness shared by every `*.bench.ts` file: warm-up, then batches of back-to-back calls timed with
 * `process.hrtime.bigint()`; the reported figure is the median ns per operation over the batches (the same method as
 * `../shared/bench-anchors/harness.mjs`, so figures are comparable).
 */
export interface Measurement {
  name: string;
  /** Median nanoseconds per operation over the batches. */
  medianNs: number;
  /** Half the inter-quartile range of the batches, ns. */
  spreadNs: number;
  /** Number of timed operations. */
  ops: number;
}

const QUICK = process.env.BENCH_QUICK === '1';

/** Runs `fn` repeatedly (awaiting it) and returns the median ns/op over timed batches. */
export async function measure(name: string, fn: (i: number) => unknown, options: { batches?: number; batchMs?: number; warmupMs?: number } = {}): Promise<Measurement> {
  const batches = options.batches ?? (QUICK ? 8 : 30);
  const batchMs = options.batchMs ?? (QUICK ? 5 : 10);
  const warmupMs = options.warmupMs ?? (QUICK ? 100 : 400);
  let i = 0;
  const warmEnd = performance.now() + warmupMs;
  let warmIters = 0;
  while (performance.now() < warmEnd || warmIters < 1000) {
    await fn(i++);
    warmIters++;
  }
  // Size batches so each lasts about batchMs.
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < 100; k++) await fn(i++);
  const per = Number(process.hrtime.bigint() - t0) / 100;
  const n = Math.max(1, Math.round((batchMs * 1e6) / Math.max(per, 1)));
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = process.hrtime.bigint();
    for (let k = 0; k < n; k++) await fn(i++);
    samples.push(Number(process.hrtime.bigint() - start) / n);
  }
  samples.sort((a, b) => a - b);
  const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] ?? 0;
  return { name, medianNs: q(0.5), spreadNs: (q(0.75) - q(0.25)) / 2, ops: n * batches };
}

/** Times a one-shot async operation `runs` times and returns the median in ms. */
export async function measureOnce(fn: () => unknown, runs = QUICK ? 3 : 7): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** Formats nanoseconds for a table cell (ns, µs or ms). */
export function formatNs(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}

/** Prints a Markdown table: a title line, a header and one line per row. */
export function printTable(title: string, header: string[], rows: string[][]): void {
  const lines = [`\n### ${title}\n`, `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  console.log(lines.join('\n'));
}
