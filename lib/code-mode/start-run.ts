import type { ToolContext } from '../context/tool-context';
import type { PermissionEngine } from '../permissions/permission-engine';
import type { ToolCallRequest } from '../providers/tool-call-request';
import { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { Tools } from '../tools';
import type { LedgerCodec, LedgerPayload, LedgerRefusal } from './ledger';
import type { ResolvedLimits } from './limits';
import { nestedCall, type NestedApprove } from './nested-call';
import { resultOf } from './program-result';
import { programNames } from './program-names';
import { resumeDecisions, type CodeModeCallAnswer, type ResumeDecision } from './resume-answers';
import { RunRecord } from './run-record';
import { runProgram, type CallAnswer } from './run-program';

/**
 * The host's answer to a nested call's approval: true runs it; false declines it; `'later'` says the answer comes in a
 * later request: the run pauses (see `CodeMode.start`) instead of waiting.
 */
export type CodeModeApproval = boolean | 'later';

/** The approval step of nested calls: see `CodeModeOptions.approve`. */
export type Approve = (tool: Tool, call: ToolCallRequest) => CodeModeApproval | Promise<CodeModeApproval>;

/**
 * How a run made with `CodeMode.start` ended: `finished` with the tool's result, or `pending-approval`: nested calls
 * wait for approvals the host answers later. `calls` are those calls (ids `<tool name>-<run>-<n>`, `n` their place in
 * the program's call order), `ledger` the signed record to resume with (`start(code, { resume: { ledger, approved } })`),
 * and `result` a failed result to hand the model when the host does not resume.
 */
export type CodeModeOutcome =
  | { readonly status: 'finished'; readonly result: ActionResult<unknown> }
  | { readonly status: 'pending-approval'; readonly calls: readonly ToolCallRequest[]; readonly ledger: string; readonly result: ActionResult<unknown> };

/**
 * Resuming a paused run: its ledger and the host's answers to the calls that wait. `approved` is one answer for all of
 * them (true approves them all, false declines them all), or one answer per waiting call keyed by its id as `start`
 * reported it (`calls[i].id`), each a {@link CodeModeCallAnswer}: every waiting call needs one, and no other key is
 * taken. A malformed `approved` fails the run with a text that says what to pass; nothing runs then and the ledger
 * stays unused, so the host can resume with it again.
 */
export interface CodeModeResume {
  readonly ledger: string;
  readonly approved: boolean | Readonly<Record<string, CodeModeCallAnswer>>;
}

/**
 * One nested call of a program, as `CodeMode.run`'s `onCall` and the `run_code` tool's streamed chunks report it:
 * the tool's registered name, the call's id (`<tool name>-<run>-<n>`), and `running` when it starts, then `ok` or
 * `failed` when it ends (`failed` covers invalid arguments, denials, declined approvals and the tool's own failure).
 */
export interface CodeModeCallEvent {
  readonly tool: string;
  readonly callId: string;
  readonly status: 'running' | 'ok' | 'failed';
}

/** Options of `CodeMode.run`. */
export interface CodeModeRunOptions {
  /** The context of the nested calls (default: the registry's). */
  readonly context?: ToolContext | undefined;
  /** Ends the program and aborts its in-flight nested calls. */
  readonly signal?: AbortSignal | undefined;
  /** Told when each nested call starts and ends (not for calls answered from a ledger); a listener that throws is ignored. */
  readonly onCall?: ((event: CodeModeCallEvent) => void) | undefined;
  /** `start` only: resume a paused run (the same program, its ledger and the answer). See docs/code-mode.md. */
  readonly resume?: CodeModeResume | undefined;
}

/** @internal What a run needs of its `CodeMode`. */
export interface RunSetup {
  readonly tools: Tools<ActionResult<unknown>>;
  /** The code-mode tool's name, which ledgers are bound to. */
  readonly name: string;
  readonly limits: ResolvedLimits;
  /** Resolved path of quickjs-emscripten's CommonJS entry. */
  readonly quickjs: string;
  readonly warmInterpreters: number;
  /** How long a warm interpreter waits for a run, in milliseconds (`CodeModeOptions.idleTimeoutMs`). */
  readonly idleTimeoutMs: number;
  readonly approve: Approve | undefined;
  readonly permissions: PermissionEngine | undefined;
  readonly ledgers: LedgerCodec;
  readonly ledgerTtlMs: number;
  /** The tools a program may call in a context, in registration order. */
  readonly exposed: (context: ToolContext) => Tool[];
}

/**
 * @internal One run of `CodeMode.start` (number `run` of its `CodeMode`, in call ids): replays the ledger of
 * `options.resume` when there is one, pauses at a late approval with a new ledger. Never rejects.
 */
export async function startRun(setup: RunSetup, run: number, code: string, options: CodeModeRunOptions): Promise<CodeModeOutcome> {
  const context = options.context ?? setup.tools.context;
  const exposed = setup.exposed(context);
  const keys = programNames(exposed.map((tool) => tool.name));
  let recorded: LedgerPayload['calls'] | undefined;
  let decisions = new Map<number, ResumeDecision>();
  if (options.resume !== undefined) {
    const opened = await resumed(setup, code, options.resume);
    if (typeof opened === 'string') return { status: 'finished', result: ActionResult.fail(opened) };
    ({ recorded, decisions } = opened);
  }
  const record = new RunRecord(recorded);
  const paused = new AbortController();
  const signal = options.signal === undefined ? paused.signal : AbortSignal.any([options.signal, paused.signal]);
  const pending: ToolCallRequest[] = [];
  let calls = 0;
  let stoppedToPause = false;
  const pauseIfReady = () => {
    if (!record.readyToPause || options.signal?.aborted === true) return;
    stoppedToPause = true;
    paused.abort();
  };
  const outcome = await runProgram({
    code,
    tools: exposed.map((tool) => [keys.get(tool.name)!, tool.name] as const),
    limits: setup.limits,
    quickjs: setup.quickjs,
    warm: setup.warmInterpreters,
    idleMs: setup.idleTimeoutMs,
    signal,
    call: (name, args, inFlight) => {
      calls += 1;
      const index = calls;
      const plan = record.plan(index, name, args);
      if (plan.kind === 'recorded') return Promise.resolve(plan.answer);
      if (plan.kind === 'held') return new Promise<CallAnswer>(() => undefined);
      if (plan.kind === 'diverged') {
        paused.abort();
        return new Promise<CallAnswer>(() => undefined);
      }
      // A waiting call keeps the id the host answered it under.
      const callId = (plan.kind === 'answered' ? plan.id : undefined) ?? `${name}-${run}-${index}`;
      const decision = plan.kind === 'answered' ? decisions.get(index) : undefined;
      if (decision?.approved === false) return Promise.resolve(declined(setup, record, index, { tool: name, callId }, decision.reason, options.onCall, pauseIfReady));
      const hostApprove = setup.approve;
      const approve: NestedApprove | undefined =
        plan.kind === 'answered'
          ? () => true
          : hostApprove === undefined
            ? undefined
            : async (tool, call) => {
                const answer = await hostApprove(tool, call);
                if (answer !== 'later') return answer;
                record.pend(index, call.id);
                pending.push(call);
                return false;
              };
      tell(options.onCall, { tool: name, callId, status: 'running' });
      const nested = { tools: setup.tools, permissions: setup.permissions, call: { id: callId, name, args }, exposed, context, signal: inFlight, approve };
      return nestedCall(nested).then((answer) => {
        // The run ended (a limit, a cancel, the pause itself): what comes back now is not part of its record.
        if (inFlight.aborted) return answer;
        if (record.isPending(index)) {
          pauseIfReady();
          return new Promise<CallAnswer>(() => undefined);
        }
        record.settle(index, answer);
        tell(options.onCall, { tool: name, callId, status: answer.ok ? 'ok' : 'failed' });
        pauseIfReady();
        return answer;
      });
    },
  });
  if (record.diverged !== undefined) return { status: 'finished', result: ActionResult.fail(divergence(record.diverged.index, record.diverged.name)) };
  if (record.pausing) {
    const waiting = `The program was stopped: ${pending.map((call) => `tools.${call.name}`).join(', ')} waits for an approval that was not given yet, so it did not run.`;
    // A ledger only for a run stopped with every call before the pause settled (or one that ended by itself then).
    if (!(stoppedToPause || (outcome.ok && record.readyToPause))) return { status: 'finished', result: outcome.ok ? ActionResult.fail(waiting) : resultOf(outcome, setup.limits) };
    const ledger = setup.ledgers.sign(setup.ledgers.payload(code, setup.name, record.entries(), setup.ledgerTtlMs));
    return { status: 'pending-approval', calls: pending, ledger, result: ActionResult.fail(waiting) };
  }
  if (outcome.ok && calls < record.recorded) return { status: 'finished', result: ActionResult.fail(divergence(calls + 1, undefined)) };
  return { status: 'finished', result: resultOf(outcome, setup.limits) };
}

/**
 * The ledger of `resume` opened for `code` and the decision for each call it waits for; else the text of the failure
 * (nothing runs then). The ledger is used up only once the answers are well formed.
 */
async function resumed(setup: RunSetup, code: string, resume: CodeModeResume): Promise<{ recorded: LedgerPayload['calls']; decisions: Map<number, ResumeDecision> } | string> {
  const opened = setup.ledgers.verify(resume.ledger, code, setup.name);
  if (typeof opened === 'string') return LEDGER_REFUSED[opened];
  const waiting = opened.calls.flatMap((entry, at) => (entry.answer === undefined ? [{ index: at + 1, id: String(entry.id), name: entry.name }] : []));
  const decisions = resumeDecisions(resume.approved, waiting);
  if (typeof decisions === 'string') return `The program was not resumed: ${decisions} Nothing ran, and this attempt did not use the ledger up: resume with it again.`;
  if (!(await setup.ledgers.claim(opened))) return LEDGER_REFUSED.replayed;
  return { recorded: opened.calls, decisions };
}

/** A waiting call the host declined on resume: it does not run; the program sees the declined text, with the reason. */
function declined(setup: RunSetup, record: RunRecord, index: number, event: Omit<CodeModeCallEvent, 'status'>, reason: string | undefined, onCall: CodeModeRunOptions['onCall'], pauseIfReady: () => void): CallAnswer {
  tell(onCall, { ...event, status: 'running' });
  const answer: CallAnswer = { ok: false, error: String(setup.tools.declined(event.tool, reason).error) };
  record.settle(index, answer);
  tell(onCall, { ...event, status: 'failed' });
  pauseIfReady();
  return answer;
}

const LEDGER_REFUSED: Record<LedgerRefusal, string> = {
  invalid: 'The program was not resumed: its ledger is not one this host signed (changed, cut or forged). Nothing ran.',
  expired: 'The program was not resumed: its ledger has expired. Nothing ran; run the program again.',
  foreign: 'The program was not resumed: its ledger was made for another program. Nothing ran.',
  replayed: 'The program was not resumed: its ledger was used already. Nothing ran.',
};

function divergence(index: number, name: string | undefined): string {
  const what = name === undefined ? 'it ended before making it' : `it called tools.${name} there, with other arguments or instead of the recorded tool`;
  return `The program was stopped: it did not repeat its recorded tool calls (call ${index}: ${what}), so it cannot be resumed from its ledger. The calls from there on did not run.`;
}

function tell(listener: CodeModeRunOptions['onCall'], event: CodeModeCallEvent): void {
  try {
    listener?.(event);
  } catch {
    // A listener's failure is the host's; the program goes on.
  }
}
