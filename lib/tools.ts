import { randomUUID } from 'node:crypto';
import type { TObject } from '@sinclair/typebox';
import type { Token } from './context/injection-token';
import { MissingDependencyError, ToolContext } from './context/tool-context';
import { consoleLogger, type ToolLogger } from './pipeline/logger';
import { compose, type NextHandler, type ToolMiddleware } from './pipeline/middleware';
import { ToolCall } from './pipeline/tool-call';
import { ActionResult, type ActionResultClass, type ActionResultInit } from './result';
import { AgentToolkitError } from './errors';
import { streamCall } from './streaming/stream-call';
import { collectChunks, isStreamed, toChunks, valueToChunk } from './streaming/to-chunks';
import type { ToolChunk } from './streaming/tool-chunk';
import { ToolResponse } from './streaming/tool-response';
import type { ToolStream } from './streaming/tool-stream';
import { ExternalExecutionRequest } from './tool/external-execution';
import { agentStateTraits } from './tool/agent-state';
import { externalRequestChunk } from './tool/external-chunk';
import { RESET_TOOLS, ToolGroups, type ToolGroupInfo } from './tool/tool-groups';
import { injected } from './tool/class-tools';
import { toolsFromInstance } from './tool/class-tools';
import type { ActionFunction, FunctionActionOptions } from './tool/function-tool-options';
import { Tool, type Invocation } from './tool/tool';
import { ToolDefinitionError } from './tool/tool-definition-error';
import type { FormatEntry, ToolFormat } from './tool/tool-format';

/** Options of `new Tools(...)`. */
export interface ToolsOptions<R extends ActionResult<unknown>> {
  /** The active context: dependencies for `@Inject` and availability checks (default: an empty context). */
  context?: ToolContext;
  /** Custom pipeline steps between validation and call logging; the first is the outermost. */
  middleware?: readonly ToolMiddleware[];
  /** The result class every result is built with, failures included (default `ActionResult`). */
  resultType?: ActionResultClass<R>;
  /** Where warnings, internal errors and (with `debug`) per-call lines go (default: the console, no debug). */
  logger?: ToolLogger;
  /**
   * Formats every tool must be expressible in (for example `[ToolSchemaFormat.GEMINI]`): each tool is rendered in
   * each of them at registration, and one that cannot be throws the format's `ToolDefinitionError` (tool, path,
   * reason) instead of being left out of that listing later. Default: none.
   */
  formats?: readonly ToolFormat<unknown>[];
}

/** Options of {@link Tools.execute}. */
export interface ExecuteOptions {
  /** The context for this call (default: the registry's active context). */
  context?: ToolContext;
  /** Cancels the call: the tool's signal is aborted and the call resolves to a failed result at once. */
  signal?: AbortSignal;
  /** The provider's id for this call: carried on the `ToolCall` and on an external execution request. */
  callId?: string;
}

const NEVER_ABORTED = new AbortController().signal;
const EMPTY_PARAMS = Object.freeze({ type: 'object', properties: Object.freeze({}), additionalProperties: false });
const NO_DEPENDENCIES = Object.freeze({});

/**
 * A registry of tools and the pipeline that executes the calls a model makes (seed: "Quickstart" to "Merging
 * registries").
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
  private readonly byName = new Map<string, Tool>();
  private activeContext: ToolContext;
  private readonly resultType: ActionResultClass<R>;
  private readonly logger: ToolLogger;
  private readonly middleware: readonly ToolMiddleware[];
  private readonly formats: readonly ToolFormat<unknown>[];
  private readonly chain: NextHandler | undefined;
  private readonly schemaCache = new Map<ToolFormat<unknown>, Map<Tool, unknown>>();
  private readonly innermost: NextHandler = (call) => this.invokeCall(call);
  private groups: ToolGroups | undefined;
  private metaTool: Tool | undefined;

  constructor(options: ToolsOptions<R> = {}) {
    this.activeContext = options.context ?? new ToolContext();
    this.resultType = options.resultType ?? (ActionResult as unknown as ActionResultClass<R>);
    this.logger = options.logger ?? consoleLogger;
    this.middleware = options.middleware ?? [];
    this.formats = options.formats ?? [];
    const steps = this.logger.debug ? [...this.middleware, this.loggingStep()] : this.middleware;
    this.chain = steps.length > 0 ? compose(steps, this.innermost) : undefined;
  }

  /** The active context. */
  get context(): ToolContext {
    return this.activeContext;
  }

  /** Replaces the active context (used by calls and listings that pass none). */
  setContext(context: ToolContext): this {
    this.activeContext = context;
    return this;
  }

  /**
   * Registers the `@Action` methods of each instance as tools of its group (`@ToolGroup` name, or the class name),
   * and `Tool` instances (`ToolBase` subclasses, `FunctionTool`) as they are.
   * @throws ToolDefinitionError when a method cannot be a tool or a name is taken; nothing is registered then.
   */
  register(...instances: object[]): this {
    const tools = instances.flatMap((instance) => (instance instanceof Tool ? [instance] : toolsFromInstance(instance)));
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
  action<P extends TObject, D extends Record<string, Token<unknown>> = Record<never, never>>(options: FunctionActionOptions<P, D>, fn: ActionFunction<P, D>): Tool {
    const source = `tool '${options.name}'`;
    const inject = Object.entries(options.inject ?? {}).map(([key, token]) => ({ key, record: { index: 0, token, optional: false, defaultValue: undefined } }));
    const tool = new Tool({
      name: options.name,
      description: options.description,
      group: options.group ?? 'default',
      source,
      params: options.params ?? (EMPTY_PARAMS as TObject),
      options,
      traits: agentStateTraits(Object.values(options.inject ?? {})),
      approval: options.requiresApproval ?? false,
      body:
        inject.length === 0
          ? (params, invocation: Invocation) => (fn as (p: unknown, d: unknown, i: Invocation) => unknown)(params, NO_DEPENDENCIES, invocation)
          : (params, invocation: Invocation) => {
              const dependencies: Record<string, unknown> = {};
              for (const { key, record } of inject) dependencies[key] = injected(record, invocation, source);
              return (fn as (p: unknown, d: unknown, i: Invocation) => unknown)(params, dependencies, invocation);
            },
    });
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

  /** The tools available in `context` (default: the active context), in registration order. */
  getAvailable(context: ToolContext = this.activeContext): Tool[] {
    return this.list().filter((tool) => tool.isAvailable(context) && (this.groups === undefined || this.groups.isActive(tool.group)));
  }

  /**
   * The model-facing listing of the tools available in `context`, in `format` (for example `ToolSchemaFormat.OPENAI`),
   * with descriptions rendered against the context. Entries are computed once per tool and format and then reused
   * (frozen). A tool the format cannot express is left out and logged; the others are listed.
   */
  getSchema<F extends ToolFormat<unknown>>(format: F, context: ToolContext = this.activeContext): Array<FormatEntry<F>> {
    let cache = this.schemaCache.get(format);
    if (cache === undefined) this.schemaCache.set(format, (cache = new Map()));
    const entries: Array<FormatEntry<F>> = [];
    for (const tool of this.byName.values()) {
      if (!tool.isAvailable(context) || (this.groups !== undefined && !this.groups.isActive(tool.group))) continue;
      let entry = tool.hasContextDescription ? undefined : cache.get(tool);
      if (entry === undefined) {
        try {
          entry = deepFreeze(format.render(tool, tool.resolveDescription(context)));
        } catch (error) {
          if (!(error instanceof ToolDefinitionError)) throw error;
          this.logger.warn(`Tool '${tool.name}' is left out of the ${format.id} listing: ${error.message}`);
          continue;
        }
        if (!tool.hasContextDescription) cache.set(tool, entry);
      }
      entries.push(entry as FormatEntry<F>);
    }
    return entries;
  }

  /**
   * Executes a model's tool call. `args` is the arguments object, or the JSON text the provider sent.
   * Never rejects for an expected failure; see the class docs.
   */
  execute(name: string, args: unknown, options?: ExecuteOptions): Promise<R> {
    return this.dispatch(name, args, options, undefined);
  }

  /**
   * Executes a call like {@link execute}, yielding the tool's chunks as they come (seed 004: streaming tool output).
   * The same pipeline runs; `result` resolves to what `execute` would return. See {@link ToolStream}.
   */
  stream(name: string, args: unknown, options?: ExecuteOptions): ToolStream<R> {
    return streamCall(options?.signal, (signal, onChunk) => this.dispatch(name, args, { ...options, signal }, onChunk));
  }

  /**
   * Turns the host's outcome of an external execution request into an ordinary result (seed 004: the result
   * re-enters as a tool result): a value, an `ActionResult`, a `ToolChunk`, an async iterable of chunks or a
   * `ToolResponse`. Decline a request with {@link declined} instead.
   * @throws AgentToolkitError `NOT_EXTERNAL` when the request names no registered external tool.
   */
  async completeExternal(request: ExternalExecutionRequest, outcome: unknown): Promise<R> {
    const tool = this.byName.get(request.name);
    if (tool === undefined || !tool.isExternalTool) {
      throw new AgentToolkitError('NOT_EXTERNAL', `No external tool '${request.name}' is registered here; pass requests back to the registry that issued them.`);
    }
    if (outcome instanceof ToolResponse) return outcome.toResult(this.resultType, request.name);
    if (isStreamed(outcome)) return (await collectChunks(toChunks(outcome), NEVER_ABORTED)).toResult(this.resultType, request.name);
    return this.conform(outcome);
  }

  /**
   * Adds a switchable tool group (seed 004: tool groups), off unless `active`, and (re)builds the `reset_tools`
   * meta tool the model switches groups with. Tools join a group through their `group` (`@ToolGroup`, or the
   * `group` option); groups never created here are always active. See docs/permissions.md.
   * @throws ToolDefinitionError for `basic`, a duplicate or bad name, an empty description, or when a tool of
   *   your own is registered as `reset_tools`.
   */
  createGroup(name: string, description: string, options: { active?: boolean } = {}): this {
    const own = this.byName.get(RESET_TOOLS);
    if (own !== undefined && own !== this.metaTool) throw new ToolDefinitionError(`Tool '${RESET_TOOLS}' is already registered (by ${own.source}); the tool-group meta tool needs that name.`);
    const groups = this.groups ?? new ToolGroups();
    groups.create(name, description, options.active ?? false);
    this.groups = groups;
    this.metaTool = groups.metaTool((group) => this.list().filter((tool) => tool.group === group).map((tool) => tool.name));
    this.byName.set(RESET_TOOLS, this.metaTool);
    this.schemaCache.clear();
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
    return this.resultType.fail(`The user declined to run tool '${name}'${reason ? ` (${reason})` : ''}. Do not retry it unchanged; ask the user or take another approach.`);
  }

  /**
   * Adds the tools of `other`. A name already registered here throws (`Tool '<name>' already registered`) unless
   * `replace` is set, in which case `other`'s tool wins.
   */
  merge(other: Tools<ActionResult<unknown>>, options: { replace?: boolean } = {}): this {
    const incoming = other.list();
    if (!options.replace) this.assertFree(incoming);
    this.assertExpressible(incoming);
    for (const tool of incoming) this.byName.set(tool.name, tool);
    this.schemaCache.clear();
    return this;
  }

  private addAll(tools: readonly Tool[]): void {
    this.assertFree(tools);
    this.assertExpressible(tools);
    for (const tool of tools) this.byName.set(tool.name, tool);
    this.schemaCache.clear();
  }

  private assertExpressible(tools: readonly Tool[]): void {
    for (const format of this.formats) for (const tool of tools) format.render(tool, tool.resolveDescription());
  }

  private assertFree(tools: readonly Tool[]): void {
    const seen = new Map<string, Tool>();
    for (const tool of tools) {
      const clash = this.byName.get(tool.name) ?? seen.get(tool.name);
      if (clash !== undefined) {
        throw new ToolDefinitionError(`Tool '${tool.name}' already registered (by ${clash.source}; now by ${tool.source}). Give one of them another name with { name }, or merge with { replace: true }.`);
      }
      seen.set(tool.name, tool);
    }
  }

  private unknownTool(name: string, context: ToolContext): R {
    const available = this.getAvailable(context).map((tool) => tool.name);
    return this.resultType.fail(`Unknown tool '${name}'. Available: ${available.length ? available.join(', ') : '(none)'}`);
  }

  /**
   * The fixed prelude shared by `execute` and `stream`: resolution, group check, validation, then the plain invoke
   * step or the chain. `onChunk` is set by `stream` only.
   */
  private dispatch(name: string, args: unknown, options: ExecuteOptions | undefined, onChunk: ((chunk: ToolChunk) => void) | undefined): Promise<R> {
    const context = options?.context ?? this.activeContext;
    try {
      const tool = this.byName.get(name);
      if (tool === undefined || !tool.isAvailable(context)) return Promise.resolve(this.unknownTool(name, context));
      if (this.groups !== undefined && !this.groups.isActive(tool.group)) return Promise.resolve(this.resultType.fail(this.groups.inactiveMessage(name, tool.group)));
      const parsed = tool.parseArgs(args);
      if (!parsed.ok) return Promise.resolve(this.resultType.fail(parsed.error));
      const signal = options?.signal ?? NEVER_ABORTED;
      if (signal.aborted) return Promise.resolve(this.resultType.fail(`Tool '${name}' was cancelled before it started.`));
      if (this.chain === undefined && onChunk === undefined && !tool.hasChunkPipeline) return this.run(tool, parsed.params, context, signal, name);
      return this.runChain(new ToolCall({ name, args, context, tool, params: parsed.params, signal, resultType: this.resultType, callId: options?.callId, onChunk }));
    } catch (error) {
      return Promise.resolve(this.internalError(name, error));
    }
  }

  /** The innermost step of the chain: the plain invoke step, or the chunk path. */
  private invokeCall(call: ToolCall): Promise<R> {
    if (call.tool.hasChunkPipeline || call.onChunk !== undefined) return this.invokeChunked(call);
    return this.run(call.tool, call.params, call.context, call.signal, call.name);
  }

  /** The slow path: external tools, per-tool middleware, or a consumer reading chunks (`stream`). */
  private async invokeChunked(call: ToolCall): Promise<R> {
    const { tool, params, context, signal, name, onChunk } = call;
    if (tool.isExternalTool) {
      const request = new ExternalExecutionRequest(call.callId ?? randomUUID(), name, Object.freeze(params));
      await onChunk?.(externalRequestChunk(request));
      return this.resultType.success(request);
    }
    try {
      let source: AsyncIterable<ToolChunk>;
      if (tool.middlewares.length > 0) source = tool.stream(params, { context, signal });
      else {
        let value = tool.invoke(params, { context, signal });
        if (isThenable(value)) value = await raceAbort(value, signal);
        if (!isStreamed(value)) {
          await onChunk?.(valueToChunk(value));
          return this.conform(value);
        }
        source = toChunks(value);
      }
      return (await collectChunks(source, signal, onChunk)).toResult(this.resultType, name);
    } catch (error) {
      return this.toolFailure(name, error);
    }
  }

  /** The invoke step: runs the tool and wraps what it returns (one asynchronous hop, whatever the body is). */
  private async run(tool: Tool, params: Record<string, unknown>, context: ToolContext, signal: AbortSignal, name: string): Promise<R> {
    let value: unknown;
    try {
      value = tool.invoke(params, { context, signal });
      if (isThenable(value)) value = await (signal === NEVER_ABORTED ? value : raceAbort(value, signal));
      if (isStreamed(value)) return (await collectChunks(toChunks(value), signal)).toResult(this.resultType, name);
    } catch (error) {
      return this.toolFailure(name, error);
    }
    try {
      return this.conform(value);
    } catch (error) {
      return this.internalError(name, error);
    }
  }

  private async runChain(call: ToolCall): Promise<R> {
    try {
      return this.conform(await (this.chain ?? this.innermost)(call));
    } catch (error) {
      return this.internalError(call.name, error);
    }
  }

  /** The error boundary's answer to an unexpected error: logged with its stack, a short generic message for the model. */
  private internalError(name: string, error: unknown): R {
    this.logger.error(`Internal error while executing tool '${name}'`, { error, stack: (error as Error)?.stack });
    return this.resultType.fail(`Internal error while running tool '${name}'. It was logged; try again or use another tool.`);
  }

  private toolFailure(name: string, error: unknown): R {
    if (error === CANCELLED) return this.resultType.fail(`Tool '${name}' was cancelled before it finished.`);
    if (error instanceof MissingDependencyError) {
      this.logger.error(`Tool '${name}' could not run: ${error.message}`);
      return this.resultType.fail(`Tool '${name}' cannot run right now: a service it needs is not configured. This is not caused by your arguments.`);
    }
    this.logger.warn(`Tool '${name}' threw`, { error, stack: (error as Error)?.stack });
    return this.resultType.fail(`Tool '${name}' failed: ${messageOf(error)}`);
  }

  /** Wraps a raw value in the registry's result type; an `ActionResult` of another class keeps the fields this type declares. */
  private conform(value: unknown): R {
    if (value instanceof this.resultType) return value;
    if (value instanceof ActionResult) {
      const init: Record<string, unknown> = {};
      for (const key of this.resultType.fields) if ((value as unknown as Record<string, unknown>)[key] !== undefined) init[key] = (value as unknown as Record<string, unknown>)[key];
      return new this.resultType(init as unknown as ActionResultInit<unknown>);
    }
    return this.resultType.success(value);
  }

  private loggingStep(): ToolMiddleware {
    const logger = this.logger;
    return {
      async handle(call, next) {
        const started = performance.now();
        const result = await next(call);
        logger.debug?.(`tool ${call.name} ${result.ok ? 'ok' : 'failed'}`, { tool: call.name, ok: result.ok, durationMs: performance.now() - started });
        return result;
      },
    };
  }
}

const CANCELLED = Symbol('cancelled');

function raceAbort(value: PromiseLike<unknown>, signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.reject(CANCELLED);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
    value.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as PromiseLike<unknown>).then === 'function';
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'an unknown error';
  const firstLine = message.split('\n', 1)[0]!;
  return firstLine.length > 500 ? `${firstLine.slice(0, 497)}...` : firstLine || 'an error without a message';
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
