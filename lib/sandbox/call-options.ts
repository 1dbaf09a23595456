import { cutText } from '../text/cut-text';
import { checkEnvironment } from './environment';
import { quoted, SandboxError } from './errors';
import { timeout, type SandboxPolicy } from './policy';
import type { SandboxExecuteOptions, SandboxOutputChunk, SandboxShell } from './sandbox';

/** The values of {@link SandboxExecuteOptions.shell}. */
export const SANDBOX_SHELLS: readonly SandboxShell[] = Object.freeze(['posix', 'bash']);

/**
 * The most bytes one argument or one `NAME=VALUE` variable may have, its terminating NUL included: Linux's
 * `MAX_ARG_STRLEN` (32 pages of 4 KiB; execve(2), "Limits on size of arguments and environment"). A longer one makes
 * `execve` fail with `E2BIG`.
 */
export const MAX_ARGUMENT_BYTES = 128 * 1024;

/**
 * The most bytes the command and the sandbox's variables may have together (each with its NUL). Linux allows a
 * quarter of the stack limit (2 MiB with the usual 8 MiB stack) for the arguments and the environment together; half
 * of that leaves room for the launcher's own arguments and, for UnsafeLocalSandbox, the host's environment.
 */
export const MAX_EXEC_BYTES = 1024 * 1024;

/** The checked, backend-neutral parts of one `execute` call. */
export interface CheckedCall {
  /** The call's timeout, else the policy's, in ms. */
  timeoutMs: number;
  /** The policy's output budget, in bytes. */
  maxOutputBytes: number;
  /** The policy environment, then the inherited variables, then the call's `env`. */
  env: Readonly<Record<string, string>>;
  /** Whether background processes may outlive a normal exit. */
  keepBackground: boolean;
  /** The call's output listener, if any. */
  onOutput: ((chunk: SandboxOutputChunk) => void) | undefined;
  /** The shell asked for, default `'posix'`. */
  shell: SandboxShell;
  /** Whether the call must run read-only, default false. */
  readOnly: boolean;
}

/**
 * Checks the command and the options every backend shares, and merges the environment (policy first, then the
 * inherited variables, call last).
 *
 * @param inherited - the backend's inherited host variables (already checked).
 * @throws SandboxError `OPTIONS_INVALID` for an empty command, a bad `env` entry, a command or variable longer than
 * {@link MAX_ARGUMENT_BYTES}, a command and variables longer than {@link MAX_EXEC_BYTES} together, a `timeoutMs` that is
 * not a positive integer up to 2^31 - 1 ms, a `keepBackground` or `readOnly` that is not a boolean, a `shell` other than
 * `'posix'` and `'bash'`, or an `onOutput` that is not a function. Messages name variables, never their values.
 */
export function checkCall(policy: SandboxPolicy, command: string, options: SandboxExecuteOptions, inherited: Readonly<Record<string, string>> = {}): CheckedCall {
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    throw new SandboxError('OPTIONS_INVALID', 'execute: the command must be a non-empty string without NUL.');
  }
  const timeoutMs = options.timeoutMs === undefined ? policy.limits.timeoutMs : timeout(options.timeoutMs, 'execute timeoutMs', 'OPTIONS_INVALID');
  const env = { ...policy.environment, ...inherited, ...checkEnvironment(options.env ?? {}, 'OPTIONS_INVALID', 'execute env') };
  checkExecSize(command, env);
  const keepBackground = options.keepBackground ?? false;
  if (typeof keepBackground !== 'boolean') throw new SandboxError('OPTIONS_INVALID', 'execute keepBackground must be true or false.');
  const onOutput = options.onOutput;
  if (onOutput !== undefined && typeof onOutput !== 'function') throw new SandboxError('OPTIONS_INVALID', 'execute onOutput must be a function.');
  const shell = options.shell ?? 'posix';
  if (!SANDBOX_SHELLS.includes(shell)) {
    throw new SandboxError('OPTIONS_INVALID', `execute shell must be one of ${SANDBOX_SHELLS.map((s) => `'${s}'`).join(', ')}, got ${quoted(String(shell), 40)}.`);
  }
  const readOnly = options.readOnly ?? false;
  if (typeof readOnly !== 'boolean') throw new SandboxError('OPTIONS_INVALID', 'execute readOnly must be true or false.');
  return { timeoutMs, maxOutputBytes: policy.limits.maxOutputBytes, env, keepBackground, onOutput, shell, readOnly };
}

/** Refuses what `execve` would refuse with `E2BIG`, the same way on every backend, before anything starts. */
function checkExecSize(command: string, env: Readonly<Record<string, string>>): void {
  const hint = 'Pass large input through a file in the workspace instead.';
  let total = Buffer.byteLength(command) + 1;
  if (total > MAX_ARGUMENT_BYTES) {
    throw new SandboxError('OPTIONS_INVALID', `execute: the command has ${total - 1} bytes; one argument may have at most ${MAX_ARGUMENT_BYTES - 1} (the kernel's MAX_ARG_STRLEN). ${hint}`);
  }
  for (const [name, value] of Object.entries(env)) {
    const bytes = Buffer.byteLength(name) + 1 + Buffer.byteLength(value) + 1;
    if (bytes > MAX_ARGUMENT_BYTES) {
      throw new SandboxError('OPTIONS_INVALID', `execute env: ${cutText(name, 100)}=<value> has ${bytes - 1} bytes; one variable may have at most ${MAX_ARGUMENT_BYTES - 1} (the kernel's MAX_ARG_STRLEN). ${hint}`);
    }
    total += bytes;
  }
  if (total > MAX_EXEC_BYTES) {
    throw new SandboxError('OPTIONS_INVALID', `execute: the command and the environment have ${total} bytes together; at most ${MAX_EXEC_BYTES} are allowed. ${hint}`);
  }
}
