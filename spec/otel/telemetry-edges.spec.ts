import { metrics, trace } from '@opentelemetry/api';
import { Tools } from '../../lib';
import { openTelemetry, tracedSandbox } from '../../lib/otel';
import { SandboxPolicy, UnsafeLocalSandbox } from '../../lib/sandbox';
import { otelSdk, withContextManager } from './otel-harness';

withContextManager();

const quiet = { warn: () => undefined, error: () => undefined };

function echoTools(telemetry: ReturnType<typeof openTelemetry>) {
  const tools = new Tools({ telemetry, logger: quiet });
  tools.action({ name: 'echo', description: 'Echo.', params: { type: 'object', properties: { v: { type: 'string' } } } as never }, ({ v }: { v?: string }) => v ?? '');
  return tools;
}

describe('openTelemetry(): providers and edge cases', () => {
  let sdk: ReturnType<typeof otelSdk>;
  beforeEach(() => (sdk = otelSdk()));
  afterEach(() => sdk.shutdown());

  it('measures without tracing when only a meter provider is given', async () => {
    const tools = echoTools(openTelemetry({ meterProvider: sdk.meterProvider }));
    expect((await tools.execute('echo', { v: 'm' })).result).toBe('m');
    expect(sdk.spans()).toEqual([]);
    expect((await sdk.durations()).map((p) => [p.attributes['gen_ai.tool.name'], p.value.count])).toEqual([['echo', 1]]);
  });

  it('traces without measuring when only a tracer provider is given', async () => {
    const tools = echoTools(openTelemetry({ tracerProvider: sdk.tracerProvider }));
    await tools.execute('echo', { v: 't' });
    expect(sdk.spans().map((s) => s.name)).toEqual(['execute_tool echo']);
    expect(await sdk.durations()).toEqual([]);
  });

  it('measures through a global meter provider registered after the registry was built', async () => {
    const tools = echoTools(openTelemetry());
    await tools.execute('echo', {});
    metrics.setGlobalMeterProvider(sdk.meterProvider);
    try {
      await tools.execute('echo', {});
      expect((await sdk.durations()).map((p) => p.value.count)).toEqual([1]);
    } finally {
      metrics.disable();
    }
  });

  it('cuts a long unknown name in the span name and reads a non-string one as text', async () => {
    const tools = echoTools(openTelemetry({ tracerProvider: sdk.tracerProvider }));
    await tools.execute('x'.repeat(300), {});
    await tools.execute(42 as unknown as string, {});
    const [long, numeric] = sdk.spans();
    expect(long!.name).toBe(`execute_tool ${'x'.repeat(100)}`);
    expect(long!.attributes['gen_ai.tool.name']).toBe('x'.repeat(300));
    expect(numeric!.name).toBe('execute_tool 42');
  });

  it('records nothing from a redaction hook that returns something other than text', async () => {
    const tools = echoTools(openTelemetry({ tracerProvider: sdk.tracerProvider, recordContent: () => 42 as unknown as string }));
    await tools.execute('echo', { v: 'a' });
    const span = sdk.span('execute_tool echo');
    expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
  });

  it('tracedSandbox uses the global tracer provider by default, and records nothing without one', async () => {
    const local = new UnsafeLocalSandbox(new SandboxPolicy());
    try {
      const sandbox = tracedSandbox(local);
      expect((await sandbox.execute('echo untraced')).stdout).toBe('untraced\n');
      expect(sdk.spans()).toEqual([]);
      trace.setGlobalTracerProvider(sdk.tracerProvider);
      try {
        await sandbox.execute('echo traced');
        expect(sdk.spans().map((s) => s.name)).toEqual(['agenttoolkit.sandbox.execute']);
      } finally {
        trace.disable();
      }
    } finally {
      await local.close();
    }
  });
});
