import { ToolEffect } from '../../../lib';
import { BashTool, BuiltinToolError, bashTool } from '../../../lib/builtins';
import { BubblewrapSandbox, SandboxPolicy, UnsafeLocalSandbox, type Sandbox, type SandboxExecuteOptions, type SandboxResult } from '../../../lib/sandbox';
import { DockerSandbox } from '../../../lib/sandbox/docker';
import { Tools } from '../../../lib';
import { describeWithEngine, dockerEngine } from '../../sandbox/helpers';
import { bashBehaviour } from './bash-tool-behaviour';

describe('Bash over UnsafeLocalSandbox', () => {
  bashBehaviour((policy) => new UnsafeLocalSandbox(policy));
});

describeWithEngine('bwrap', 'Bash over BubblewrapSandbox (real bwrap)', () => {
  bashBehaviour((policy) => new BubblewrapSandbox(policy));
});

describeWithEngine('docker', 'Bash over DockerSandbox (real Docker engine)', () => {
  const { host, image } = dockerEngine() ?? { host: 'unix:///engine-not-configured.sock', image: 'not-configured' };
  bashBehaviour((policy) => new DockerSandbox(image, policy, { connection: host, labels: { 'io.agenttoolkit.spec-run': `bash-${process.pid}` } }));
});

describe('Bash', () => {
  it('declares a process effect, is neither read-only nor concurrency-safe', () => {
    const bash = bashTool({ sandbox: new UnsafeLocalSandbox(new SandboxPolicy()) });
    expect(bash).toBeInstanceOf(BashTool);
    expect(bash.name).toBe('Bash');
    expect([...bash.effects]).toEqual([ToolEffect.SPAWNS_PROCESS]);
    expect(bash.isReadOnly).toBe(false);
    // No read-only shortcut: the engine's shortcut would skip checkShellCommand (credential reads, redirections).
    for (const command of ['git status', 'ls', 'cat .env']) expect(bash.checkReadOnly({ command })).toBe(false);
    expect(bash.isConcurrencySafe).toBe(false);
  });

  it('refuses a sandbox that is not one', () => {
    expect(() => bashTool({ sandbox: {} as Sandbox })).toThrow(BuiltinToolError);
  });

  it('falls back to the buffered result with a sandbox that does not stream, and reports a sandbox error as a failed result', async () => {
    const buffered: Sandbox = {
      execute: (command: string, _options?: SandboxExecuteOptions): Promise<SandboxResult> =>
        command === 'boom'
          ? Promise.reject(new Error('engine gone'))
          : Promise.resolve({ exitCode: 0, stdout: 'all at once\n', stderr: '', timedOut: false, truncated: true, durationMs: 1 }),
      close: () => Promise.resolve(),
      [Symbol.asyncDispose]: () => Promise.resolve(),
    };
    const tools = new Tools().register(bashTool({ sandbox: buffered, name: 'Shell' }));
    const stream = tools.stream('Shell', { command: 'anything' });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(await stream.result).toMatchObject({ ok: true, result: "all at once\n[output past the sandbox's output limit was dropped]" });
    expect(await tools.execute('Shell', { command: 'boom' })).toMatchObject({ ok: false, error: 'Command could not run: boom\nengine gone' });
  });

  it('rejects a timeout above 600,000 ms as invalid params', async () => {
    const tools = new Tools().register(bashTool({ sandbox: new UnsafeLocalSandbox(new SandboxPolicy()) }));
    expect((await tools.execute('Bash', { command: 'true', timeout: 600_001 })).ok).toBe(false);
  });
});
