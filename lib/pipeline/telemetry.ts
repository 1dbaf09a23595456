import type { ToolContext } from '../context/tool-context';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';

/**
 * Facts a pipeline step records on a call's trace (the permission decision, say): attribute names of the recording
 * step's own namespace (`agenttoolkit.permission.behavior`), values a trace can hold.
 */
export type TraceAttributes = Readonly<Record<string, string | number | boolean>>;

/** What a {@link ToolTelemetry} sees of a call as it starts (before resolution, validation and middleware ran). */
export interface CallStart {
  /** The tool name the model sent (a registered name, or one that resolves to nothing). */
  readonly name: string;
  /** The registered tool of that name, when there is one; `undefined` for an unknown name. */
  readonly tool: Tool | undefined;
  /** The provider's id for this call (`ExecuteOptions.callId`), when the host passed one. */
  readonly callId: string | undefined;
  /** The arguments as the model sent them (an object, or JSON text), before validation. */
  readonly args: unknown;
  /** The call's context (for a description that depends on it). */
  readonly context: ToolContext;
  /** The call's signal: aborted when the call was cancelled. */
  readonly signal: AbortSignal | undefined;
  /** Facts the caller already knows (`ExecuteOptions.traceAttributes`), recorded with the call. */
  readonly attributes: TraceAttributes | undefined;
  /**
   * The trace context a remote caller sent with the call (`ExecuteOptions.traceContext`: an MCP request's
   * `params._meta`, with `traceparent`, `tracestate` and `baggage`): the call continues that trace.
   */
  readonly traceContext: Readonly<Record<string, unknown>> | undefined;
}

/** One traced call: the handle a {@link ToolTelemetry} returns for a call it records. */
export interface CallTrace {
  /**
   * Runs `fn` (the whole pipeline of the call) with this call as the current trace context, so that what the tool
   * starts (a sandbox execution, an MCP request) is recorded as its child. Returns what `fn` returns.
   */
  run<T>(fn: () => T): T;
  /** Adds facts a pipeline step learned while the call ran (see {@link TraceAttributes}). */
  annotate(attributes: TraceAttributes): void;
  /** Ends the call with the result the caller receives (after middleware and output budgets). */
  end(result: ActionResult<unknown>): void;
}

/**
 * The port through which the registry reports each call it executes (`ToolsOptions.telemetry`), so that tracing
 * backends plug in without the core knowing them: `agenttoolkit/otel` provides the OpenTelemetry one. Nothing here
 * may fail a call: the registry ignores a telemetry that throws.
 */
export interface ToolTelemetry {
  /**
   * Whether anything records calls right now (a tracer or meter provider is registered). Asked before each call,
   * so it must be cheap; while it answers false the registry does not call {@link startCall} and the call runs as
   * without telemetry.
   */
  isRecording(): boolean;
  /**
   * Called as `tools.execute` or `tools.stream` starts a call. Return `undefined` to leave the call untraced (no
   * tracer or meter is listening): the call then runs exactly as without telemetry.
   */
  startCall(start: CallStart): CallTrace | undefined;
}
