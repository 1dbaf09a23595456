import type { ToolContext } from '../context/tool-context';
import { decisionAttributes } from '../permissions/decision-attributes';
import { PermissionBehavior } from '../permissions/permission-behavior';
import { PermissionContext } from '../permissions/permission-context';
import { PermissionDecision } from '../permissions/permission-decision';
import type { PermissionEngine } from '../permissions/permission-engine';
import type { ActionResult } from '../result';
import type { Tools } from '../tools';
import { isExternalRequest, type ExternalExecutionRequest } from './external-execution';
import type { Tool } from './tool';
import type { ToolSession } from './tool-session';
import { asClause, cutText } from '../text/cut-text';
import { checkMaxConcurrency, limitedAll } from '../pipeline/limited-all';
import { approvalKey, approvalKeys, approvalOf, assertUniqueCallIds, type CallApproval } from './call-approval';

/** One tool call of a model's turn, provider-neutral (the shape of the provider adapters' `ToolCallRequest`). */
export interface BatchCall {
  readonly id: string;
  readonly name: string;
  /** The arguments object, or the JSON text the provider sent. */
  readonly args: unknown;
}

/** Options of {@link runToolCalls}. */
export interface RunToolCallsOptions {
  /**
   * Decides each call. Without one, the tool decides: a call waits when `tool.needsApproval(args)` or its own
   * `checkPermissions` asks, and is denied when that check denies.
   */
  readonly engine?: PermissionEngine | undefined;
  /**
   * The approvals the user gave: the `approval` of each call that waited for one (`waiting[0].approval`). An ASK for a
   * call runs when one of them was made for exactly that call (the same id, tool and validated input, see
   * {@link CallApproval}); a DENY still denies. An approval never covers another call, whatever its id.
   * @throws CoreError `INVALID_OPTION` for an entry that is not a `CallApproval` (an id string, the form this option
   *   took before approvals were bound to the call).
   */
  readonly approved?: Iterable<CallApproval> | undefined;
  readonly context?: ToolContext | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The conversation's session (`ToolSearchSession`): passed to `execute`; a call it refuses runs (and fails) without approval. */
  readonly session?: ToolSession | undefined;
  /**
   * The most calls of one concurrent group (consecutive concurrency-safe calls) that run at once; the others wait
   * and start, in call order, as running ones finish. Results keep call order. A concurrency-unsafe call runs alone
   * whatever the limit. Default: no limit (the whole group at once).
   * @throws CoreError `INVALID_OPTION` when it is not a positive integer.
   */
  readonly maxConcurrency?: number | undefined;
}

/** A call that ran (or was denied, with a failed result), in call order. */
export interface RanCall<R extends ActionResult<unknown>> {
  readonly call: BatchCall;
  readonly result: R;
  /** The engine's decision, when an engine was given. */
  readonly decision?: PermissionDecision;
}

/**
 * A call that did not run: the first one `approval` (ask the user; the decision carries the reason and suggested
 * rules) or `external` (the host executes it: `request`), every later one `queued` (not examined yet).
 */
export type WaitingCall =
  | {
      readonly call: BatchCall;
      readonly reason: 'approval';
      readonly decision?: PermissionDecision;
      /** What the user approves: exactly this call; pass it back in `approved` once the user said yes. */
      readonly approval: CallApproval;
    }
  | { readonly call: BatchCall; readonly reason: 'external'; readonly request: ExternalExecutionRequest }
  | { readonly call: BatchCall; readonly reason: 'queued' };

/** What {@link runToolCalls} returns: what ran, in order, and what waits, in order. */
export interface RunToolCallsOutcome<R extends ActionResult<unknown>> {
  readonly ran: RanCall<R>[];
  readonly waiting: WaitingCall[];
}

type Gate =
  | { kind: 'run'; args: unknown; safe: boolean; decision?: PermissionDecision }
  | { kind: 'denied'; decision: PermissionDecision }
  | { kind: 'approval'; decision?: PermissionDecision; approval: CallApproval }
  | { kind: 'external'; args: unknown };

/**
 * Runs a model's tool calls for a host loop: consecutive
 * concurrency-safe calls run together (at most `maxConcurrency` at once), every other call alone, in order; a denied call gets a failed result and
 * the rest go on; the first call that needs approval or external execution stops the run: it and every later call
 * are returned as waiting. A helper, not an agent loop: after asking the user, call again with the waiting calls
 * and `approved` (the `approval` of each call the user approved); after an external execution, hand its outcome to
 * `tools.completeExternal`.
 *
 * Unknown tools and invalid arguments are not special: they run (alone) and `execute` returns their failed result.
 * Never rejects for an expected failure.
 * @throws PermissionConfigError `RULE_MATCHES_NOTHING` when the engine's rules cannot match the registry's tools (see
 *   `PermissionEngine.checkRules`).
 * @throws CoreError `DUPLICATE_CALL_ID` when two calls share an id (use the providers' parsers, which give every call
 *   its own), `INVALID_OPTION` when `approved` holds something that is not a `CallApproval`.
 */
export async function runToolCalls<R extends ActionResult<unknown>>(tools: Tools<R>, calls: readonly BatchCall[], options: RunToolCallsOptions = {}): Promise<RunToolCallsOutcome<R>> {
  options.engine?.checkRules(tools);
  assertUniqueCallIds(calls, 'runToolCalls');
  const maxConcurrency = checkMaxConcurrency(options.maxConcurrency, 'runToolCalls({ maxConcurrency })');
  const approved = approvalKeys(options.approved, 'runToolCalls({ approved })');
  const ran: RanCall<R>[] = [];
  // Only calls this gate let through reach `execute`, so each is approved there as far as approval goes.
  const execute = (call: BatchCall, args: unknown, decision?: PermissionDecision) =>
    tools.execute(call.name, args, {
      context: options.context,
      signal: options.signal,
      callId: call.id,
      session: options.session,
      approved: true,
      traceAttributes: decision === undefined ? undefined : decisionAttributes(decision, options.engine?.mode),
    });
  const gate = async (call: BatchCall): Promise<Gate> => {
    const tool = tools.get(call.name);
    if (tool === undefined || options.session?.refusal(tool, options.context ?? tools.context) !== undefined) return { kind: 'run', args: call.args, safe: false };
    let args = call.args;
    let decision: PermissionDecision | undefined;
    // The approval is computed (a validation) only for a call that asks.
    let approval: CallApproval | undefined;
    const isApproved = () => approved.has(approvalKey((approval ??= approvalOf(tool, call))));
    if (options.engine !== undefined) {
      decision = await options.engine.check(tool, call.args);
      if (decision.behavior === PermissionBehavior.DENY) return { kind: 'denied', decision };
      if (decision.behavior === PermissionBehavior.ASK && !isApproved()) return { kind: 'approval', decision, approval: approval! };
      args = decision.updatedInput ?? args;
    } else {
      if (tool.needsApproval(call.args) && !isApproved()) return { kind: 'approval', approval: approval! };
      // No engine, but the tool's own verdict still counts: its DENY (a dangerous path, say) is never run, and its
      // ASK (a FunctionTool asks by default) waits for approval like a `requiresApproval` call.
      const own = await ownVerdict(tool, call.args);
      if (own?.behavior === PermissionBehavior.DENY) return { kind: 'denied', decision: own };
      if (own?.behavior === PermissionBehavior.ASK && !isApproved()) return { kind: 'approval', decision: own, approval: approval! };
    }
    if (tool.isExternalTool && tool.parseArgs(args).ok) return { kind: 'external', args };
    return { kind: 'run', args, safe: tool.isConcurrencySafe, decision };
  };
  const record = async (call: BatchCall, g: Gate & { kind: 'run' | 'denied' }): Promise<RanCall<R>> =>
    g.kind === 'denied' ? { call, result: tools.denied(call.name, g.decision.message), decision: g.decision } : withDecision(call, await execute(call, g.args, g.decision), g.decision);

  for (let i = 0; i < calls.length; ) {
    const call = calls[i]!;
    const first = await gate(call);
    if (first.kind === 'approval' || first.kind === 'external') {
      const head = await waitingHead(call, first, execute);
      if (head.kind === 'ran') {
        ran.push(head.ran);
        i++;
        continue;
      }
      return { ran, waiting: [head.waiting, ...calls.slice(i + 1).map((c) => ({ call: c, reason: 'queued' as const }))] };
    }
    if (first.kind === 'denied' || !first.safe) {
      ran.push(await record(call, first));
      i++;
      continue;
    }
    const batch: Array<[BatchCall, Gate & { kind: 'run' | 'denied' }]> = [[call, first]];
    let j = i + 1;
    for (; j < calls.length; j++) {
      const next = await gate(calls[j]!);
      if (next.kind === 'denied' || (next.kind === 'run' && next.safe)) batch.push([calls[j]!, next]);
      else break;
    }
    ran.push(...(await limitedAll(batch, maxConcurrency, ([c, g]) => record(c, g))));
    i = j;
  }
  return { ran, waiting: [] };
}

async function waitingHead<R extends ActionResult<unknown>>(
  call: BatchCall,
  gate: Gate & { kind: 'approval' | 'external' },
  execute: (call: BatchCall, args: unknown) => Promise<R>,
): Promise<{ kind: 'ran'; ran: RanCall<R> } | { kind: 'waiting'; waiting: WaitingCall }> {
  if (gate.kind === 'approval') {
    const { approval } = gate;
    return { kind: 'waiting', waiting: gate.decision ? { call, reason: 'approval', decision: gate.decision, approval } : { call, reason: 'approval', approval } };
  }
  const result = await execute(call, gate.args);
  if (result.ok && isExternalRequest(result.result)) return { kind: 'waiting', waiting: { call, reason: 'external', request: result.result } };
  return { kind: 'ran', ran: { call, result } };
}

/** The tool's own check of a call in the default context (undefined for invalid arguments); a throwing check denies. */
async function ownVerdict(tool: Tool, args: unknown): Promise<PermissionDecision | undefined> {
  const parsed = tool.parseArgs(args);
  if (!parsed.ok) return undefined;
  try {
    return await tool.checkPermissions(parsed.params, new PermissionContext());
  } catch (error) {
    const why = cutText(asClause(error instanceof Error ? error.message : String(error)), 500);
    return PermissionDecision.deny(`The permission check of ${tool.name} failed (${why}), so the call is denied.`, { reason: { type: 'error' } });
  }
}

function withDecision<R extends ActionResult<unknown>>(call: BatchCall, result: R, decision: PermissionDecision | undefined): RanCall<R> {
  return decision === undefined ? { call, result } : { call, result, decision };
}
