import { checkMaxConcurrency, limitedAll } from '../pipeline/limited-all';
import type { ActionResult } from '../result';
import { deepFreeze } from '../schema/deep-freeze';
import { isPlainObject, plainCopy } from '../schema/plain-copy';
import type { Tool } from '../tool/tool';
import type { ExecuteOptions, Tools } from '../tools';
import type { ToolCallRequest } from './tool-call-request';

/**
 * Options of {@link executeToolCall}: those of `tools.execute` plus the approval step. `approved` is not one of them:
 * here `approve` is asked for each call that needs it, and only its yes approves the call.
 */
export interface ToolCallOptions extends Omit<ExecuteOptions, 'approved'> {
  /**
   * Asked for each call that needs confirmation (`tool.needsApproval(args)`, which sees the params after null
   * stripping, validation and defaults). False, a rejection or a throw declines the call. Without it, such calls are
   * declined: nothing that needs approval runs unconfirmed.
   */
  approve?: ((tool: Tool, call: ToolCallRequest) => boolean | Promise<boolean>) | undefined;
}

/** Options of {@link executeToolCalls}: those of {@link executeToolCall} for each call, plus the batch's limit. */
export interface ToolCallsOptions extends ToolCallOptions {
  /**
   * The most calls of one concurrent group (consecutive calls of concurrency-safe tools) that run at once; the others
   * wait and start, in call order, as running ones finish. Results keep call order. Any other call runs alone
   * whatever the limit. Default: no limit (the whole group at once).
   * @throws CoreError `INVALID_OPTION` when it is not a positive integer.
   */
  maxConcurrency?: number | undefined;
}

/** A call paired with its result, ready for a provider's result builder. */
export interface ToolCallOutcome<R extends ActionResult<unknown>> {
  readonly call: ToolCallRequest;
  readonly result: R;
}

/**
 * Runs one model call: asks for approval when the tool is available in the call's context and needs it for these
 * arguments, then `tools.execute`. Never rejects: a call the approval step refuses is `tools.declined(name)`, one
 * that needs approval with no approval step is `tools.unapproved(name)`, and every other failure a failed result
 * from `execute`, so each call gets a result to
 * send back (Anthropic rejects a request whose `tool_use` has no `tool_result`).
 */
export async function executeToolCall<R extends ActionResult<unknown>>(tools: Tools<R>, call: ToolCallRequest, options: ToolCallOptions = {}): Promise<R> {
  const tool = tools.get(call.name);
  // One snapshot for the approval check and the run: arguments whose getters answer differently on each read, or that
  // the approval step changes, cannot get one call approved and another one run.
  const args = snapshot(call.args);
  let needsApproval: boolean;
  try {
    const context = options.context ?? tools.context;
    // A call the conversation's session refuses (a deferred tool not found yet) fails in `execute`: nothing to approve.
    needsApproval = tool !== undefined && tool.isAvailable(context) && options.session?.refusal(tool, context) === undefined && tool.needsApproval(args);
  } catch {
    needsApproval = tool !== undefined; // an availability check that throws cannot vouch for the call: fail closed
  }
  const { approve, ...rest } = options;
  // A caller's own `approved` (from JavaScript, past the type) approves nothing here: only `approve`'s yes does.
  const execution: ExecuteOptions = { ...rest, approved: undefined };
  if (tool !== undefined && needsApproval) {
    if (approve === undefined) return tools.unapproved(call.name);
    let approved = false;
    try {
      approved = (await approve(tool, call)) === true;
    } catch {
      approved = false;
    }
    if (!approved) return tools.declined(call.name);
    return tools.execute(call.name, args, { ...execution, approved: true });
  }
  return tools.execute(call.name, args, execution);
}

/** A frozen deep copy of object arguments (JSON text is immutable already); unreadable ones are left for `execute` to fail. */
function snapshot(args: unknown): unknown {
  if (!isPlainObject(args)) return args;
  try {
    return deepFreeze(plainCopy(args));
  } catch {
    return args;
  }
}

/**
 * Runs every call of one model turn (see {@link executeToolCall}); results come back in call order. Consecutive
 * calls of concurrency-safe tools (`tool.isConcurrencySafe`) run together, at most `options.maxConcurrency` at once;
 * any other call runs alone, after
 * the calls before it finished, so two writes never overlap. For a loop that stops at approvals instead of asking
 * inline, and that consults a `PermissionEngine`, use `runToolCalls`.
 *
 * @example
 * ```ts
 * const outcomes = await executeToolCalls(tools, anthropicToolUses(message), { approve: (tool, call) => confirm(tool.name) });
 * messages.push({ role: 'assistant', content: message.content }, anthropicToolResultMessage(outcomes));
 * ```
 */
export async function executeToolCalls<R extends ActionResult<unknown>>(tools: Tools<R>, calls: readonly ToolCallRequest[], options: ToolCallsOptions = {}): Promise<Array<ToolCallOutcome<R>>> {
  const { maxConcurrency: limit, ...each } = options;
  const maxConcurrency = checkMaxConcurrency(limit, 'executeToolCalls({ maxConcurrency })');
  const outcomes: Array<ToolCallOutcome<R>> = [];
  const run = (call: ToolCallRequest) => executeToolCall(tools, call, each).then((result) => ({ call, result }));
  let batch: ToolCallRequest[] = [];
  const flush = async () => {
    outcomes.push(...(await limitedAll(batch, maxConcurrency, run)));
    batch = [];
  };
  for (const call of calls) {
    if (tools.get(call.name)?.isConcurrencySafe === true) {
      batch.push(call);
      continue;
    }
    await flush();
    outcomes.push(await run(call));
  }
  await flush();
  return outcomes;
}
