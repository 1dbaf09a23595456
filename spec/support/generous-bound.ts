/**
 * The one place a spec may compare elapsed wall-clock time, for the few facts that only time can show: a kill or a
 * timeout happened, so a call that would otherwise run for minutes came back. Every other spec counts the work done,
 * bounds it structurally, uses fake timers or waits for a state; the lint rule of eslint.config.mjs refuses
 * `Date.now()` / `performance.now()` in an `expect` anywhere else. Speed itself is measured by `npm run bench`.
 *
 * A bound is legitimate only when load cannot reach it: at least ten times what the work takes on a busy machine
 * (the 2-core CI host running the whole suite), so a slow run stays green and only a missed kill fails it.
 */

/** How many times the busy-machine duration a bound must be at least. */
export const GENEROUS_FACTOR = 10;

/** What one generous bound asserts. */
export interface GenerousBound {
  /** The time, in ms, after which the run would have stopped had the kill or timeout not worked (e.g. `sleep 300`). */
  readonly withoutItMs: number;
  /** What the work takes on a busy machine, in ms (the slowest figure seen, not the typical one). */
  readonly busyMs: number;
  /** The limit, in ms: at least {@link GENEROUS_FACTOR} times `busyMs`, and below `withoutItMs`. */
  readonly limitMs: number;
}

/**
 * Awaits `work` and expects it to settle within `bound.limitMs` milliseconds (it resolves or rejects as `work` does,
 * so the caller asserts on the outcome as usual).
 *
 * @throws Error, before running `work`, when the bound is not generous: `limitMs` below ten times `busyMs`, or not
 *   below `withoutItMs` (then it could not tell a kill from none).
 */
export async function expectWithinGenerousBound<T>(bound: GenerousBound, work: () => Promise<T>): Promise<T> {
  if (bound.limitMs < GENEROUS_FACTOR * bound.busyMs) {
    throw new Error(`A generous bound needs limitMs >= ${GENEROUS_FACTOR} x busyMs (${GENEROUS_FACTOR * bound.busyMs} ms); got ${bound.limitMs} ms. Raise the limit or count the work instead.`);
  }
  if (bound.limitMs >= bound.withoutItMs) {
    throw new Error(`limitMs (${bound.limitMs} ms) must be below withoutItMs (${bound.withoutItMs} ms), or the bound cannot tell a kill from none: make the work run longer without it.`);
  }
  const started = performance.now();
  try {
    return await work();
  } finally {
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(bound.limitMs);
  }
}
