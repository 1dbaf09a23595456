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
 * once even when the tool ignores its signal. The listener is removed when `value` settles first. A `value` that loses
 * the race keeps a rejection handler, so its later failure never surfaces as an unhandled rejection.
 */
export function raceAbort(value: PromiseLike<unknown>, signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) {
    value.then(undefined, () => undefined);
    return Promise.reject(CANCELLED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
    value.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/**
 * A controller whose signal also aborts when `parent` does (with the parent's reason), for a step that needs to abort
 * the work below it on its own (a timeout, a stream consumer that stops). Call `unlink()` when the step ends, so a
 * long-lived parent signal keeps no listener.
 */
export function linkedController(parent: AbortSignal | undefined): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return { controller, unlink: () => parent?.removeEventListener('abort', onParentAbort) };
}
