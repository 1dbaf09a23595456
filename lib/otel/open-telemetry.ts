import {
  context as contextApi,
  createNoopMeter,
  metrics,
  propagation,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace as traceApi,
  type Attributes,
  type Context,
  type Histogram,
  type MeterProvider,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { ActionResult } from '../result';
import type { CallStart, CallTrace, ToolTelemetry, TraceAttributes } from '../pipeline/telemetry';
import { EXECUTE_TOOL, EXECUTE_TOOL_DURATION, GenAiAttributes, INSTRUMENTATION_SCOPE, type ToolErrorType } from './attribute-names';
import { recordedContent, type ContentRecorder } from './tool-call-content';
import { carrierGetter } from './carrier';
import type { McpClientTelemetry, McpRequestStart, McpRequestTrace } from '../mcp/client/mcp-telemetry';
import { startMcpRequestSpan } from './mcp-request-span';

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** The tracer provider spans go to. Default: the global one (`trace.setGlobalTracerProvider`), looked up per call. */
  readonly tracerProvider?: TracerProvider | undefined;
  /** The meter provider the duration histogram goes to. Default: the global one (`metrics.setGlobalMeterProvider`). */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * Opt-in content capture: with it, each call's arguments (`gen_ai.tool.call.arguments`) and a successful call's
   * result (`gen_ai.tool.call.result`) are offered to this hook, and what it returns is recorded. Without it (the
   * default) no content is recorded: arguments and results may hold personal or secret data.
   */
  readonly recordContent?: ContentRecorder | undefined;
}

/**
 * The key under which `@opentelemetry/api` 1.x keeps its global registrations (providers, propagator, context
 * manager) on `globalThis`: while it is unset nothing was ever registered, which one property read tells.
 */
const GLOBAL_API = Symbol.for('opentelemetry.js.api.1');

/** Bucket boundaries advised for the duration histogram, in seconds: powers of two from 10 ms to about 82 s. */
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/** A name the model sent is cut to this many characters in a span name (registered names have at most 64). */
const MAX_NAME = 100;

/**
 * The OpenTelemetry instrumentation of a registry: pass it as `new Tools({ telemetry: openTelemetry() })`. Every call
 * of `tools.execute` and `tools.stream` (and so of `runToolCalls`, `executeToolCalls`, the framework adapters and a
 * served MCP registry) becomes:
 *
 * - a span `execute_tool {gen_ai.tool.name}` of kind INTERNAL under the current span, with `gen_ai.operation.name`
 *   (`execute_tool`), `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.type` (`function`, or `extension` for a
 *   tool of a remote MCP server), `gen_ai.tool.description`, the permission decision (`agenttoolkit.permission.*`)
 *   when one was made, and on failure `error.type` ({@link ToolErrorType}) with an ERROR status;
 * - a measurement of `gen_ai.execute_tool.duration` (histogram, seconds) with `gen_ai.operation.name`,
 *   `gen_ai.tool.name` (`_OTHER` for a name no tool is registered under, so a model cannot grow the metric's
 *   cardinality) and `error.type` on failure.
 *
 * It also reports MCP requests (`McpClientTelemetry`): an `McpClientTools` connection of the registry makes each
 * `tools/call`, `tools/list` and `logging/setLevel` a span `{mcp.method.name} {target}` of kind CLIENT with the MCP
 * conventions' attributes (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/), and sends its context in the
 * request's `params._meta` through the globally registered propagator.
 *
 * What the tool starts inside the call (a sandbox execution through {@link tracedSandbox}, a request to a remote MCP
 * server) runs in the span's context and nests under it, with an async context manager registered by the host (the
 * Node SDK registers one). While no tracer provider and no meter provider is registered, a call costs one check of
 * each and runs untraced.
 *
 * Names follow the OpenTelemetry semantic conventions for generative AI (status Development; SDKs that gate them
 * enable them with `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`):
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/. See docs/observability.md.
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): ToolTelemetry & McpClientTelemetry {
  return new OpenTelemetryTelemetry(options);
}

class OpenTelemetryTelemetry implements ToolTelemetry, McpClientTelemetry {
  private seenTracerProvider: TracerProvider | undefined;
  private tracer: Tracer | undefined;
  private seenMeterProvider: MeterProvider | undefined;
  private histogram: Histogram | undefined;
  readonly recordContent: ContentRecorder | undefined;
  /** Whether a provider was passed: then the global registry is not the only place one can come from. */
  private readonly explicit: boolean;

  constructor(private readonly options: OpenTelemetryOptions) {
    this.recordContent = options.recordContent;
    this.explicit = options.tracerProvider !== undefined || options.meterProvider !== undefined;
  }

  isRecording(): boolean {
    if (this.neverRegistered()) return false;
    return this.currentTracer() !== undefined || this.currentHistogram() !== undefined;
  }

  startCall(start: CallStart): CallTrace | undefined {
    const tracer = this.currentTracer();
    const histogram = this.currentHistogram();
    if (tracer === undefined && histogram === undefined) return undefined;
    return new OpenTelemetryCallTrace(this, start, tracer, histogram);
  }

  startMcpRequest(start: McpRequestStart): McpRequestTrace | undefined {
    const tracer = this.neverRegistered() ? undefined : this.currentTracer();
    return tracer === undefined ? undefined : startMcpRequestSpan(tracer, start);
  }

  /** Whether no provider was passed and nothing was ever registered globally: then nothing can be listening. */
  private neverRegistered(): boolean {
    return !this.explicit && (globalThis as Record<symbol, unknown>)[GLOBAL_API] === undefined;
  }

  /** The tracer of the configured or global provider; `undefined` while the global one has no provider behind it. */
  private currentTracer(): Tracer | undefined {
    const provider = this.options.tracerProvider ?? traceApi.getTracerProvider();
    const target = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
    if (target !== this.seenTracerProvider) {
      this.seenTracerProvider = target;
      const unset = provider instanceof ProxyTracerProvider && provider.getDelegateTracer(INSTRUMENTATION_SCOPE) === undefined;
      this.tracer = unset ? undefined : target.getTracer(INSTRUMENTATION_SCOPE);
    }
    return this.tracer;
  }

  /** The duration histogram of the configured or global meter provider; `undefined` for the no-op one. */
  private currentHistogram(): Histogram | undefined {
    const provider = this.options.meterProvider ?? metrics.getMeterProvider();
    if (provider !== this.seenMeterProvider) {
      this.seenMeterProvider = provider;
      const meter = provider.getMeter(INSTRUMENTATION_SCOPE);
      this.histogram =
        meter === createNoopMeter()
          ? undefined
          : meter.createHistogram(EXECUTE_TOOL_DURATION, { unit: 's', description: 'Duration of tool executions.', advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
    }
    return this.histogram;
  }
}

/** One call's span (when a tracer listens) and measurement (when a meter does). */
class OpenTelemetryCallTrace implements CallTrace {
  private readonly startedAt = performance.now();
  private readonly span: Span | undefined;
  private readonly spanContext: Context | undefined;

  constructor(
    private readonly owner: OpenTelemetryTelemetry,
    private readonly start: CallStart,
    tracer: Tracer | undefined,
    private readonly histogram: Histogram | undefined,
  ) {
    if (tracer === undefined) return;
    const parent = start.traceContext === undefined ? contextApi.active() : propagation.extract(contextApi.active(), start.traceContext, carrierGetter);
    const name = typeof start.name === 'string' ? start.name : String(start.name);
    this.span = tracer.startSpan(`${EXECUTE_TOOL} ${name.length > MAX_NAME ? name.slice(0, MAX_NAME) : name}`, { kind: SpanKind.INTERNAL, attributes: this.startAttributes(name) }, parent);
    this.spanContext = traceApi.setSpan(parent, this.span);
  }

  run<T>(fn: () => T): T {
    return this.spanContext === undefined ? fn() : contextApi.with(this.spanContext, fn);
  }

  annotate(attributes: TraceAttributes): void {
    this.span?.setAttributes(attributes);
  }

  end(result: ActionResult<unknown>): void {
    const errorType = result.ok ? undefined : this.errorType();
    if (this.span !== undefined) {
      if (errorType !== undefined) {
        this.span.setAttribute(GenAiAttributes.ERROR_TYPE, errorType);
        this.span.setStatus({ code: SpanStatusCode.ERROR });
      } else if (this.owner.recordContent !== undefined && this.span.isRecording()) {
        const text = recordedContent(this.owner.recordContent, { kind: 'result', toolName: this.start.name, callId: this.start.callId, value: result.result });
        if (text !== undefined) this.span.setAttribute(GenAiAttributes.TOOL_CALL_RESULT, text);
      }
      this.span.end();
    }
    if (this.histogram !== undefined) {
      const attributes: Attributes = { [GenAiAttributes.OPERATION_NAME]: EXECUTE_TOOL, [GenAiAttributes.TOOL_NAME]: this.start.tool === undefined ? '_OTHER' : this.start.tool.name };
      if (errorType !== undefined) attributes[GenAiAttributes.ERROR_TYPE] = errorType;
      this.histogram.record((performance.now() - this.startedAt) / 1000, attributes);
    }
  }

  private errorType(): ToolErrorType {
    if (this.start.tool === undefined) return 'unknown_tool';
    return this.start.signal?.aborted === true ? 'cancelled' : 'tool_error';
  }

  private startAttributes(name: string): Attributes {
    const { tool, callId } = this.start;
    const attributes: Attributes = { [GenAiAttributes.OPERATION_NAME]: EXECUTE_TOOL, [GenAiAttributes.TOOL_NAME]: name };
    if (callId !== undefined) attributes[GenAiAttributes.TOOL_CALL_ID] = callId;
    if (tool !== undefined) {
      attributes[GenAiAttributes.TOOL_TYPE] = tool.isMcp ? 'extension' : 'function';
      const description = describe(this.start);
      if (description !== undefined) attributes[GenAiAttributes.TOOL_DESCRIPTION] = description;
    }
    if (this.start.attributes !== undefined) Object.assign(attributes, this.start.attributes);
    const args = recordedContent(this.owner.recordContent, { kind: 'arguments', toolName: name, callId, value: this.start.args });
    if (args !== undefined) attributes[GenAiAttributes.TOOL_CALL_ARGUMENTS] = args;
    return attributes;
  }
}

/** The tool's description in the call's context; a description source that throws is left out. */
function describe(start: CallStart): string | undefined {
  try {
    return start.tool?.resolveDescription(start.context);
  } catch {
    return undefined;
  }
}
