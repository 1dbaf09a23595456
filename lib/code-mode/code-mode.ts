import type { DescriptionSource } from '../context/context-description';
import type { ToolContext } from '../context/tool-context';
import { CoreError } from '../errors';
import { PermissionDecision } from '../permissions/permission-decision';
import type { PermissionEngine } from '../permissions/permission-engine';
import type { ToolCallRequest } from '../providers/tool-call-request';
import type { ActionResult } from '../result';
import type { ObjectSchema } from '../schema/schema-types';
import { FunctionTool } from '../tool/function-tool';
import type { Invocation } from '../tool/invocation';
import type { Tool } from '../tool/tool';
import { ToolChunk, ToolResultState } from '../streaming/tool-chunk';
import type { Tools } from '../tools';
import { renderDeclarations } from './declarations';
import { poolFor } from './interpreter-pool';
import { resolveIdleTimeout, resolveLimits, resolveWarm, type CodeModeLimits, type ResolvedLimits } from './limits';
import { LedgerCodec, type CodeModeUsedLedgers } from './ledger';
import { programNames } from './program-names';
import { startRun, type CodeModeApproval, type CodeModeCallEvent, type CodeModeOutcome, type CodeModeRunOptions, type RunSetup } from './start-run';

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
   * How many interpreters to keep started ahead of runs (default 1; 0 starts a thread per run): each a fresh QuickJS
   * module instance on its own capped memory, in a worker thread, made ready before a run takes it and used by that
   * run only. After a program that ended on its own the thread goes back to the pool and makes a new interpreter for
   * a later run (a run stopped from outside or by a limit has its thread terminated); the pool is topped up in the
   * background. Shared by the `CodeMode`s of the process with the same memory limit (the largest count asked for
   * wins); waiting ones never keep the process alive.
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
 * The program runs in a fresh QuickJS interpreter (quickjs-emscripten, WebAssembly) in a worker thread, with
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
  private readonly name: string;
  private readonly warmInterpreters: number;
  private readonly idleTimeoutMs: number;
  private readonly setup: RunSetup;
  private made: Tool | undefined;
  private runs = 0;

  constructor(
    private readonly tools: Tools<ActionResult<unknown>>,
    options: CodeModeOptions = {},
  ) {
    this.limits = resolveLimits(options.limits);
    const ttl = options.ledgerTtlSeconds ?? 600;
    if (typeof ttl !== 'number' || !(ttl > 0) || !Number.isFinite(ttl)) throw new CoreError('INVALID_OPTION', `CodeMode ledgerTtlSeconds must be a positive number of seconds, got ${String(ttl)}.`);
    const ledgers = new LedgerCodec(options.ledgerKey, options.usedLedgers);
    this.name = options.name ?? 'run_code';
    this.expose = exposure(tools, options.expose);
    this.quickjs = resolveQuickJs();
    this.warmInterpreters = resolveWarm(options.warmInterpreters);
    this.idleTimeoutMs = resolveIdleTimeout(options.idleTimeoutMs);
    this.setup = {
      tools,
      name: this.name,
      limits: this.limits,
      quickjs: this.quickjs,
      warmInterpreters: this.warmInterpreters,
      idleTimeoutMs: this.idleTimeoutMs,
      approve: options.approve,
      permissions: options.permissions,
      ledgers,
      ledgerTtlMs: ttl * 1000,
      exposed: (context) => this.exposed(context),
    };
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
   * (they do not run again), the waiting calls run (approved) or are declined without running (`approved` answers all
   * of them at once, or each by its id: see `CodeModeResume`), the rest run as usual; one of them may pause the
   * run again, with a new ledger of every call so far. A ledger that is forged, changed, expired, already resumed or
   * made for another program fails the run, and so do answers that do not fit the waiting calls and a program that
   * does not make the recorded calls again (same order, tools and arguments); nothing runs then. Never rejects.
   */
  async start(code: string, options: CodeModeRunOptions = {}): Promise<CodeModeOutcome> {
    return startRun(this.setup, (this.runs += 1), code, options);
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
