import { checkEnvironment } from './environment';
import { SandboxError } from './errors';
import { positive, type SandboxPolicy } from './policy';
import type { SandboxExecuteOptions } from './sandbox';

/** The checked, backend-neutral parts of one `execute` call. */
export interface CheckedCall {
  /** The call's timeout, else the policy's, in ms. */
  timeoutMs: number;
  /** The policy's output budget, in bytes. */
  maxOutputBytes: number;
  /** The policy environment overlaid with the call's `env`. */
  env: Readonly<Record<string, string>>;
  /** Whether background processes may outlive a normal exit. */
  keepBackground: boolean;
}

/**
 * Checks the command and the options every backend shares, and merges the environment (policy first, call last).
 *
 * @throws SandboxError `OPTIONS_INVALID` for an empty command, a bad `env` entry, a non-positive `timeoutMs` or a
 * `keepBackground` that is not a boolean.
 */
export function checkCall(policy: SandboxPolicy, command: string, options: SandboxExecuteOptions): CheckedCall {
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    throw new SandboxError('OPTIONS_INVALID', 'execute: the command must be a non-empty string without NUL.');
  }
  const timeoutMs = options.timeoutMs === undefined ? policy.limits.timeoutMs : positive(options.timeoutMs, 'execute timeoutMs', true, 'OPTIONS_INVALID');
  const env = { ...policy.environment, ...checkEnvironment(options.env ?? {}, 'OPTIONS_INVALID', 'execute env') };
  const keepBackground = options.keepBackground ?? false;
  if (typeof keepBackground !== 'boolean') throw new SandboxError('OPTIONS_INVALID', 'execute keepBackground must be true or false.');
  return { timeoutMs, maxOutputBytes: policy.limits.maxOutputBytes, env, keepBackground };
}
