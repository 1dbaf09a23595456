import type { ActionResult } from '../result';
import { linkedController } from './await-call';
import type { NextHandler, ToolMiddleware } from './middleware';
import type { ToolCall } from './tool-call';

/**
 * Fails a call that has not finished after `ms` milliseconds with a result telling the model so, and aborts the
 * `AbortSignal` the tool received (inject it with `@Inject(AbortSignal)`) so that the tool can stop its work.
 * The failed result is built with the registry's result type (`call.resultType`).
 *
 * @param ms - the time limit per call, in milliseconds (positive).
 * @throws RangeError when `ms` is not a positive finite number.
 */
export class TimeoutMiddleware implements ToolMiddleware {
  constructor(readonly ms: number) {
    if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`TimeoutMiddleware needs a positive number of milliseconds, got ${ms}.`);
  }

  async handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>> {
    const { controller, unlink } = linkedController(call.signal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.ms);
    });
    try {
      const outcome = await Promise.race([next(call.with({ signal: controller.signal })), timedOut]);
      if (outcome !== 'timeout') return outcome;
      controller.abort(new Error(`timed out after ${this.ms} ms`));
      return call.resultType.fail(`Tool '${call.name}' timed out after ${this.ms} ms and was stopped. Try again with a smaller request.`);
    } finally {
      clearTimeout(timer);
      unlink();
    }
  }
}

