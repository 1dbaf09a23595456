/**
 * A spec-only sandbox implementing the port's shell and read-only contract over the host's real shells: `shell:
 * 'bash'` runs `/bin/bash -c`, the default `/bin/sh -c` (dash here); `readOnly` runs the command under bubblewrap
 * with the whole file system bound read-only and no network. It records every call's options. It stands in for the
 * backends until they implement the contract themselves.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { Sandbox, SandboxCapabilities, SandboxExecuteOptions, SandboxResult } from '../../../lib/sandbox';

export class ContractSandbox implements Sandbox {
  readonly calls: Array<{ command: string; options: SandboxExecuteOptions }> = [];
  capabilityCalls = 0;

  constructor(
    private readonly offered: SandboxCapabilities,
    private readonly cwd: string,
  ) {}

  capabilities(): Promise<SandboxCapabilities> {
    this.capabilityCalls++;
    return Promise.resolve(this.offered);
  }

  execute(command: string, options: SandboxExecuteOptions = {}): Promise<SandboxResult> {
    this.calls.push({ command, options });
    const shell = options.shell ?? 'posix';
    if (!this.offered.shells.includes(shell)) return Promise.reject(new Error(`SHELL_UNAVAILABLE: ${shell}`));
    if (options.readOnly === true && !this.offered.readOnly) return Promise.reject(new Error('READ_ONLY_UNSUPPORTED'));
    const program = shell === 'bash' ? '/bin/bash' : '/bin/sh';
    const argv = options.readOnly === true
      ? ['bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--die-with-parent', '--chdir', this.cwd, program, '-c', command]]
      : [program, ['-c', command]];
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0] as string, argv[1] as string[], { cwd: this.cwd, env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: this.cwd, ...options.env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ exitCode: code, stdout, stderr, timedOut: false, truncated: false, durationMs: Date.now() - started }));
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Why the read-only mode of {@link ContractSandbox} cannot run here (no working bwrap), or undefined. */
export function contractReadOnlyMissing(): string | undefined {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--die-with-parent', '/bin/true'], { stdio: 'ignore' });
  return probe.status === 0 ? undefined : 'bubblewrap does not work here';
}
