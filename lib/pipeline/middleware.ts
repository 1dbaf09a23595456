import type { ActionResult } from '../result';
import type { ToolCall } from './tool-call';

/** Passes a call to the rest of the pipeline and resolves to its result. */
export type NextHandler = (call: ToolCall) => Promise<ActionResult<unknown>>;

/**
 * A step of the registry-wide pipeline. Custom middleware runs after the fixed core (error
 * boundary, resolution, validation), so `call.tool` and `call.params` are set, and before call logging and the tool
 * itself; the first in the list is the outermost. A middleware may change the call (`call.with(...)`), return its own
 * result instead of calling `next`, or map the result. Whatever it throws is caught by the error boundary.
 */
export interface ToolMiddleware {
  /** Runs the step: `next(call)` continues the pipeline; the result is the call's (or this step's own). */
  handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>>;
}

/** Composes `middleware` around `last`: `middleware[0]` is the outermost. */
export function compose(middleware: readonly ToolMiddleware[], last: NextHandler): NextHandler {
  let next = last;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const step = middleware[i]!;
    const inner = next;
    next = (call) => step.handle(call, inner);
  }
  return next;
}
