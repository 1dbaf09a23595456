import type { DescriptionSource } from '../context/context-description';
import type { ToolContext } from '../context/tool-context';
import { CoreError } from '../errors';
import { PermissionBehavior } from '../permissions/permission-behavior';
import { PermissionDecision } from '../permissions/permission-decision';
import type { PermissionEngine } from '../permissions/permission-engine';
import { executeToolCall } from '../providers/execute-tool-calls';
import type { ToolCallRequest } from '../providers/tool-call-request';
import { ActionResult } from '../result';
import type { ObjectSchema } from '../schema/schema-types';
import { FunctionTool } from '../tool/function-tool';
import type { Invocation } from '../tool/invocation';
import type { Tool } from '../tool/tool';
import { ToolChunk, ToolResultState } from '../streaming/tool-chunk';
import type { Tools } from '../tools';
import { renderDeclarations } from './declarations';
import { poolFor } from './interpreter-pool';
import { resolveIdleTimeout, resolveLimits, resolveWarm, type CodeModeLimits, type ResolvedLimits } from './limits';
import { LedgerCodec, type CodeModeUsedLedgers, type LedgerPayload, type LedgerRefusal } from './ledger';
import { programNames } from './program-names';
import { RunRecord } from './run-record';
import { runProgram, type CallAnswer, type ProgramOutcome } from './run-program';

/**
 * The host's answer to a nested call's approval: true runs it; false declines it; `'later'` says the answer comes in a
 * later request: the run pauses (see `CodeMode.start`) instead of waiting.
 */
export type CodeModeApproval = boolean | 'later';

/** The approval step of nested calls: see `CodeModeOptions.approve`. */
type Approve = (tool: Tool, call: ToolCallRequest) => CodeModeApproval | Promise<CodeModeApproval>;

/** Options of `new CodeMode(tools, options)`. */
export interface CodeModeOptions {
  /**
   * The tools a program may call: a list of registered names, or a predicate. Default: every tool the registry lists
   * for the call's context. Either way only tools available in the call's context are exposed, and never a code-mode
   * tool (a program cannot start another program) or an external tool (its calls go to the host, not to a body).
   */
  readonly expose?: readonly string[] | ((tool: Tool) => boolean) | undefined;
  /** The program's limits; see {@link CodeModeLimits} and `DEFAULT_LIMITS` for the defaults. */
  readonly limits?: CodeModeLimits | undefined;
  /**
   * Asked for each nested call that needs approval (`tool.needsApproval(params)`), with the tool and the call (its id
   * is `<tool name>-<run>-<n>`), the shape of `executeToolCalls`' `approve`. True runs the call; false, a rejection or
   * a throw declines it and the program sees a rejected promise with the denial text. Without it such calls are
   * unapproved (nothing runs), unless a registry middleware (a `PermissionMiddleware` with `ask`) approves them.
   * `'later'` (the answer comes in a later request) pauses a run made with `CodeMode.start`, which returns a signed
   * ledger to resume it with; in a `run_code` call or `CodeMode.run` it fails the run (nothing of that call ran).
   */
  readonly approve?: ((tool: Tool, call: ToolCallRequest) => CodeModeApproval | Promise<CodeModeApproval>) | undefined;
  /**
   * A permission engine asked about each nested call, for hosts whose engine is not a registry middleware (one they
   * pass to `serveTools` or `runToolCalls`, which see only the `run_code` call itself). DENY fails the call with the
   * decision's message; ASK asks `approve` (declined, or no `approve`: the call fails and nothing runs); ALLOW runs it
   * as approved (a rule or the mode is the approval a `@RequiresApproval` tool needs), with the check's rewritten input
   * when there is one. Default: none (a `PermissionMiddleware` of the registry still checks every nested call).
   */
  readonly permissions?: PermissionEngine | undefined;
  /** The tool's name (default `run_code`). */
  readonly name?: string | undefined;
  /**
   * How many interpreters to keep started ahead of runs (default 1; 0 starts one per run): each a worker thread with a
   * fresh QuickJS module on its own capped memory, made ready before a run takes it, used by that run only and then
   * terminated; taking one starts its replacement in the background. Shared by the `CodeMode`s of the process with the
   * same memory limit (the largest count asked for wins); waiting ones never keep the process alive.
   */
  readonly warmInterpreters?: number | undefined;
  /**
   * How long a warm interpreter waits for a run before it is terminated, in milliseconds (default 60,000): each holds
   * a thread and about 16 MiB. The run after that starts an interpreter of its own (a cold start) and the pool fills
   * again after it. Shared like `warmInterpreters` (the largest value asked for wins).
   */
  readonly idleTimeoutMs?: number | undefined;
  /**
   * The HMAC-SHA-256 key (at least 32 bytes; a string is UTF-8 encoded) that signs the ledgers of paused runs. Every
   * process that may resume a run needs the same key. Default: a random key of this process.
   */
  readonly ledgerKey?: Uint8Array | string | undefined;
  /** How long a paused run may be resumed, in seconds (default 600). */
  readonly ledgerTtlSeconds?: number | undefined;
  /** Where resumed ledgers are remembered, so each resumes once (default: this process's memory). */
  readonly usedLedgers?: CodeModeUsedLedgers | undefined;
}

/**
 * How a run made with `CodeMode.start` ended: `finished` with the tool's result, or `pending-approval`: nested calls
 * wait for approvals the host answers later. `calls` are those calls (ids `<tool name>-<run>-<n>`, `n` their place in
 * the program's call order), `ledger` the signed record to resume with (`start(code, { resume: { ledger, approved } })`),
 * and `result` a failed result to hand the model when the host does not resume.
 */
export type CodeModeOutcome =
  | { readonly status: 'finished'; readonly result: ActionResult<unknown> }
  | { readonly status: 'pending-approval'; readonly calls: readonly ToolCallRequest[]; readonly ledger: string; readonly result: ActionResult<unknown> };

/** Resuming a paused run: its ledger and the host's answer to the calls that waited (true approves them all). */
export interface CodeModeResume {
  readonly ledger: string;
  readonly approved: boolean;
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

/**
 * The metadata key of the content-less chunks `run_code` streams for its nested calls (`chunk.metadata[CODE_MODE_CALL]`
 * is a {@link CodeModeCallEvent}). The same chunks carry an `mcpProgress` entry (agenttoolkit/mcp's `MCP_PROGRESS`),
 * so `serveTools` sends each as `notifications/progress` with a status line such as `add: ok`.
 */
export const CODE_MODE_CALL = 'codeModeCall';

/** Characters of declarations embedded in the tool's description; past it the description lists the tools' names. */
export const MAX_DECLARATION_CHARS = 12_000;

/** Every tool a {@link CodeMode} made: never exposed to a program, so a program cannot start another one. */
const CODE_MODE_TOOLS = new WeakSet<Tool>();

const PARAMS = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    code: Object.freeze({ type: 'string', description: 'The body of an async JavaScript function: use await, call tools.<name>(args), console.log what you need and return the answer.' }),
  }),
  required: Object.freeze(['code']),
  additionalProperties: false,
}) as unknown as ObjectSchema;

/**
 * Code mode: the model writes one JavaScript program against the registry's tools, as a typed `tools` object, instead
 * of calling them one per turn; only what the program prints and returns goes back to the model.
 *
 * The program runs in a fresh QuickJS interpreter (quickjs-emscripten, WebAssembly) in a worker thread of its own, with
 * no host access besides `tools` and `console`; its time, memory, tool calls and output are limited. Each
 * `tools.<name>(args)` is a real call through the registry (`executeToolCall`): validation, middleware (a
 * `PermissionMiddleware`'s mode, rules and asks), approval through `options.approve`, output budgets, with the outer
 * call's context and signal. A failed nested call rejects the program's promise with the failure's text; the program
 * can catch it and go on. See docs/code-mode.md.
 *
 * @example
 * ```ts
 * const codeMode = new CodeMode(tools, { limits: { maxToolCalls: 20 } });
 * tools.register(codeMode.tool());
 * ```
 * @throws CoreError `INVALID_OPTION` for a malformed option (a limit that is not a positive integer, a name in
 *   `expose` that is not registered, a bad `name`); `MISSING_PEER` when quickjs-emscripten is not installed.
 */
export class CodeMode {
  /** The limits in force, defaults filled in. */
  readonly limits: ResolvedLimits;
  private readonly quickjs: string;
  private readonly expose: (tool: Tool) => boolean;
  private readonly approve: Approve | undefined;
  private readonly ledgers: LedgerCodec;
  private readonly ledgerTtlMs: number;
  private readonly permissions: PermissionEngine | undefined;
  private readonly name: string;
  private readonly warmInterpreters: number;
  private readonly idleTimeoutMs: number;
  private made: Tool | undefined;
  private runs = 0;

  constructor(
    private readonly tools: Tools<ActionResult<unknown>>,
    options: CodeModeOptions = {},
  ) {
    this.limits = resolveLimits(options.limits);
    this.approve = options.approve;
    const ttl = options.ledgerTtlSeconds ?? 600;
    if (typeof ttl !== 'number' || !(ttl > 0) || !Number.isFinite(ttl)) throw new CoreError('INVALID_OPTION', `CodeMode ledgerTtlSeconds must be a positive number of seconds, got ${String(ttl)}.`);
    this.ledgerTtlMs = ttl * 1000;
    this.ledgers = new LedgerCodec(options.ledgerKey, options.usedLedgers);
    this.permissions = options.permissions;
    this.name = options.name ?? 'run_code';
    this.expose = exposure(tools, options.expose);
    this.quickjs = resolveQuickJs();
    this.warmInterpreters = resolveWarm(options.warmInterpreters);
    this.idleTimeoutMs = resolveIdleTimeout(options.idleTimeoutMs);
  }

  /**
   * Starts the interpreters of `warmInterpreters` now and resolves once they are ready, so that the first run is warm
   * too (without it the pool fills after the first run). Never rejects: an interpreter that fails to start is dropped.
   */
  async warm(): Promise<void> {
    await poolFor(this.quickjs, this.limits)
      .warm(this.warmInterpreters, this.idleTimeoutMs)
      .catch(() => undefined);
  }

  /**
   * The `run_code` tool (one instance per `CodeMode`): input `{ code: string }`, the program's body. Its description
   * holds the declarations for the listing's context (up to {@link MAX_DECLARATION_CHARS}). Its own permission check
   * allows every call (each nested call is checked on its own); a rule on it still applies. Not concurrency-safe, not
   * read-only. Register it in any registry, list it in any format, serve it over MCP.
   * @throws ToolDefinitionError when `options.name` is not a valid tool name.
   */
  tool(): Tool {
    if (this.made !== undefined) return this.made;
    const description: DescriptionSource = { resolve: (context) => this.description(context) };
    const made = new FunctionTool((params: unknown, invocation: Invocation) => this.streamed(String((params as { code: unknown }).code), invocation), {
      name: this.name,
      description,
      params: PARAMS,
      isConcurrencySafe: false,
      permissions: { checkPermissions: () => PermissionDecision.allow('A program has no access of its own: each of its tool calls is checked on its own.') },
    });
    CODE_MODE_TOOLS.add(made);
    this.made = made;
    return made;
  }

  /**
   * The TypeScript declarations of the program's `tools` object for `context` (default: the registry's): one method
   * per exposed tool, taking its params type and returning a promise of its result (`unknown` unless the tool declares
   * `returns`), with descriptions as doc comments. Names that are not identifiers are mapped (see docs/code-mode.md).
   */
  declarations(context?: ToolContext): string {
    const exposed = this.exposed(context ?? this.tools.context);
    const keys = programNames(exposed.map((tool) => tool.name));
    return renderDeclarations(
      exposed.map((tool) => ({
        key: keys.get(tool.name)!,
        name: tool.name,
        description: tool.resolveDescription(context ?? this.tools.context),
        parameters: tool.parameters,
        returns: tool.extras.outputSchema,
      })),
    );
  }

  /**
   * Runs `code` as `run_code` would, with the call's `context` and `signal`: what the program printed and returned,
   * or a failed result (a thrown error or syntax error with its line, a limit, a cancelled run; a nested call whose
   * approval `approve` answered `'later'`). Never rejects.
   */
  async run(code: string, options: Omit<CodeModeRunOptions, 'resume'> = {}): Promise<ActionResult<unknown>> {
    return (await this.start(code, { ...options, resume: undefined })).result;
  }

  /**
   * Runs `code` like {@link run}, and pauses instead of failing when `approve` answers a nested call `'later'`: the
   * calls made before it settle, the program is stopped, and the outcome is `pending-approval` with a signed ledger
   * (the calls made and their answers, bound to this program's text and this tool's name, valid `ledgerTtlSeconds`).
   * `start(code, { resume: { ledger, approved } })` runs the program again: its first calls get the recorded answers
   * (they do not run again), the waiting calls run (approved) or are declined, the rest run as usual. A ledger that is
   * forged, changed, expired, already resumed or made for another program fails the run, and so does a program that
   * does not make the recorded calls again (same order, tools and arguments); nothing runs then. Never rejects.
   */
  async start(code: string, options: CodeModeRunOptions = {}): Promise<CodeModeOutcome> {
    const context = options.context ?? this.tools.context;
    const exposed = this.exposed(context);
    const keys = programNames(exposed.map((tool) => tool.name));
    const run = (this.runs += 1);
    let recorded: LedgerPayload['calls'] | undefined;
    if (options.resume !== undefined) {
      const opened = await this.ledgers.open(options.resume.ledger, code, this.name);
      if (typeof opened === 'string') return { status: 'finished', result: ActionResult.fail(LEDGER_REFUSED[opened]) };
      recorded = opened.calls;
    }
    const approvedNow = options.resume?.approved === true;
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
      limits: this.limits,
      quickjs: this.quickjs,
      warm: this.warmInterpreters,
      idleMs: this.idleTimeoutMs,
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
        const callId = `${name}-${run}-${index}`;
        const approve: Approve | undefined =
          plan.kind === 'answered'
            ? () => approvedNow
            : this.approve === undefined
              ? undefined
              : async (tool, call) => {
                  const answer = await this.approve!(tool, call);
                  if (answer !== 'later') return answer;
                  record.pend(index);
                  pending.push(call);
                  return false;
                };
        tell(options.onCall, { tool: name, callId, status: 'running' });
        return this.nested({ id: callId, name, args }, exposed, context, inFlight, approve).then((answer) => {
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
      if (!(stoppedToPause || (outcome.ok && record.readyToPause))) return { status: 'finished', result: outcome.ok ? ActionResult.fail(waiting) : resultOf(outcome, this.limits) };
      const ledger = this.ledgers.sign(this.ledgers.payload(code, this.name, record.entries(), this.ledgerTtlMs));
      return { status: 'pending-approval', calls: pending, ledger, result: ActionResult.fail(waiting) };
    }
    if (outcome.ok && calls < record.recorded) return { status: 'finished', result: ActionResult.fail(divergence(calls + 1, undefined)) };
    return { status: 'finished', result: resultOf(outcome, this.limits) };
  }

  /** The `run_code` body: a content-less chunk per nested call event, then the result as the final chunk. */
  private async *streamed(code: string, invocation: Invocation): AsyncGenerator<ToolChunk> {
    const events: CodeModeCallEvent[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const running = this.run(code, { context: invocation.context, signal: invocation.signal, onCall: (event) => (events.push(event), wake?.()) }).finally(() => {
      done = true;
      wake?.();
    });
    let step = 0;
    for (;;) {
      while (events.length > 0) {
        const event = events.shift()!;
        yield new ToolChunk({ metadata: { [CODE_MODE_CALL]: event, mcpProgress: { progress: step++, message: `${event.tool}: ${event.status}` } } });
      }
      if (done) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    const result = await running;
    yield result.ok ? ToolChunk.text(String(result.result), { state: ToolResultState.SUCCESS }) : ToolChunk.text(String(result.error), { state: ToolResultState.ERROR });
  }

  private async nested(call: { id: string; name: string; args: string }, exposed: readonly Tool[], context: ToolContext, signal: AbortSignal, approve: Approve | undefined): Promise<CallAnswer> {
    if (!exposed.some((tool) => tool.name === call.name)) return { ok: false, error: `The tool '${call.name}' is not available to this program.` };
    let args: unknown;
    try {
      args = JSON.parse(call.args);
    } catch {
      return { ok: false, error: `The arguments of tools.${call.name} are not JSON.` };
    }
    const request = { id: call.id, name: call.name, args };
    const yes = approve === undefined ? undefined : async (tool: Tool, asked: ToolCallRequest) => (await approve(tool, asked)) === true;
    const result = this.permissions === undefined ? await executeToolCall(this.tools, request, { context, signal, approve: yes }) : await this.checked(request, this.permissions, context, signal, yes);
    if (!result.ok) return { ok: false, error: String(result.error) };
    try {
      return { ok: true, value: JSON.stringify(result.result) ?? 'null' };
    } catch (error) {
      return { ok: false, error: `The result of tools.${call.name} cannot be passed to the program as JSON: ${(error as Error).message}` };
    }
  }

  /** A nested call decided by `engine` first (see `CodeModeOptions.permissions`). */
  private async checked(call: ToolCallRequest, engine: PermissionEngine, context: ToolContext, signal: AbortSignal, approve: ((tool: Tool, call: ToolCallRequest) => Promise<boolean>) | undefined): Promise<ActionResult<unknown>> {
    const tool = this.tools.get(call.name)!;
    const parsed = tool.parseArgs(call.args);
    if (!parsed.ok) return this.tools.execute(call.name, call.args, { context, signal, callId: call.id });
    const decision = await engine.check(tool, parsed.params);
    if (decision.behavior === PermissionBehavior.DENY) return this.tools.denied(call.name, decision.message);
    if (decision.behavior === PermissionBehavior.ASK) {
      if (approve === undefined) return this.tools.unapproved(call.name, decision.message);
      let yes = false;
      try {
        yes = await approve(tool, call);
      } catch {
        yes = false;
      }
      if (!yes) return this.tools.declined(call.name);
    }
    return this.tools.execute(call.name, decision.updatedInput ?? parsed.params, { context, signal, callId: call.id, approved: true });
  }

  /** The tools a program may call in `context`, in registration order. */
  private exposed(context: ToolContext): Tool[] {
    return this.tools.getAvailable(context).filter((tool) => !CODE_MODE_TOOLS.has(tool) && !tool.isExternalTool && this.expose(tool));
  }

  private description(context: ToolContext | undefined): string {
    const declarations = this.declarations(context);
    const { timeoutMs, maxToolCalls, maxOutputChars } = this.limits;
    const head =
      'Run a JavaScript program (the body of an async function: top-level await and return work) that calls the tools below as `await tools.<name>(args)`. ' +
      'Only what it prints with console.log and what it returns comes back to you, so filter and combine results in the program. ' +
      'A failed tool call rejects with the failure text (catch it to recover). ' +
      `No require, import, process, timers, network or files. Limits: ${timeoutMs} ms, ${maxToolCalls} tool calls, ${maxOutputChars} characters of output.`;
    if (declarations.length <= MAX_DECLARATION_CHARS) return `${head}\n\n\`\`\`ts\n${declarations}\`\`\``;
    const names = this.exposed(context ?? this.tools.context).map((tool) => tool.name);
    return `${head}\n\nTools (each takes its arguments object as listed for the tool of that name): ${names.join(', ')}.`;
  }
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

/** The tool's result for a program's outcome. */
function resultOf(outcome: ProgramOutcome, limits: ResolvedLimits): ActionResult<unknown> {
  const text = outcome.cut ? `${outcome.text}\n[output cut at ${limits.maxOutputChars} characters]` : outcome.text;
  if (outcome.ok) return ActionResult.success(text);
  const printed = text.length > 0 ? `\nOutput before it stopped:\n${text}` : '';
  return ActionResult.fail(`${stopText(outcome, limits)}${printed}`);
}

function stopText(outcome: Extract<ProgramOutcome, { ok: false }>, limits: ResolvedLimits): string {
  switch (outcome.reason) {
    case 'time':
      return `The program was stopped: it ran past its time limit of ${limits.timeoutMs} ms.`;
    case 'memory':
      return `The program was stopped: it ran out of memory (limit ${limits.memoryBytes} bytes).`;
    case 'calls':
      return `The program was stopped: it made more than ${limits.maxToolCalls} tool calls.`;
    case 'cancelled':
      return 'The program was cancelled.';
    case 'crashed':
      return `The interpreter failed: ${String(outcome.error)}.`;
    default:
      return `The program failed${outcome.line === undefined ? '' : ` at line ${outcome.line}`}: ${String(outcome.error)}`;
  }
}

function exposure(tools: Tools<ActionResult<unknown>>, expose: CodeModeOptions['expose']): (tool: Tool) => boolean {
  if (expose === undefined) return () => true;
  if (typeof expose === 'function') return expose;
  if (!Array.isArray(expose)) throw new CoreError('INVALID_OPTION', 'CodeMode expose takes a list of tool names or a predicate (tool) => boolean.');
  const unknown = expose.filter((name) => typeof name !== 'string' || tools.get(name) === undefined);
  if (unknown.length > 0) {
    throw new CoreError('INVALID_OPTION', `CodeMode expose names tools that are not registered: ${unknown.map((name) => JSON.stringify(name)).join(', ')}. Register them first, or pass a predicate.`);
  }
  const names = new Set<string>(expose);
  return (tool) => names.has(tool.name);
}

function resolveQuickJs(): string {
  try {
    return require.resolve('quickjs-emscripten');
  } catch (error) {
    throw new CoreError('MISSING_PEER', 'agenttoolkit/code-mode needs the optional peer dependency quickjs-emscripten 0.32: npm install quickjs-emscripten@^0.32.0', { cause: error });
  }
}
