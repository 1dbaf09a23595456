/** How many calls of one tool may wait for a free slot before a new call is refused as busy. */
export const MAX_QUEUED_CALLS = 1000;

interface Waiter {
  readonly start: () => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * The per-tool `maxConcurrency` gate: at most `limit` calls run at once; the others wait in arrival order, at most
 * {@link MAX_QUEUED_CALLS} of them. Waiting happens inside the pipeline, so a `TimeoutMiddleware` counts it.
 */
export class CallLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  /** @param limit - the most calls that run at once (a positive integer, checked by the caller). */
  constructor(readonly limit: number) {}

  /**
   * Runs `fn` once a slot is free and resolves to what it resolves to. A call whose `signal` aborts while it waits
   * leaves the queue at once and resolves to `cancelled()`; a call that finds the queue full resolves to `busy()`
   * without waiting. `fn` must not reject (the invoke step resolves to results).
   */
  run<T>(signal: AbortSignal, fn: () => Promise<T>, cancelled: () => T, busy: () => T): Promise<T> {
    if (this.running < this.limit) return this.start(fn);
    if (this.waiting.length >= MAX_QUEUED_CALLS) return Promise.resolve(busy());
    if (signal.aborted) return Promise.resolve(cancelled());
    return new Promise<T>((resolve) => {
      const waiter: Waiter = {
        signal,
        start: () => {
          signal.removeEventListener('abort', waiter.onAbort);
          resolve(this.start(fn));
        },
        onAbort: () => {
          const index = this.waiting.indexOf(waiter);
          if (index >= 0) this.waiting.splice(index, 1);
          resolve(cancelled());
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Calls running now and calls waiting now, for the busy message. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private start<T>(fn: () => Promise<T>): Promise<T> {
    this.running++;
    return fn().finally(() => {
      this.running--;
      this.waiting.shift()?.start();
    });
  }
}
