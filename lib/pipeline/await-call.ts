/** The signal of calls made without one: never aborted, shared, so a plain call allocates no controller. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** Rejection reason of {@link raceAbort} when the call's signal aborts first. */
export const CANCELLED = Symbol('cancelled');

/** Whether `value` is a promise or another thenable (a tool body may return either, or a plain value). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * Settles like `value`, or rejects with {@link CANCELLED} as soon as `signal` aborts, so a cancelled call returns at
 * once even when the tool ignores its signal. A `value` that loses the race keeps a rejection handler, so its later
 * failure never surfaces as an unhandled rejection.
 *
 * The abort listener is added one microtask later, and only when `value` is still pending then: a tool that answers
 * at once (an `async` body that computes without waiting) never pays for it. That matters on Node 20, where the first
 * listener on a fresh `AbortSignal` (the per-request signal of an MCP or HTTP server) costs several times a whole
 * call. An abort in between is not missed: the signal's state is checked before listening.
 */
export function raceAbort(value: PromiseLike<unknown>, signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) {
    value.then(undefined, () => undefined);
    return Promise.reject(CANCELLED);
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    let onAbort: (() => void) | undefined;
    const settle = () => {
      settled = true;
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    };
    value.then(
      (v) => (settle(), resolve(v)),
      (e: unknown) => (settle(), reject(e)),
    );
    // A promise reaction, not queueMicrotask: Node allocates an AsyncResource for each queueMicrotask callback.
    void Promise.resolve().then(() => {
      if (settled) return;
      if (signal.aborted) return reject(CANCELLED);
      onAbort = () => reject(CANCELLED);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  });
}

/**
 * A controller whose signal also aborts when `parent` does (with the parent's reason), for a step that needs to abort
 * the work below it on its own (a timeout, a stream consumer that stops). Call `unlink()` when the step ends, so a
 * long-lived parent signal keeps no listener. The shared {@link NEVER_ABORTED} gets no listener at all (many
 * concurrent calls without a signal would otherwise trip Node's listener-count warning on it).
 */
export function linkedController(parent: AbortSignal | undefined): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (parent === undefined || parent === NEVER_ABORTED) return { controller, unlink: () => undefined };
  const onParentAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onParentAbort, { once: true });
  return { controller, unlink: () => parent.removeEventListener('abort', onParentAbort) };
}
