import { CoreError } from '../errors';
import type { ActionResult } from '../result';
import { linkedController } from './await-call';
import type { NextHandler, ToolMiddleware } from './middleware';
import type { ToolCall } from './tool-call';

/**
 * Abandons a call that has not finished after `ms` milliseconds: the call fails at once with a result telling the
 * model so (built with the registry's result type, `call.resultType`), and the `AbortSignal` the tool received (inject
 * it with `@Inject(AbortSignal)`) is aborted with a {@link CoreError} `CALL_TIMED_OUT` as its reason, asking the tool
 * to stop.
 *
 * JavaScript cannot stop a running function from outside: a tool that ignores its signal keeps running after the
 * result was returned, and its side effects (a file written, a request sent, a process started) may still land. Tools
 * with side effects should pass the signal on to what they start (`fetch(url, { signal })`, a sandbox's `execute`)
 * and check `signal.aborted` between steps.
 *
 * @param ms - the time limit per call, in milliseconds (positive).
 * @throws CoreError `INVALID_OPTION` when `ms` is not a positive finite number.
 */
export class TimeoutMiddleware implements ToolMiddleware {
  constructor(readonly ms: number) {
    if (!Number.isFinite(ms) || ms <= 0) throw new CoreError('INVALID_OPTION', `TimeoutMiddleware needs a positive number of milliseconds, got ${ms}.`);
  }

  /** Runs `next(call)`; after `ms` without a result, aborts the call's signal and answers with a failed result. */
  async handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>> {
    const { controller, unlink } = linkedController(call.signal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.ms);
    });
    try {
      const outcome = await Promise.race([next(call.with({ signal: controller.signal })), timedOut]);
      if (outcome !== 'timeout') return outcome;
      controller.abort(new CoreError('CALL_TIMED_OUT', `Tool '${call.name}' was abandoned after ${this.ms} ms.`));
      return call.resultType.fail(timeoutMessage(call.name, this.ms));
    } finally {
      clearTimeout(timer);
      unlink();
    }
  }
}

/** What the model is told: the call was abandoned and the tool asked to stop, not that it stopped. */
function timeoutMessage(name: string, ms: number): string {
  return (
    `Tool '${name}' did not finish within ${ms} ms: the call was abandoned and the tool was asked to stop, ` +
    'but work it had started may still complete. Check its effects before retrying, or try a smaller request.'
  );
}
