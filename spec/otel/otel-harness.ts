import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';

/** A metric reader that exports nothing on its own: the spec collects when it wants to read. */
class CollectingReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** The real OpenTelemetry SDK wired to memory: spans in an in-memory exporter, metrics through a collecting reader. */
export function otelSdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    span: (name: string): ReadableSpan => {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`expected one span '${name}', found ${found.length}: ${exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
      return found[0]!;
    },
    /** The data points of `gen_ai.execute_tool.duration` collected so far. */
    durations: async (): Promise<HistogramMetricData['dataPoints']> => {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'gen_ai.execute_tool.duration');
      return metric === undefined ? [] : (metric as HistogramMetricData).dataPoints;
    },
    /** The unit the duration histogram declares. */
    durationUnit: async (): Promise<string | undefined> => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'gen_ai.execute_tool.duration')?.descriptor.unit;
    },
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** Registers an AsyncLocalStorage context manager for the spec file (what the Node SDK does for a host). */
export function withContextManager(): void {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => context.setGlobalContextManager(manager.enable()));
  afterAll(() => context.disable());
}

/** The span id of a span's parent (undefined for a root span). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
