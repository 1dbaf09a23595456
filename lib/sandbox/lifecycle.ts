import { SandboxError } from './errors';

/**
 * Open/closed state shared by the backends: refuses calls after close, and on close cancels the running calls and
 * waits for them to finish (so their processes are gone when `close()` resolves).
 */
export class Lifecycle {
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<unknown>>();

  /** @param name - the backend's name, for messages. */
  constructor(private readonly name: string) {}

  /** True after {@link Lifecycle.close} was called. */
  get closed(): boolean {
    return this.controller.signal.aborted;
  }

  /** @throws SandboxError `SANDBOX_CLOSED` once closed. */
  assertOpen(): void {
    if (this.closed) throw new SandboxError('SANDBOX_CLOSED', `${this.name} is closed; create a new sandbox to run more commands.`);
  }

  /**
   * Runs one call, giving it a signal that aborts when the call's own signal does or when the sandbox closes.
   *
   * @throws SandboxError `SANDBOX_CLOSED` when already closed; otherwise whatever `call` throws.
   */
  async run<T>(callSignal: AbortSignal | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.assertOpen();
    const own = this.controller.signal;
    const promise = call(callSignal ? AbortSignal.any([callSignal, own]) : own);
    this.running.add(promise);
    try {
      return await promise;
    } finally {
      this.running.delete(promise);
    }
  }

  /** Marks the sandbox closed, aborts running calls with `SANDBOX_CLOSED`, and waits until they settle. Idempotent. */
  async close(): Promise<void> {
    if (!this.closed) {
      this.controller.abort(new SandboxError('SANDBOX_CLOSED', `${this.name} was closed while this command ran; its processes were killed.`));
    }
    await Promise.allSettled([...this.running]);
  }
}
