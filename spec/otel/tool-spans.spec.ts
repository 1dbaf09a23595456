import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Tools, ToolEffect, runToolCalls, type ToolMiddleware, type ToolTelemetry } from '../../lib';
import { openTelemetry, type ContentRecorder } from '../../lib/otel';
import { PermissionEngine, PermissionMiddleware, PermissionMode } from '../../lib/permissions';
import { capturingLogger } from '../support/capturing-logger';
import { otelSdk, parentOf, withContextManager } from './otel-harness';

withContextManager();

const params = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false } as never;

function registry(sdk: ReturnType<typeof otelSdk>, extra: { recordContent?: ContentRecorder; middleware?: ToolMiddleware[] } = {}) {
  const telemetry = openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, recordContent: extra.recordContent });
  const tools = new Tools({ middleware: extra.middleware, telemetry, logger: capturingLogger() });
  tools.action({ name: 'add_numbers', description: 'Add two integers.', params, effects: [ToolEffect.READS_WORKSPACE] }, ({ a, b }: { a: number; b: number }) => a + b);
  tools.action({ name: 'explode', description: 'Always fails.', params: { type: 'object', properties: {} } as never, effects: [ToolEffect.READS_WORKSPACE] }, () => {
    throw new Error('boom');
  });
  return tools;
}

describe('openTelemetry(): one execute_tool span per call', () => {
  let sdk: ReturnType<typeof otelSdk>;
  beforeEach(() => (sdk = otelSdk()));
  afterEach(() => sdk.shutdown());

  it('names the span execute_tool {tool}, kind INTERNAL, with the GenAI attributes and no content by default', async () => {
    const tools = registry(sdk);
    const result = await tools.execute('add_numbers', { a: 2, b: 3 }, { callId: 'call_1' });
    expect(result.result).toBe(5);
    const span = sdk.span('execute_tool add_numbers');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.instrumentationScope.name).toBe('agenttoolkit');
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add_numbers',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Add two integers.',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks failures with error.type and an ERROR status: the tool failing, invalid arguments, an unknown tool, a cancelled call', async () => {
    const tools = registry(sdk);
    await tools.execute('explode', {});
    await tools.execute('add_numbers', { a: 'x' });
    await tools.execute('no_such_tool', {});
    const controller = new AbortController();
    controller.abort();
    await tools.execute('add_numbers', { a: 1, b: 2 }, { signal: controller.signal });
    const [explode, invalid, unknown, cancelled] = sdk.spans();
    expect([explode!.name, explode!.attributes['error.type'], explode!.status.code]).toEqual(['execute_tool explode', 'tool_error', SpanStatusCode.ERROR]);
    expect(invalid!.attributes['error.type']).toBe('tool_error');
    expect([unknown!.name, unknown!.attributes['error.type'], unknown!.attributes['gen_ai.tool.type']]).toEqual(['execute_tool no_such_tool', 'unknown_tool', undefined]);
    expect(cancelled!.attributes['error.type']).toBe('cancelled');
  });

  it('nests the span under the host active span, and what the tool starts under the tool span', async () => {
    const tools = registry(sdk);
    const hostTracer = sdk.tracerProvider.getTracer('host');
    tools.action({ name: 'fetch_page', description: 'Fetch.', params: { type: 'object', properties: {} } as never }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      hostTracer.startSpan('inner work').end();
      return 'ok';
    });
    await hostTracer.startActiveSpan('agent turn', async (turn) => {
      await tools.execute('fetch_page', {}, { approved: true });
      turn.end();
    });
    const turn = sdk.span('agent turn');
    const call = sdk.span('execute_tool fetch_page');
    const inner = sdk.span('inner work');
    expect(parentOf(call)).toBe(turn.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(turn.spanContext().traceId);
    expect(parentOf(inner)).toBe(call.spanContext().spanId);
    expect(trace.getSpan(context.active())).toBeUndefined();
  });

  it('records arguments and results only through the host redaction hook; a hook that throws records nothing', async () => {
    const seen: string[] = [];
    const tools = registry(sdk, {
      recordContent: (content) => {
        seen.push(`${content.kind} ${content.toolName} ${content.callId}`);
        if (content.kind === 'arguments') return JSON.stringify({ ...(content.value as object), b: '[redacted]' });
        return String(content.value);
      },
    });
    await tools.execute('add_numbers', { a: 2, b: 40 }, { callId: 'c9' });
    const span = sdk.span('execute_tool add_numbers');
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"a":2,"b":"[redacted]"}');
    expect(span.attributes['gen_ai.tool.call.result']).toBe('42');
    expect(seen).toEqual(['arguments add_numbers c9', 'result add_numbers c9']);

    const throwing = registry(sdk, {
      recordContent: () => {
        throw new Error('redactor broke');
      },
    });
    expect((await throwing.execute('add_numbers', { a: 1, b: 1 })).result).toBe(2);
    const last = sdk.spans().at(-1)!;
    expect(last.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(last.attributes['gen_ai.tool.call.result']).toBeUndefined();
  });

  it('records no result for a failed call, even with the hook', async () => {
    const tools = registry(sdk, { recordContent: (c) => `${c.kind}` });
    await tools.execute('explode', {});
    expect(sdk.span('execute_tool explode').attributes['gen_ai.tool.call.result']).toBeUndefined();
  });

  it('measures gen_ai.execute_tool.duration in seconds by tool and outcome, unknown names as _OTHER', async () => {
    const tools = registry(sdk);
    await tools.execute('add_numbers', { a: 1, b: 2 });
    await tools.execute('add_numbers', { a: 3, b: 4 });
    await tools.execute('explode', {});
    await tools.execute('made_up_by_the_model', {});
    const points = await sdk.durations();
    const byKey = Object.fromEntries(points.map((p) => [`${p.attributes['gen_ai.tool.name']}|${p.attributes['error.type'] ?? ''}`, p.value.count]));
    expect(byKey).toEqual({ 'add_numbers|': 2, 'explode|tool_error': 1, '_OTHER|unknown_tool': 1 });
    for (const p of points) expect(p.attributes['gen_ai.operation.name']).toBe('execute_tool');
    expect(await sdk.durationUnit()).toBe('s');
  });

  it('records the permission decision of PermissionMiddleware and of runToolCalls in the agenttoolkit namespace', async () => {
    const engine = new PermissionEngine({ settings: { allow: ['write_note'], deny: ['explode'] } });
    const tools = registry(sdk, { middleware: [new PermissionMiddleware(engine)] });
    tools.action({ name: 'write_note', description: 'Write a note.', params: { type: 'object', properties: {} } as never, effects: [ToolEffect.WRITES_WORKSPACE] }, () => 'written');
    expect((await tools.execute('write_note', {})).result).toBe('written');
    await tools.execute('explode', {});
    await tools.execute('add_numbers', { a: 1, b: 2 });
    const allowed = sdk.span('execute_tool write_note');
    expect(allowed.attributes).toMatchObject({ 'agenttoolkit.permission.behavior': 'allow', 'agenttoolkit.permission.reason': 'rule', 'agenttoolkit.permission.rule': 'write_note', 'agenttoolkit.permission.mode': PermissionMode.DEFAULT });
    expect(sdk.span('execute_tool add_numbers').attributes).toMatchObject({ 'agenttoolkit.permission.behavior': 'allow', 'agenttoolkit.permission.reason': 'read_only' });
    expect(sdk.span('execute_tool add_numbers').attributes['agenttoolkit.permission.rule']).toBeUndefined();
    const denied = sdk.span('execute_tool explode');
    expect(denied.attributes).toMatchObject({ 'agenttoolkit.permission.behavior': 'deny', 'agenttoolkit.permission.rule': 'explode', 'error.type': 'tool_error' });

    const batchSdk = otelSdk();
    const plain = registry(batchSdk);
    const outcome = await runToolCalls(plain, [{ id: 'c1', name: 'add_numbers', args: { a: 1, b: 1 } }], { engine: new PermissionEngine({ mode: PermissionMode.BYPASS }) });
    expect(outcome.ran[0]!.result.result).toBe(2);
    expect(batchSdk.span('execute_tool add_numbers').attributes).toMatchObject({ 'gen_ai.tool.call.id': 'c1', 'agenttoolkit.permission.behavior': 'allow', 'agenttoolkit.permission.reason': 'read_only', 'agenttoolkit.permission.mode': PermissionMode.BYPASS });
    await batchSdk.shutdown();
  });

  it('traces tools.stream calls too', async () => {
    const tools = registry(sdk);
    const stream = tools.stream('add_numbers', { a: 5, b: 5 });
    for await (const _chunk of stream) void _chunk;
    expect((await stream.result).result).toBe(10);
    expect(sdk.span('execute_tool add_numbers').attributes['gen_ai.tool.name']).toBe('add_numbers');
  });
});

describe('openTelemetry() without a provider', () => {
  it('starts no trace while no global tracer or meter provider is registered, and traces once one is', async () => {
    const started: string[] = [];
    const inner = openTelemetry();
    const spy: ToolTelemetry = {
      isRecording: () => {
        const recording = inner.isRecording();
        if (!recording) started.push('untraced');
        return recording;
      },
      startCall: (start) => {
        const call = inner.startCall(start);
        started.push(call === undefined ? 'untraced' : 'traced');
        return call;
      },
    };
    const tools = new Tools({ telemetry: spy });
    tools.action({ name: 'echo', description: 'Echo.', params: { type: 'object', properties: { v: { type: 'string' } } } as never }, ({ v }: { v?: string }) => v ?? '');
    expect((await tools.execute('echo', { v: 'x' })).result).toBe('x');

    const sdk = otelSdk();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      expect((await tools.execute('echo', { v: 'y' })).result).toBe('y');
      expect(sdk.spans().map((s) => s.name)).toEqual(['execute_tool echo']);
    } finally {
      trace.disable();
      await sdk.shutdown();
    }
    expect(started).toEqual(['untraced', 'traced']);
  });

  it('runs the call untraced, with one warning, when a telemetry throws', async () => {
    const logger = capturingLogger();
    const tools = new Tools({
      logger,
      telemetry: {
        isRecording: () => true,
        startCall: () => {
          throw new Error('exporter misconfigured');
        },
      },
    });
    tools.action({ name: 'echo', description: 'Echo.', params: { type: 'object', properties: {} } as never }, () => 'ok');
    expect((await tools.execute('echo', {})).result).toBe('ok');
    expect(logger.lines.join('\n')).toMatch(/failed to start a trace for 'echo'.*exporter misconfigured/);
  });

  it('runs the call untraced when the telemetry check throws', async () => {
    let started = 0;
    const tools = new Tools({
      telemetry: {
        isRecording: () => {
          throw new Error('broken check');
        },
        startCall: () => (started++, undefined),
      },
    });
    tools.action({ name: 'echo', description: 'Echo.', params: { type: 'object', properties: {} } as never }, () => 'ok');
    expect((await tools.execute('echo', {})).result).toBe('ok');
    expect(started).toBe(0);
  });

  it('still answers when a trace throws as it ends', async () => {
    const tools = new Tools({ telemetry: { isRecording: () => true, startCall: () => ({ run: (fn) => fn(), annotate: () => undefined, end: () => { throw new Error('end failed'); } }) } });
    tools.action({ name: 'echo', description: 'Echo.', params: { type: 'object', properties: {} } as never }, () => 'ok');
    expect((await tools.execute('echo', {})).result).toBe('ok');
  });
});
