import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Tools } from '../../lib';
import { openTelemetry, SANDBOX_EXECUTE_SPAN, tracedSandbox } from '../../lib/otel';
import { SandboxPolicy, UnsafeLocalSandbox, type Sandbox } from '../../lib/sandbox';
import { otelSdk, parentOf, withContextManager } from './otel-harness';

withContextManager();

describe('tracedSandbox: sandbox executions as child spans of the tool call', () => {
  let sdk: ReturnType<typeof otelSdk>;
  let local: UnsafeLocalSandbox;
  beforeEach(() => {
    sdk = otelSdk();
    local = new UnsafeLocalSandbox(new SandboxPolicy());
  });
  afterEach(async () => {
    await local.close();
    await sdk.shutdown();
  });

  function shellTool(sandbox: Sandbox) {
    const tools = new Tools({ telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider }), logger: { warn: () => undefined, error: () => undefined } });
    tools.action({ name: 'run', description: 'Run a command.', params: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } as never }, async ({ cmd }: { cmd: string }) => {
      const result = await sandbox.execute(cmd, { timeoutMs: 5_000 });
      return `${result.exitCode}:${result.stdout.trim()}`;
    });
    return tools;
  }

  it('records each execute under the execute_tool span, with exit code and no command by default', async () => {
    const sandbox = tracedSandbox(local, { tracerProvider: sdk.tracerProvider });
    const tools = shellTool(sandbox);
    expect((await tools.execute('run', { cmd: 'echo hello; exit 3' }, { approved: true })).result).toBe('3:hello');
    const call = sdk.span('execute_tool run');
    const exec = sdk.span(SANDBOX_EXECUTE_SPAN);
    expect(parentOf(exec)).toBe(call.spanContext().spanId);
    expect(exec.kind).toBe(SpanKind.INTERNAL);
    expect(exec.attributes).toEqual({ 'agenttoolkit.sandbox.backend': 'UnsafeLocalSandbox', 'agenttoolkit.sandbox.exit_code': 3, 'agenttoolkit.sandbox.timed_out': false, 'agenttoolkit.sandbox.truncated': false });
    expect(exec.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records the command only through recordCommand, and nothing when that hook throws', async () => {
    const redacting = shellTool(tracedSandbox(local, { tracerProvider: sdk.tracerProvider, recordCommand: (cmd) => cmd.replace(/s3cr3t/g, '***') }));
    await redacting.execute('run', { cmd: 'echo s3cr3t' }, { approved: true });
    expect(sdk.span(SANDBOX_EXECUTE_SPAN).attributes['agenttoolkit.sandbox.command']).toBe('echo ***');
    const throwing = tracedSandbox(local, {
      tracerProvider: sdk.tracerProvider,
      recordCommand: () => {
        throw new Error('hook broke');
      },
    });
    expect((await throwing.execute('echo ok')).stdout).toBe('ok\n');
    expect(sdk.spans().at(-1)!.attributes['agenttoolkit.sandbox.command']).toBeUndefined();
  });

  it('marks a timed-out command and a throwing execute as errors, and passes the other members through', async () => {
    const sandbox = tracedSandbox(local, { tracerProvider: sdk.tracerProvider });
    expect(await sandbox.capabilities()).toEqual(await local.capabilities());
    const slow = await sandbox.execute('sleep 30', { timeoutMs: 200 });
    expect(slow.timedOut).toBe(true);
    const timedOut = sdk.spans().at(-1)!;
    expect([timedOut.attributes['error.type'], timedOut.attributes['agenttoolkit.sandbox.exit_code'], timedOut.status.code]).toEqual(['timeout', -1, SpanStatusCode.ERROR]);
    await sandbox.close();
    await expect(sandbox.execute('echo late')).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
    const closed = sdk.spans().at(-1)!;
    expect([closed.attributes['error.type'], closed.status.code]).toEqual(['SandboxError', SpanStatusCode.ERROR]);
  });
});
