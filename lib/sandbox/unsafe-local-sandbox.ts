import { checkCall } from './call-options';
import { SandboxError } from './errors';
import { Lifecycle } from './lifecycle';
import type { SandboxPolicy } from './policy';
import { runProcessTree } from './process-tree';
import type { ExecuteOptions, Sandbox, SandboxResult } from './sandbox';
import { resolveWorkingDirectory } from './working-directory';

/**
 * Runs commands directly on the host with `/bin/sh -c`, for trusted commands only.
 *
 * Enforced: the working-directory check, the timeout (the whole process tree is SIGKILLed, including descendants
 * that left the process group with `setsid`, found on Linux through an environment tag in `/proc`), the output cap,
 * cancellation, and refusal after close.
 *
 * NOT enforced, by design (the seed's UnsafeLocalSandbox): readable/writable paths, network access, memory, pids and
 * CPU limits. The command sees the host's whole environment plus the policy's and the call's variables, and can read,
 * write and reach anything the Node process can. A command that clears its own environment can also escape the
 * timeout's sweep. Use `BubblewrapSandbox` or `DockerSandbox` for anything a model wrote.
 */
export class UnsafeLocalSandbox implements Sandbox {
  private readonly lifecycle = new Lifecycle('UnsafeLocalSandbox');

  /** @param policy - cwd, environment, timeout and output cap are used; the rest is ignored (see the class doc). */
  constructor(readonly policy: SandboxPolicy) {}

  /** See {@link Sandbox.execute}. `oomKilled` is never set. */
  async execute(command: string, options: ExecuteOptions = {}): Promise<SandboxResult> {
    return this.lifecycle.run(options.signal, async (signal) => {
      const call = checkCall(this.policy, command, options);
      const cwd = await resolveWorkingDirectory(this.policy, options.cwd);
      return runProcessTree({
        file: '/bin/sh',
        args: ['-c', command],
        env: { ...stringEnv(process.env), ...call.env },
        cwd,
        timeoutMs: call.timeoutMs,
        maxOutputBytes: call.maxOutputBytes,
        signal,
        tagProcesses: true,
        spawnError: (cause) => new SandboxError('ENGINE_UNAVAILABLE', `Could not start /bin/sh: ${cause.message}`, { cause }),
      });
    });
  }

  /** Kills running commands and refuses new ones. Idempotent. */
  async close(): Promise<void> {
    await this.lifecycle.close();
  }

  /** Same as {@link UnsafeLocalSandbox.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
