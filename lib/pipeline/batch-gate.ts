/**
 * The batch rule for calls a framework starts at once (the tool calls of one model step, one run's turn), in arrival
 * order: concurrency-safe calls run together, at most `maxConcurrency` at once; a concurrency-unsafe call waits for
 * the running ones and runs alone, and the calls after it wait for it. The rule `runToolCalls` and
 * `executeToolCalls` follow, for adapters that are handed one call at a time. One gate is one batch scope: keep one
 * per conversation (see {@link BatchGates}), never one per registry.
 */
export class BatchGate {
  private running = 0;
  private exclusive = false;
  private readonly queue: Array<{ readonly unsafe: boolean; readonly start: () => void }> = [];

  /** @param maxConcurrency - the most safe calls that run at once; `undefined` for no limit. */
  constructor(private readonly maxConcurrency: number | undefined) {}

  /**
   * Runs `fn` when the rule lets it. `unsafe` calls run alone. A call whose `signal` aborts while it waits leaves the
   * queue and runs `fn` at once (which answers a cancelled call without running the tool).
   */
  async run<T>(unsafe: boolean, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(unsafe, signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * Waits for a call's turn as {@link run} does, and resolves to the function that ends it (call it once, when the
   * call is done), for a call that is not one promise (a stream).
   */
  async acquire(unsafe: boolean, signal?: AbortSignal): Promise<() => void> {
    let entered = true;
    if (this.queue.length > 0 || !this.canStart(unsafe)) entered = await this.wait(unsafe, signal);
    else this.enter(unsafe);
    let released = !entered;
    return () => {
      if (released) return;
      released = true;
      this.leave(unsafe);
    };
  }

  private canStart(unsafe: boolean): boolean {
    if (this.exclusive) return false;
    return unsafe ? this.running === 0 : this.maxConcurrency === undefined || this.running < this.maxConcurrency;
  }

  private enter(unsafe: boolean): void {
    this.running++;
    if (unsafe) this.exclusive = true;
  }

  private leave(unsafe: boolean): void {
    this.running--;
    if (unsafe) this.exclusive = false;
    this.drain();
  }

  /** Waits for the call's turn: resolves `true` when it entered the gate, `false` when its signal aborted first. */
  private wait(unsafe: boolean, signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal?.aborted === true) return resolve(false);
      const entry = {
        unsafe,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.enter(unsafe);
          resolve(true);
        },
      };
      const onAbort = (): void => {
        this.queue.splice(this.queue.indexOf(entry), 1);
        resolve(false);
        this.drain();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
    });
  }

  private drain(): void {
    while (this.queue.length > 0 && this.canStart(this.queue[0]!.unsafe)) this.queue.shift()!.start();
  }
}

/** One {@link BatchGate} per batch key (a framework's run or step object), dropped with the key. */
export class BatchGates {
  private readonly gates = new WeakMap<object, BatchGate>();

  constructor(private readonly maxConcurrency: number | undefined) {}

  /** The gate of `key`; without a key (a framework that passes none), a gate of the call's own, which never waits. */
  of(key: unknown): BatchGate {
    if (typeof key !== 'object' || key === null) return new BatchGate(this.maxConcurrency);
    let gate = this.gates.get(key);
    if (gate === undefined) this.gates.set(key, (gate = new BatchGate(this.maxConcurrency)));
    return gate;
  }
}
