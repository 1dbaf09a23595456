import type { ToolMiddleware, NextHandler } from '../pipeline/middleware';
import { declinedMessage, deniedMessage, unapprovedMessage } from '../pipeline/outcomes';
import type { ToolCall } from '../pipeline/tool-call';
import type { ActionResult } from '../result';
import { decisionAttributes } from './decision-attributes';
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
 * A registry middleware that puts the {@link PermissionEngine} inside `tools.execute` (the call slot), for hosts
 * that do not batch with `runToolCalls`: ALLOW runs the call (with the updated input when a check rewrote it,
 * validated again); DENY fails it as a permission denial with the decision's message; ASK asks through
 * `options.ask` and fails the call as the user's refusal when the answer is no, or as unapproved when there is no
 * one to ask. Failures are results for the model, never exceptions. A call it lets through is approved for the
 * registry (`call.with({ approved: true })`): the engine's ALLOW (a rule, the mode) or the user's yes is the approval a
 * `@RequiresApproval` tool needs, so `tools.execute` runs it without `ExecuteOptions.approved`. With the registry's
 * telemetry, the decision is recorded on the call's trace (`agenttoolkit.permission.*`, docs/observability.md).
 */
export class PermissionMiddleware implements ToolMiddleware {
  constructor(
    readonly engine: PermissionEngine,
    private readonly options: PermissionMiddlewareOptions = {},
  ) {}

  /** Asks the engine about the call; runs `next(call)` only when it is allowed (or approved), else fails the call. */
  async handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>> {
    const decision = await this.engine.check(call.tool, call.params);
    call.trace?.annotate(decisionAttributes(decision, this.engine.mode));
    if (decision.behavior === PermissionBehavior.DENY) return call.resultType.fail(deniedMessage(call.name, decision.message));
    if (decision.behavior === PermissionBehavior.ASK) {
      if (this.options.ask === undefined) return call.resultType.fail(unapprovedMessage(call.name, decision.message));
      if ((await this.options.ask(call, decision)) !== true) return call.resultType.fail(declinedMessage(call.name));
    }
    if (decision.updatedInput === undefined) return next(call.with({ approved: true }));
    const parsed = call.tool.parseArgs(decision.updatedInput);
    if (!parsed.ok) return call.resultType.fail(parsed.error);
    return next(call.with({ params: parsed.params, approved: true }));
  }
}
