import { randomUUID } from 'node:crypto';
import type { ToolContext } from '../context/tool-context';
import { OutputBudgets } from '../budget/output-budgets';
import { isActionResult, type ActionResult } from '../result';
import { asLastChunk, collectChunks, isStreamed, toChunks, valueToChunk } from '../streaming/to-chunks';
import { ToolResultState, type ToolChunk } from '../streaming/tool-chunk';
import type { ToolResponse } from '../streaming/tool-response';
import { externalRequestChunk } from '../tool/external-chunk';
import { ExternalExecutionRequest } from '../tool/external-execution';
import type { Invocation, Tool } from '../tool/tool';
import { CANCELLED, isThenable, NEVER_ABORTED, raceAbort } from './await-call';
import type { Outcomes } from './outcomes';
import type { ToolCall } from './tool-call';

/**
 * The invoke step, innermost in the pipeline: it resolves injected arguments, awaits sync
 * and async bodies alike and wraps a raw return value. Two paths: {@link run}, the plain one (one asynchronous hop, no
 * per-call allocation beyond the invocation record), and the chunk path for external tools, per-tool middleware and
 * `tools.stream` consumers.
 */
export class InvokeStep<R extends ActionResult<unknown>> {
  private readonly handlers = new WeakMap<Tool, Handlers<R>>();
  /** The last tool {@link handlersOf} answered for, and its reactions: a registry's calls repeat tools, a map lookup costs more. */
  private lastTool: Tool | undefined;
  private lastHandlers: Handlers<R> | undefined;
  /** The invocation of calls without a signal in the last context seen: shared (frozen), so such a call allocates none. */
  private plainInvocation: Invocation = Object.freeze({ context: undefined as unknown as ToolContext, signal: NEVER_ABORTED });

  /** @param budgets - the registry's output budgets, applied to streamed output as it streams. */
  constructor(
    private readonly outcomes: Outcomes<R>,
    private readonly budgets?: OutputBudgets,
  ) {}

  /** The innermost handler of the middleware chain: the plain path, or the chunk path when the call needs it. */
  invokeCall(call: ToolCall): Promise<R> {
    if (call.tool.hasChunkPipeline || call.onChunk !== undefined) return this.invokeChunked(call);
    return this.run(call.tool, call.params, call.context, call.signal, call.name);
  }

  /**
   * Runs the tool and wraps what it returns; a streamed return value is accumulated into one result. A body that
   * returns a plain value is answered without an asynchronous step of its own; a promise is settled with one reaction
   * (the same number of turns as awaiting it).
   */
  run(tool: Tool, params: Record<string, unknown>, context: ToolContext, signal: AbortSignal, name: string): Promise<R> {
    let value: unknown;
    try {
      value = tool.invoke(params, signal === NEVER_ABORTED ? this.invocationIn(context) : { context, signal });
      if (!isThenable(value)) return isStreamed(value) ? this.collect(tool, name, signal, value) : Promise.resolve(this.settle(name, value));
    } catch (error) {
      return Promise.resolve(this.outcomes.toolFailure(name, error));
    }
    if (signal === NEVER_ABORTED && name === tool.name) {
      const handlers = this.handlersOf(tool);
      return Promise.resolve(value).then(handlers.settled, handlers.failed);
    }
    if (signal === NEVER_ABORTED) {
      return Promise.resolve(value).then(
        (settled) => this.settleAwaited(tool, name, signal, settled),
        (error: unknown) => this.outcomes.toolFailure(name, error),
      );
    }
    return this.raced(tool, name, value, signal);
  }

  /**
   * What `value` settles to, wrapped, or the cancelled result as soon as `signal` aborts, in one promise (the work of
   * `raceAbort` and the reaction to it, without the promise between them). As in `raceAbort`, the abort listener is
   * added one microtask later, only when `value` is still pending then, and a `value` that loses keeps a rejection
   * handler.
   */
  private raced(tool: Tool, name: string, value: PromiseLike<unknown>, signal: AbortSignal): Promise<R> {
    if (signal.aborted) {
      value.then(undefined, () => undefined);
      return Promise.resolve(this.outcomes.toolFailure(name, CANCELLED));
    }
    return new Promise<R>((resolve) => {
      let settled = false;
      let onAbort: (() => void) | undefined;
      // Whether the call has its answer; a value that settles after the abort is never wrapped (nor logged).
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
        return true;
      };
      value.then(
        (v) => finish() && resolve(this.settleAwaited(tool, name, signal, v)),
        (error: unknown) => finish() && resolve(this.outcomes.toolFailure(name, error)),
      );
      // A promise reaction, not queueMicrotask: Node allocates an AsyncResource for each queueMicrotask callback.
      void Promise.resolve().then(() => {
        if (settled) return;
        onAbort = () => finish() && resolve(this.outcomes.toolFailure(name, CANCELLED));
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      });
    });
  }

  /** The shared invocation of a call without a signal in `context`. */
  private invocationIn(context: ToolContext): Invocation {
    if (this.plainInvocation.context !== context) this.plainInvocation = Object.freeze({ context, signal: NEVER_ABORTED });
    return this.plainInvocation;
  }

  /** The reactions to a promise `tool` returned on a call without a signal, made once per tool (none per call). */
  private handlersOf(tool: Tool): Handlers<R> {
    if (tool === this.lastTool) return this.lastHandlers!;
    let handlers = this.handlers.get(tool);
    if (handlers === undefined) {
      const name = tool.name;
      const type = this.outcomes.resultType;
      handlers = {
        // A primitive (the usual return value) is wrapped at once: it is neither a stream nor a result.
        settled: (value) => (value === null || (typeof value !== 'object' && typeof value !== 'function') ? type.success(value) : this.settleAwaited(tool, name, NEVER_ABORTED, value)),
        failed: (error) => this.outcomes.toolFailure(name, error),
      };
      this.handlers.set(tool, handlers);
    }
    this.lastTool = tool;
    this.lastHandlers = handlers;
    return handlers;
  }

  /** What a promise the tool returned settled to: a stream is accumulated, anything else wrapped. */
  private settleAwaited(tool: Tool, name: string, signal: AbortSignal, value: unknown): R | Promise<R> {
    try {
      if (isStreamed(value)) return this.collect(tool, name, signal, value);
    } catch (error) {
      return this.outcomes.toolFailure(name, error);
    }
    return this.settle(name, value);
  }

  /** What the tool returned, wrapped (see {@link returned}); a bug in wrapping it is an internal error. */
  private settle(name: string, value: unknown): R {
    try {
      return this.returned(name, value);
    } catch (error) {
      return this.outcomes.internalError(name, error);
    }
  }

  /** A streamed return value accumulated into one result, within the tool's output budget as it streams. */
  private async collect(tool: Tool, name: string, signal: AbortSignal, value: unknown): Promise<R> {
    try {
      const limit = this.budgets?.limitStream(tool);
      const result = this.streamed(name, await collectChunks(OutputBudgets.limited(limit, toChunks(value)), signal));
      return limit === undefined ? result : limit.finish(result);
    } catch (error) {
      return this.outcomes.toolFailure(name, error);
    }
  }

  /** Wraps what the tool returned; a failed result it returned is an expected failure and is logged as one. */
  private returned(name: string, value: unknown): R {
    const result = this.outcomes.conform(value);
    if (!result.ok && isActionResult(value)) this.outcomes.expectedFailure(name, result.error);
    return result;
  }

  /**
   * The result of a streamed call (a streaming body, or per-tool middleware): a stream that ended in an `ERROR` chunk
   * is the tool's expected failure and is logged as one; a cancelled one is not a failure of the tool.
   */
  private streamed(name: string, response: ToolResponse): R {
    const result = response.toResult(this.outcomes.resultType, name);
    if (response.state === ToolResultState.ERROR) this.outcomes.expectedFailure(name, result.error);
    return result;
  }

  /** External tools yield a request instead of running; per-tool middleware and chunk consumers see every chunk. */
  private async invokeChunked(call: ToolCall): Promise<R> {
    const { tool, params, context, signal, name, onChunk } = call;
    if (tool.isExternalTool) {
      const request = new ExternalExecutionRequest(call.callId ?? randomUUID(), name, Object.freeze(params));
      await onChunk?.(externalRequestChunk(request));
      return this.outcomes.resultType.success(request);
    }
    try {
      let source: AsyncIterable<ToolChunk>;
      if (tool.middlewares.length > 0) source = tool.stream(params, { context, signal });
      else {
        let value = tool.invoke(params, { context, signal });
        if (isThenable(value)) value = await raceAbort(value, signal);
        if (!isStreamed(value)) {
          await onChunk?.(asLastChunk(valueToChunk(value))); // a plain value is the call's one chunk
          return this.returned(name, value);
        }
        source = toChunks(value);
      }
      const limit = this.budgets?.limitStream(tool);
      const result = this.streamed(name, await collectChunks(OutputBudgets.limited(limit, source), signal, onChunk));
      return limit === undefined ? result : limit.finish(result);
    } catch (error) {
      return this.outcomes.toolFailure(name, error);
    }
  }
}

/** The two reactions of {@link InvokeStep.run} to a promise a tool returned. */
interface Handlers<R> {
  readonly settled: (value: unknown) => R | Promise<R>;
  readonly failed: (error: unknown) => R;
}
