import type { Token } from './context/injection-token';
import type { OutputBudget } from './budget/output-budget';
import { OutputBudgets } from './budget/output-budgets';
import type { ParamsSchema } from './schema/schema-types';
import { ToolContext } from './context/tool-context';
import { CANCELLED, isThenable, NEVER_ABORTED } from './pipeline/await-call';
import { consoleLogger, type ToolLogger } from './pipeline/logger';
import { loggingStep } from './pipeline/logging-step';
import { compose, type NextHandler, type ToolMiddleware } from './pipeline/middleware';
import { InvokeStep } from './pipeline/invoke-step';
import { Outcomes } from './pipeline/outcomes';
import type { CallTrace, ToolTelemetry, TraceAttributes } from './pipeline/telemetry';
import { ToolCall } from './pipeline/tool-call';
import { ActionResult, assertResultClass, isActionResult, type ActionResultClass } from './result';
import { CoreError } from './errors';
import { streamCall } from './streaming/stream-call';
import { collectChunks, isStreamed, toChunks } from './streaming/to-chunks';
import type { ToolChunk } from './streaming/tool-chunk';
import { ToolResponse } from './streaming/tool-response';
import type { ToolStream } from './streaming/tool-stream';
import { approvalKey, approvalMismatch, approvalOf, type CallApproval } from './tool/call-approval';
import { ExternalExecutionRequest } from './tool/external-execution';
import { RESET_TOOLS, ToolGroups, type ToolGroupInfo } from './tool/tool-groups';
import { toolsFromInstance, type InstanceNaming } from './tool/class-tools';
import { toolFromFunction } from './tool/function-action';
import type { ActionFunction, FunctionActionOptions } from './tool/function-tool-options';
import { SchemaCache } from './tool/schema-cache';
import { Tool } from './tool/tool';
import { FunctionTool } from './tool/function-tool';
import { ToolBase } from './tool/tool-base';
import { ToolDefinitionError } from './tool/tool-definition-error';
import type { FormatEntry, ToolFormat } from './tool/tool-format';
import type { OfferedTools, ToolSession } from './tool/tool-session';

/** Options of `new Tools(...)`. */
export interface ToolsOptions<R extends ActionResult<unknown>> {
  /** The active context: dependencies for `@Inject` and availability checks (default: an empty context). */
  context?: ToolContext | undefined;
  /** Custom pipeline steps between validation and call logging; the first is the outermost. */
  middleware?: readonly ToolMiddleware[] | undefined;
  /** The result class every result is built with, failures included (default `ActionResult`). */
  resultType?: ActionResultClass<R> | undefined;
  /** Where warnings, internal errors and (with `debug`) per-call lines go (default: the console, no debug). */
  logger?: ToolLogger | undefined;
  /**
   * Formats every tool must be expressible in (for example `[ToolSchemaFormat.GEMINI]`): each tool is rendered in
   * each of them at registration, and one that cannot be throws the format's `ToolDefinitionError` (tool, path,
   * reason) instead of being left out of that listing later. Default: none.
   */
  formats?: readonly ToolFormat<unknown>[] | undefined;
  /**
   * A limit on the result text the model receives from every tool (characters, or tokens by your estimator), with an
   * optional workspace where cut outputs are saved; a tool's own `outputBudget` overrides it. Default: none. See
   * docs/output-budgets.md.
   */
  outputBudget?: OutputBudget | undefined;
  /**
   * Where each call is reported as it runs, for tracing and metrics: `openTelemetry()` from `agenttoolkit/otel` makes
   * every call an OpenTelemetry span and a duration measurement (docs/observability.md). Default: none (no cost).
   */
  telemetry?: ToolTelemetry | undefined;
}

/**
 * One instance for {@link Tools.register} with its own tool names and group:
 * `tools.register({ instance: new Billing(acme), prefix: 'acme_', group: 'acme' })`.
 */
export interface Registration extends InstanceNaming {
  /** The instance whose `@Action` methods become tools. */
  readonly instance: object;
}

/** Options of {@link Tools.execute}. */
export interface ExecuteOptions {
  /** The context for this call (default: the registry's active context). */
  context?: ToolContext | undefined;
  /** Cancels the call: the tool's signal is aborted and the call resolves to a failed result at once. */
  signal?: AbortSignal | undefined;
  /** The provider's id for this call: carried on the `ToolCall` and on an external execution request. */
  callId?: string | undefined;
  /**
   * The conversation's session (for example a `ToolSearchSession`): its own tools (`search_tools`) can be called, and
   * a tool it refuses (a deferred tool not yet discovered) fails with its message. Default: none.
   */
  session?: ToolSession | undefined;
  /**
   * The approval of a call that needs one (`@RequiresApproval`, the `requiresApproval` option, true for these params):
   * without it such a call is not run and resolves to `tools.unapproved(name)`, unless a registry middleware approved
   * it (`PermissionMiddleware`, or one of your own passing `call.with({ approved: true })`).
   *
   * - `true`: the caller asked the user (or decided, for this call, that no one needs to be asked);
   * - a {@link CallApproval} (`approvalOf(tool, call)`, or `waiting[0].approval` from `runToolCalls`): approves only
   *   the call it was made for: `callId`, the tool's name and the validated input must all match.
   *
   * Ignored for calls that need no approval. Default: none.
   */
  approved?: boolean | CallApproval | undefined;
  /**
   * Facts recorded with the call by the registry's telemetry (`ToolsOptions.telemetry`), for example the permission
   * decision a host loop made before executing (`runToolCalls` passes its own). Ignored without telemetry.
   */
  traceAttributes?: TraceAttributes | undefined;
  /**
   * The trace context a remote caller sent with the call, as W3C trace context fields (`traceparent`, `tracestate`,
   * `baggage`; an MCP request's `params._meta`): with telemetry, the call's span continues that trace instead of the
   * current one. Ignored without telemetry.
   */
  traceContext?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A registry of tools and the pipeline that executes the calls a model makes.
 *
 * Register class instances (`register`), whose `@Action` methods become tools, or functions (`action`). Hand
 * `getSchema(format)` to the model and pass each call it makes to `execute`, which never throws for an expected
 * failure: an unknown tool, invalid arguments, an exception inside the tool or a missing dependency all resolve to a
 * failed result whose `error` is written for the model.
 *
 * Pipeline, outermost first: error boundary, resolution, validation, custom middleware, call logging, invoke.
 *
 * @typeParam R - the result class (see {@link ActionResult} for subclassing).
 */
export class Tools<R extends ActionResult<unknown> = ActionResult<unknown>> {
  private readonly byName = new ToolsByName();
  private activeContext: ToolContext;
  private readonly resultType: ActionResultClass<R>;
  private readonly outcomes: Outcomes<R>;
  private readonly log: ToolLogger;
  private readonly formats: readonly ToolFormat<unknown>[];
  private readonly chain: NextHandler | undefined;
  private readonly schemaCache = new SchemaCache();
  private readonly invoker: InvokeStep<R>;
  private readonly innermost: NextHandler;
  private groups: ToolGroups | undefined;
  private metaTool: Tool | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly callTelemetry: ToolTelemetry | undefined;
  /** The registry's and its tools' output budgets (see `ToolsOptions.outputBudget`). */
  readonly outputBudgets: OutputBudgets;

  /**
   * @throws CoreError `INVALID_OPTION` when `outputBudget` is not a valid budget; `INVALID_RESULT` when `resultType`
   *   declares an extra field as a plain class field (it would be reset to `undefined`; use `declare readonly`).
   */
  constructor(options: ToolsOptions<R> = {}) {
    this.activeContext = options.context ?? new ToolContext();
    this.resultType = options.resultType ?? (ActionResult as unknown as ActionResultClass<R>);
    assertResultClass(this.resultType);
    this.log = options.logger ?? consoleLogger;
    this.outcomes = new Outcomes(this.resultType, this.log);
    this.outputBudgets = new OutputBudgets(options.outputBudget, this.log);
    this.invoker = new InvokeStep(this.outcomes, this.outputBudgets);
    this.innermost = (call) => {
      if (call.approved !== true && needsApproval(call.tool, call.params)) return Promise.resolve(this.refusal(call.name, call.approvalMismatch));
      const limiter = call.tool.callLimiter;
      if (limiter === undefined) return this.invoker.invokeCall(call);
      return limiter.run(
        call.signal,
        () => this.invoker.invokeCall(call),
        () => this.outcomes.cancelledBeforeStart(call.name),
        () => this.outcomes.busy(call.name, limiter.load.running, limiter.load.waiting),
      );
    };
    this.formats = options.formats ?? [];
    this.callTelemetry = options.telemetry;
    const middleware = options.middleware ?? [];
    const steps = this.log.debug ? [...middleware, loggingStep(this.log)] : middleware;
    this.chain = steps.length > 0 ? compose(steps, this.innermost) : undefined;
  }

  /** The logger the registry reports to (`options.logger`, or the console); listing helpers log through it too. */
  get logger(): ToolLogger {
    return this.log;
  }

  /**
   * The telemetry the registry reports its calls to (`options.telemetry`), or `undefined`. Adapters that send requests
   * of their own (`McpClientTools`) report them to it too when it supports them.
   */
  get telemetry(): ToolTelemetry | undefined {
    return this.callTelemetry;
  }

  /** The active context. */
  get context(): ToolContext {
    return this.activeContext;
  }

  /** Replaces the active context (used by calls and listings that pass none). */
  setContext(context: ToolContext): this {
    this.activeContext = context;
    this.listingChanged();
    return this;
  }

  /**
   * Subscribes to listing changes: `listener` runs after a registration (`register`, `action`, `merge`,
   * `createGroup`), an `unregister` that removed a tool, a group switch (`setGroupsActive`, or the model calling `reset_tools`) and `setContext`. A call's
   * own `context` option is not a listing change. A listener that throws is logged and the others still run. An MCP
   * server uses it to send `notifications/tools/list_changed`.
   * @returns a function that unsubscribes.
   */
  onListChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private listingChanged(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.error('A tools listing-change listener threw', { stack: (error as Error | null)?.stack });
      }
    }
  }

  /**
   * Registers the `@Action` methods of each instance as tools of its group (`@ToolGroup` name, or the class name),
   * and `Tool` instances (`ToolBase` subclasses, `FunctionTool`) as they are. An entry `{ instance, prefix?, names?,
   * group? }` ({@link Registration}) registers an instance under its own names and group, so two instances of one
   * class, or two classes inheriting the same decorated method, can be registered side by side:
   *
   * ```ts
   * tools.register({ instance: new Billing(acmeClient), prefix: 'acme_' }, { instance: new Billing(globexClient), prefix: 'globex_' });
   * ```
   * @throws ToolDefinitionError when a method cannot be a tool, a `names` key is not one of the class's tools, or a
   *   name is taken; nothing is registered then.
   */
  register(...instances: Array<object | Registration>): this {
    const tools = instances.flatMap((entry) => {
      if (entry instanceof Tool) return [entry];
      if (!isRegistration(entry)) return toolsFromInstance(entry);
      const unknown = Object.keys(entry).filter((key) => !REGISTRATION_KEYS.has(key));
      if (unknown.length > 0) {
        throw new ToolDefinitionError(`register({ instance, ... }) does not take ${unknown.map((k) => `'${k}'`).join(', ')}: its options are instance, prefix, names and group.`);
      }
      if (entry.instance instanceof Tool) {
        throw new ToolDefinitionError(`Tool '${entry.instance.name}' is a Tool instance: its name and group are fixed when it is built. Pass them to its constructor instead of { instance, prefix, names, group }.`);
      }
      return toolsFromInstance(entry.instance, entry);
    });
    this.addAll(tools);
    return this;
  }

  /**
   * Registers a function as a tool: the form for code without classes.
   *
   * @example
   * ```ts
   * tools.action({ name: 'add', description: 'Add two integers.', params: Type.Object({ a: Type.Integer(), b: Type.Integer() }) },
   *   ({ a, b }) => a + b);
   * ```
   * @returns the registered tool.
   * @throws ToolDefinitionError when the definition is invalid or the name is taken.
   */
  action<P extends ParamsSchema, D extends Record<string, Token<unknown>> = Record<never, never>>(options: FunctionActionOptions<P, D>, fn: ActionFunction<P, D>): Tool {
    const tool = toolFromFunction(options, fn);
    this.addAll([tool]);
    return tool;
  }

  /** The tool registered under `name`, whether or not it is available in a context. */
  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /** Every registered tool, in registration order. */
  list(): Tool[] {
    return [...this.byName.values()];
  }

  /**
   * Removes tools by name, for tools whose source went away (an MCP server that no longer lists a tool). Names not
   * registered, and the `reset_tools` meta tool, are ignored; the listing caches are cleared.
   * @returns the names removed, in the order given.
   */
  unregister(...names: string[]): string[] {
    const removed = names.filter((name) => this.byName.get(name) !== undefined && this.byName.get(name) !== this.metaTool && this.byName.delete(name));
    if (removed.length > 0) {
      this.schemaCache.clear();
      this.listingChanged();
    }
    return removed;
  }

  /** The tools available in `context` (default: the active context), in registration order. */
  getAvailable(context: ToolContext = this.activeContext): Tool[] {
    return this.list().filter((tool) => this.isListed(tool, context));
  }

  /**
   * The model-facing listing of the tools available in `context`, in `format` (for example `ToolSchemaFormat.OPENAI`),
   * with descriptions rendered against the context. Entries are computed once per tool and format and then reused
   * (frozen). A tool the format cannot express, or whose description or availability check throws, is left out
   * and logged; the others are listed (a bug in a format itself propagates).
   *
   * With a `session` (one per conversation, for example a `ToolSearchSession`), the session picks and orders the
   * listed tools and may add its own; its own tools are rendered on each listing, not cached.
   *
   * @throws CoreError `INVALID_OPTION` when `format` is not a tool format (for example a format's name as a string).
   */
  getSchema<F extends ToolFormat<unknown>>(format: F, context: ToolContext = this.activeContext, session?: ToolSession): Array<FormatEntry<F>> {
    if (typeof (format as Partial<ToolFormat<unknown>> | null)?.render !== 'function' || typeof format.id !== 'string') {
      throw new CoreError('INVALID_OPTION', `getSchema takes a tool format (a ToolSchemaFormat value such as ToolSchemaFormat.OPENAI, or an object with an id and a render method), not ${JSON.stringify(format) ?? String(format)}.`);
    }
    const entries: Array<FormatEntry<F>> = [];
    const refused = (tool: Tool, error: Error) => this.log.warn(`Tool '${tool.name}' is left out of the ${format.id} listing: ${error.message}`);
    const listed = session === undefined ? this.byName.values() : session.listing(this.offered(context), context);
    for (const tool of listed) {
      if (session === undefined && !this.isListed(tool, context)) continue;
      // Without a session every tool comes from the registry itself; a session's own tools are rendered each time.
      const cache = session === undefined || this.byName.get(tool.name) === tool ? this.schemaCache : new SchemaCache();
      const entry = cache.entry(format as ToolFormat<FormatEntry<F>>, tool, context, refused);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }

  /**
   * Executes a model's tool call. `args` is the arguments object, or the JSON text the provider sent.
   * Never rejects for an expected failure; see the class docs. A call that needs approval runs only with
   * `options.approved` (or a middleware's approval); without it the result is `tools.unapproved(name)`.
   */
  execute(name: string, args: unknown, options?: ExecuteOptions): Promise<R> {
    return this.callTelemetry === undefined || !this.isTraced() ? this.dispatch(name, args, options, undefined, undefined) : this.traced(name, args, options, undefined);
  }

  /**
   * Executes a call like {@link execute}, yielding the tool's chunks as they come.
   * The same pipeline runs; `result` resolves to what `execute` would return. See {@link ToolStream}.
   */
  stream(name: string, args: unknown, options?: ExecuteOptions): ToolStream<R> {
    return streamCall(options?.signal, (signal, onChunk) =>
      this.callTelemetry === undefined || !this.isTraced() ? this.dispatch(name, args, { ...options, signal }, onChunk, undefined) : this.traced(name, args, { ...options, signal }, onChunk),
    );
  }

  /**
   * Turns the host's outcome of an external execution request into an ordinary result (it re-enters the
   * pipeline as the call's result): a value, an `ActionResult`, a `ToolChunk`, an async iterable of chunks or a
   * `ToolResponse`, or a promise of one (awaited, as a tool body's would be). An outcome that rejects or a stream that
   * throws becomes a failed result, as the tool's own exception would. Decline a request with {@link declined} instead.
   * @throws CoreError `NOT_EXTERNAL` when the request names no registered external tool.
   */
  async completeExternal(request: ExternalExecutionRequest, outcome: unknown): Promise<R> {
    const tool = this.byName.get(request.name);
    if (tool === undefined || !tool.isExternalTool) {
      throw new CoreError('NOT_EXTERNAL', `No external tool '${request.name}' is registered here; pass requests back to the registry that issued them.`);
    }
    try {
      const settled = isThenable(outcome) ? await outcome : outcome;
      if (settled instanceof ToolResponse) return settled.toResult(this.resultType, request.name);
      if (isStreamed(settled)) return (await collectChunks(toChunks(settled), NEVER_ABORTED)).toResult(this.resultType, request.name);
      return this.outcomes.conform(settled);
    } catch (error) {
      return this.outcomes.toolFailure(request.name, error);
    }
  }

  /**
   * Adds a switchable tool group, off unless `active`, and (re)builds the `reset_tools`
   * meta tool the model switches groups with. Tools join a group through their `group` (`@ToolGroup`, or the
   * `group` option); groups never created here are always active. See docs/permissions.md.
   * @throws ToolDefinitionError for `basic`, a duplicate or bad name, an empty description, or when a tool of
   *   your own is registered as `reset_tools`.
   */
  createGroup(name: string, description: string, options: { active?: boolean } = {}): this {
    const own = this.byName.get(RESET_TOOLS);
    if (own !== undefined && own !== this.metaTool) throw new ToolDefinitionError(`Tool '${RESET_TOOLS}' is already registered (by ${own.source}); the tool-group meta tool needs that name.`);
    const groups = this.groups ?? new ToolGroups(() => this.listingChanged());
    groups.create(name, description, options.active ?? false);
    this.groups = groups;
    this.metaTool = groups.metaTool((group) => this.list().filter((tool) => tool.group === group).map((tool) => tool.name));
    this.byName.set(RESET_TOOLS, this.metaTool);
    this.schemaCache.clear();
    this.listingChanged();
    return this;
  }

  /** The switchable groups and their state (empty without `createGroup`). */
  listGroups(): ToolGroupInfo[] {
    return this.groups?.list() ?? [];
  }

  /** Switches groups from the host side (the same effect as the model calling `reset_tools`; unknown names ignored). */
  setGroupsActive(states: Readonly<Record<string, boolean>>): this {
    this.groups?.apply(states);
    return this;
  }

  /** A failed result for a call the user declined, to hand back to the model like any other result. */
  declined(name: string, reason?: string): R {
    return this.outcomes.declined(name, reason);
  }

  /**
   * A failed result for a call the permission policy denied (a rule, the mode, the tool's own check): worded as a
   * denial, never as the user's refusal. `reason` is the decision's message.
   */
  denied(name: string, reason: string): R {
    return this.outcomes.denied(name, reason);
  }

  /**
   * The refusal of a call that needs approval and was not approved: {@link unapproved}, or, when the caller passed an
   * approval for another call (`mismatch`), a text naming what differs.
   */
  private refusal(name: string, mismatch: string | undefined): R {
    return mismatch === undefined ? this.outcomes.unapproved(name) : this.outcomes.mismatchedApproval(name, mismatch);
  }

  /** A failed result for a call that needs the user's approval when no one can be asked. */
  unapproved(name: string, reason?: string): R {
    return this.outcomes.unapproved(name, reason);
  }

  /**
   * Adds the tools of `other`. A name already registered here throws (`Tool '<name>' already registered`) unless
   * `replace` is set, in which case `other`'s tool wins.
   */
  merge(other: Tools<ActionResult<unknown>>, options: { replace?: boolean } = {}): this {
    const incoming = other.list();
    if (!options.replace) this.assertFree(incoming, () => 'Pass { replace: true } to merge(...) to let the merged registry\'s tool win, or register one of them under another name.');
    this.assertExpressible(incoming);
    for (const tool of incoming) this.outputBudgets.check(tool);
    for (const tool of incoming) this.byName.set(tool.name, tool);
    this.schemaCache.clear();
    this.listingChanged();
    return this;
  }

  private addAll(tools: readonly Tool[]): void {
    this.assertFree(tools, renameHint);
    this.assertExpressible(tools);
    for (const tool of tools) this.outputBudgets.check(tool);
    for (const tool of tools) this.byName.set(tool.name, tool);
    this.schemaCache.clear();
    this.listingChanged();
  }

  private assertExpressible(tools: readonly Tool[]): void {
    for (const format of this.formats) for (const tool of tools) format.render(tool, tool.resolveDescription());
  }

  /** Throws when a name of `tools` is taken, here or earlier in `tools`; `hint` says what the caller can do about it. */
  private assertFree(tools: readonly Tool[], hint: (tool: Tool) => string): void {
    const seen = new Map<string, Tool>();
    for (const tool of tools) {
      const clash = this.byName.get(tool.name) ?? seen.get(tool.name);
      if (clash !== undefined) {
        throw new ToolDefinitionError(`Tool '${tool.name}' already registered (by ${clash.source}; now by ${tool.source}). ${hint(tool)}`);
      }
      seen.set(tool.name, tool);
    }
  }

  /** The tools offered in `context`, as a session reads them. */
  private offered(context: ToolContext): OfferedTools {
    return {
      all: () => this.getAvailable(context),
      get: (name) => {
        const tool = this.byName.get(name);
        return tool !== undefined && this.isListed(tool, context) ? tool : undefined;
      },
    };
  }

  /** Offered in `context`: its availability holds and its group, if switchable, is active. */
  private isListed(tool: Tool, context: ToolContext): boolean {
    return this.isAvailable(tool, context) && (this.groups === undefined || this.groups.isActive(tool.group));
  }

  /** The tool's availability in `context`; a check that throws offers nothing (fail closed) and is logged. */
  private isAvailable(tool: Tool, context: ToolContext): boolean {
    try {
      return tool.isAvailable(context);
    } catch (error) {
      this.log.error(`Tool '${tool.name}' is not offered: its availability check threw`, { stack: (error as Error | null)?.stack });
      return false;
    }
  }

  /** Whether the registry's telemetry records calls now; one whose check throws records nothing. */
  private isTraced(): boolean {
    try {
      return this.callTelemetry!.isRecording();
    } catch {
      return false;
    }
  }

  /**
   * A call the registry's telemetry is told of: the whole dispatch runs inside the call's trace, which ends with the
   * result. A telemetry that declines (nothing listening) or throws leaves the call as it would run without one.
   */
  private traced(name: string, args: unknown, options: ExecuteOptions | undefined, onChunk: ((chunk: ToolChunk) => void) | undefined): Promise<R> {
    let trace: CallTrace | undefined;
    try {
      const context = options?.context ?? this.activeContext;
      const tool = this.byName.get(name) ?? options?.session?.ownTool(name);
      trace = this.callTelemetry!.startCall({ name, tool, callId: options?.callId, args, context, signal: options?.signal, attributes: options?.traceAttributes, traceContext: options?.traceContext });
    } catch (error) {
      this.log.warn(`The telemetry of tool calls failed to start a trace for '${name}'; the call runs untraced: ${(error as Error | null)?.message ?? String(error)}`);
    }
    if (trace === undefined) return this.dispatch(name, args, options, onChunk, undefined);
    const running = trace.run(() => this.dispatch(name, args, options, onChunk, trace));
    return running.then((result) => {
      try {
        trace.end(result);
      } catch {
        // Telemetry is best effort: the result still reaches the caller.
      }
      return result;
    });
  }

  /**
   * The fixed prelude shared by `execute` and `stream`: resolution, group check, validation, then the plain invoke
   * step or the chain. `onChunk` is set by `stream` only.
   */
  private dispatch(name: string, args: unknown, options: ExecuteOptions | undefined, onChunk: ((chunk: ToolChunk) => void) | undefined, trace: CallTrace | undefined): Promise<R> {
    const context = options?.context ?? this.activeContext;
    const session = options?.session;
    try {
      const tool = this.byName.lookup(name) ?? session?.ownTool(name);
      if (tool === undefined || !this.isAvailable(tool, context)) {
        return Promise.resolve(this.outcomes.unknownTool(name, (session === undefined ? this.getAvailable(context) : session.listing(this.offered(context), context)).map((t) => t.name)));
      }
      if (this.groups !== undefined && !this.groups.isActive(tool.group)) return Promise.resolve(this.resultType.fail(this.groups.inactiveMessage(name, tool.group)));
      const refusal = session?.refusal(tool, context);
      if (refusal !== undefined) return Promise.resolve(this.resultType.fail(refusal));
      const parsed = tool.parseArgs(args);
      if (!parsed.ok) return Promise.resolve(this.resultType.fail(parsed.error));
      const signal = options?.signal ?? NEVER_ABORTED;
      if (signal !== NEVER_ABORTED && signal.aborted) return Promise.resolve(this.outcomes.cancelledBeforeStart(name));
      const approval = approvalOfCall(tool, name, args, options);
      const approved = approval === true;
      const mismatch = approved ? undefined : approval;
      const direct = this.chain === undefined && onChunk === undefined && !tool.hasChunkPipeline && tool.callLimiter === undefined;
      if (direct && !approved && needsApproval(tool, parsed.params)) return Promise.resolve(this.refusal(name, mismatch));
      const running = direct
        ? this.invoker.run(tool, parsed.params, context, signal, name)
        : this.runChain(new ToolCall({ name, args, context, tool, params: parsed.params, signal, resultType: this.resultType, callId: options?.callId, onChunk, approved, approvalMismatch: mismatch, trace }));
      return this.outputBudgets.budgetOf(tool) === undefined ? running : running.then((result) => this.outputBudgets.apply(tool, result));
    } catch (error) {
      return Promise.resolve(this.outcomes.internalError(name, error));
    }
  }

  /**
   * Runs the middleware chain. With a signal, the call resolves as cancelled once it aborts even when a middleware
   * never calls `next` or never settles (ExecuteOptions.signal: "resolves to a failed result at once"); the pipeline
   * gets until the next event-loop turn to answer the abort itself (the invoke step's answer carries partial output).
   */
  private async runChain(call: ToolCall): Promise<R> {
    try {
      const running = (this.chain ?? this.innermost)(call);
      const result: unknown = await (call.signal === NEVER_ABORTED ? running : settleOnAbort(running, call.signal));
      // A middleware must answer with a result; anything else (a forgotten `return`) is a bug, not a success.
      if (!isActionResult(result)) return this.outcomes.internalError(call.name, new CoreError('INVALID_MIDDLEWARE_RESULT', `a middleware returned ${describeValue(result)} instead of an ActionResult`));
      return this.outcomes.conform(result);
    } catch (error) {
      return error === CANCELLED ? this.outcomes.toolFailure(call.name, error) : this.outcomes.internalError(call.name, error);
    }
  }
}

/**
 * The registry's tools by name. {@link lookup} remembers the last name it found (a conversation calls the same few
 * tools again and again, and a name compares faster than it hashes); every change (`set`, `delete`, `clear`) forgets
 * it.
 */
class ToolsByName extends Map<string, Tool> {
  private lastName: string | undefined;
  private lastTool: Tool | undefined;

  /** The tool registered as `name`, like `get`. */
  lookup(name: string): Tool | undefined {
    if (name === this.lastName) return this.lastTool;
    const tool = this.get(name);
    if (tool !== undefined) {
      this.lastName = name;
      this.lastTool = tool;
    }
    return tool;
  }

  override set(name: string, tool: Tool): this {
    this.forget();
    return super.set(name, tool);
  }

  override delete(name: string): boolean {
    this.forget();
    return super.delete(name);
  }

  override clear(): void {
    this.forget();
    super.clear();
  }

  private forget(): void {
    this.lastName = undefined;
    this.lastTool = undefined;
  }
}

const REGISTRATION_KEYS: ReadonlySet<string> = new Set(['instance', 'prefix', 'names', 'group']);

/** Whether a `register` argument is a {@link Registration} entry: a plain object with an `instance` (a class instance never is one). */
function isRegistration(entry: object): entry is Registration {
  const proto = Object.getPrototypeOf(entry) as unknown;
  return (proto === Object.prototype || proto === null) && 'instance' in entry;
}

/** What a definition whose name is taken can do, by where it comes from: only options that exist. */
function renameHint(tool: Tool): string {
  if (tool.source.startsWith("tool '")) return 'Pass another { name } to tools.action(...).';
  if (tool instanceof FunctionTool || tool instanceof ToolBase || tool.isMcp) return 'Build one of them with another name.';
  return (
    "Register the instance under its own names: tools.register({ instance, prefix: 'other_' }) or { instance, names: { " +
    `${tool.name}: 'other_${tool.name}' } }, or name the method with @Action(description, { name }).`
  );
}

/** Settles like `running`, or rejects with {@link CANCELLED} one event-loop turn after `signal` aborts if it has not. */
function settleOnAbort<T>(running: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Immediate | undefined;
    const onAbort = () => (timer = setImmediate(() => reject(CANCELLED)));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const done = () => (clearImmediate(timer), signal.removeEventListener('abort', onAbort));
    running.then(
      (value) => (done(), resolve(value)),
      (error: unknown) => (done(), reject(error)),
    );
  });
}

/**
 * Whether the caller approved this call (see `ExecuteOptions.approved`): `true` for `true` or an approval made for
 * exactly this call; for an approval of another call (or one passed without `callId`), why it does not cover this
 * one (see `approvalMismatch`); otherwise undefined (no approval given).
 */
function approvalOfCall(tool: Tool, name: string, args: unknown, options: ExecuteOptions | undefined): true | string | undefined {
  const given = options?.approved;
  if (given === true) return true;
  if (given === undefined || given === false || given === null || typeof given !== 'object') return undefined;
  try {
    const own = approvalOf(tool, { id: options?.callId ?? '', name, args });
    if (approvalKey(given) === approvalKey(own)) return true;
    return approvalMismatch(given, own, options?.callId !== undefined);
  } catch {
    return 'the approval passed cannot be read as a CallApproval ({ callId, tool, input } strings): pass the approval runToolCalls hands out, or approvalOf(tool, call)';
  }
}

/** The tool's approval predicate for validated params; one that throws asks (fail closed, as `needsApproval` does). */
function needsApproval(tool: Tool, params: Record<string, unknown>): boolean {
  try {
    return tool.needsApproval(params);
  } catch {
    return true;
  }
}

function describeValue(value: unknown): string {
  return value === null ? 'null' : value === undefined ? 'undefined' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
