import type { ToolMiddleware, NextHandler } from '../pipeline/middleware';
import type { ToolCall } from '../pipeline/tool-call';
import type { ActionResult } from '../result';
import { PermissionBehavior } from './permission-behavior';
import type { PermissionDecision } from './permission-decision';
import type { PermissionEngine } from './permission-engine';

/** Options of {@link PermissionMiddleware}. */
export interface PermissionMiddlewareOptions {
  /**
   * Called for an ASK decision (show `decision.message` and `decision.suggestions` to the user); resolve true to run
   * the call. Without it, every ASK fails the call.
   */
  readonly ask?: (call: ToolCall, decision: PermissionDecision) => boolean | Promise<boolean>;
}

/**
 * A registry middleware that puts the {@link PermissionEngine} inside `tools.execute` (the call slot, seed 004:
 * agent-level permission checks), for hosts that do not batch with `runToolCalls`: ALLOW runs the call (with the
 * updated input when a check rewrote it, validated again); DENY fails it with the decision's message; ASK asks
 * through `options.ask`, and fails the call when the answer is no or there is no one to ask. Failures are results
 * for the model, never exceptions.
 */
export class PermissionMiddleware implements ToolMiddleware {
  constructor(
    readonly engine: PermissionEngine,
    private readonly options: PermissionMiddlewareOptions = {},
  ) {}

  async handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>> {
    const decision = await this.engine.check(call.tool, call.params);
    if (decision.behavior === PermissionBehavior.DENY) {
      return call.resultType.fail(`Permission denied for tool '${call.name}': ${decision.message} Do not retry it unchanged; take another approach or ask the user.`);
    }
    if (decision.behavior === PermissionBehavior.ASK) {
      const approved = this.options.ask !== undefined && (await this.options.ask(call, decision));
      if (!approved) return call.resultType.fail(`Tool '${call.name}' needs the user's approval, which was not given (${decision.message}). Do not retry it unchanged; ask the user or take another approach.`);
    }
    if (decision.updatedInput === undefined) return next(call);
    const parsed = call.tool.parseArgs(decision.updatedInput);
    if (!parsed.ok) return call.resultType.fail(parsed.error);
    return next(call.with({ params: parsed.params }));
  }
}
