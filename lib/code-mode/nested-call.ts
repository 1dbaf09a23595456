import type { ToolContext } from '../context/tool-context';
import { PermissionBehavior } from '../permissions/permission-behavior';
import type { PermissionEngine } from '../permissions/permission-engine';
import { executeToolCall } from '../providers/execute-tool-calls';
import type { ToolCallRequest } from '../providers/tool-call-request';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { Tools } from '../tools';
import type { CallAnswer } from './run-program';

/** The approval step of one nested call: true runs it; anything else declines it. */
export type NestedApprove = (tool: Tool, call: ToolCallRequest) => unknown;

/** One nested call of a program: the call as the program made it (its arguments JSON text) and where it runs. */
export interface NestedCall {
  readonly tools: Tools<ActionResult<unknown>>;
  /** See `CodeModeOptions.permissions`. */
  readonly permissions: PermissionEngine | undefined;
  readonly call: { readonly id: string; readonly name: string; readonly args: string };
  readonly exposed: readonly Tool[];
  readonly context: ToolContext;
  readonly signal: AbortSignal;
  readonly approve: NestedApprove | undefined;
}

/**
 * Runs one nested call through the registry's pipeline (`executeToolCall`, or the `permissions` engine first), and
 * gives the answer the program receives: the result as JSON text, or the failure's text. Never rejects.
 */
export async function nestedCall({ tools, permissions, call, exposed, context, signal, approve }: NestedCall): Promise<CallAnswer> {
  if (!exposed.some((tool) => tool.name === call.name)) return { ok: false, error: `The tool '${call.name}' is not available to this program.` };
  let args: unknown;
  try {
    args = JSON.parse(call.args);
  } catch {
    return { ok: false, error: `The arguments of tools.${call.name} are not JSON.` };
  }
  const request = { id: call.id, name: call.name, args };
  const yes = approve === undefined ? undefined : async (tool: Tool, asked: ToolCallRequest) => (await approve(tool, asked)) === true;
  const result = permissions === undefined ? await executeToolCall(tools, request, { context, signal, approve: yes }) : await checked(tools, request, permissions, context, signal, yes);
  if (!result.ok) return { ok: false, error: String(result.error) };
  try {
    return { ok: true, value: JSON.stringify(result.result) ?? 'null' };
  } catch (error) {
    return { ok: false, error: `The result of tools.${call.name} cannot be passed to the program as JSON: ${(error as Error).message}` };
  }
}

/** A nested call decided by `engine` first (see `CodeModeOptions.permissions`). */
async function checked(tools: Tools<ActionResult<unknown>>, call: ToolCallRequest, engine: PermissionEngine, context: ToolContext, signal: AbortSignal, approve: ((tool: Tool, call: ToolCallRequest) => Promise<boolean>) | undefined): Promise<ActionResult<unknown>> {
  const tool = tools.get(call.name)!;
  const parsed = tool.parseArgs(call.args);
  if (!parsed.ok) return tools.execute(call.name, call.args, { context, signal, callId: call.id });
  const decision = await engine.check(tool, parsed.params);
  if (decision.behavior === PermissionBehavior.DENY) return tools.denied(call.name, decision.message);
  if (decision.behavior === PermissionBehavior.ASK) {
    if (approve === undefined) return tools.unapproved(call.name, decision.message);
    let yes = false;
    try {
      yes = await approve(tool, call);
    } catch {
      yes = false;
    }
    if (!yes) return tools.declined(call.name);
  }
  return tools.execute(call.name, decision.updatedInput ?? parsed.params, { context, signal, callId: call.id, approved: true });
}
