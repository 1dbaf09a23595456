import type { NextHandler, ToolMiddleware } from '../pipeline/middleware';
import { declinedMessage, unapprovedMessage } from '../pipeline/outcomes';
import type { ToolCall } from '../pipeline/tool-call';
import type { ActionResult } from '../result';
import type { AgentToolkitModuleOptions } from './options';

/**
 * The registry's outermost middleware in the module: a call that needs approval runs only when `approve` says yes;
 * no `approve` fails it as unapproved, a "no" as declined (results for the model). A call the caller approved already
 * (`ExecuteOptions.approved`) is not asked again. A yes approves the call for the
 * registry (`call.with({ approved: true })`), whose last step refuses an approval-gated call nobody approved.
 */
export function approvalStep(approve: AgentToolkitModuleOptions['approve']): ToolMiddleware {
  return {
    async handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>> {
      if (call.approved === true || !call.tool.needsApproval(call.params)) return next(call);
      if (approve === undefined) return call.resultType.fail(unapprovedMessage(call.name));
      return (await approve(call)) === true ? next(call.with({ approved: true })) : call.resultType.fail(declinedMessage(call.name));
    },
  };
}
