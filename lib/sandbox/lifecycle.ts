import { SandboxError } from './errors';

/**
 * Open/closed state shared by the backends: refuses calls after close, and on close cancels the running calls and
 * waits for them to finish (so their processes are gone when `close()` resolves).
 *
 * Each call gets its own `AbortController`; closing aborts every one of them from a set, and a caller's signal shared
 * by many calls gets one listener that fans out, so any number of concurrent calls adds no listener to a shared
 * signal (Node warns with `MaxListenersExceededWarning` past ten).
 */
export class Lifecycle {
  private isClosed = false;
  private readonly calls = new Set<AbortController>();
  private readonly running = new Set<Promise<unknown>>();
  /** One listener per caller's signal, fanning out to the calls that share it. */
  private readonly forwards = new Map<AbortSignal, { calls: Set<AbortController>; listener: () => void }>();

  /** @param name - the backend's name, for messages. */
  constructor(private readonly name: string) {}

  /** True after {@link Lifecycle.close} was called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** @throws SandboxError `SANDBOX_CLOSED` once closed. */
  assertOpen(): void {
    if (this.isClosed) throw new SandboxError('SANDBOX_CLOSED', `${this.name} is closed; create a new sandbox to run more commands.`);
  }

  /**
   * Runs one call, giving it a signal of its own that aborts when the call's signal does or when the sandbox closes.
   *
   * @throws SandboxError `SANDBOX_CLOSED` when already closed; otherwise whatever `call` throws.
   */
  async run<T>(callSignal: AbortSignal | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.assertOpen();
    const controller = new AbortController();
    if (callSignal?.aborted) controller.abort(callSignal.reason);
    else if (callSignal) this.follow(callSignal, controller);
    this.calls.add(controller);
    const promise = call(controller.signal);
    this.running.add(promise);
    try {
      return await promise;
    } finally {
      this.running.delete(promise);
      this.calls.delete(controller);
      if (callSignal) this.unfollow(callSignal, controller);
    }
  }

  private follow(signal: AbortSignal, controller: AbortController): void {
    let forward = this.forwards.get(signal);
    if (!forward) {
      const calls = new Set<AbortController>();
      const listener = (): void => calls.forEach((c) => c.abort(signal.reason));
      forward = { calls, listener };
      this.forwards.set(signal, forward);
      signal.addEventListener('abort', listener, { once: true });
    }
    forward.calls.add(controller);
  }

  private unfollow(signal: AbortSignal, controller: AbortController): void {
    const forward = this.forwards.get(signal);
    if (!forward) return;
    forward.calls.delete(controller);
    if (forward.calls.size === 0) {
      signal.removeEventListener('abort', forward.listener);
      this.forwards.delete(signal);
    }
  }

  /** Marks the sandbox closed, aborts running calls with `SANDBOX_CLOSED`, and waits until they settle. Idempotent. */
  async close(): Promise<void> {
    if (!this.isClosed) {
      this.isClosed = true;
      const reason = new SandboxError('SANDBOX_CLOSED', `${this.name} was closed while this command ran; its processes were killed.`);
      for (const controller of this.calls) controller.abort(reason);
    }
    await Promise.allSettled([...this.running]);
  }
}
