import { CoreError } from '../errors';

/** The limits of one code-mode program (`CodeModeOptions.limits`); each field has a default (see {@link DEFAULT_LIMITS}). */
export interface CodeModeLimits {
  /**
   * The program's wall time, in milliseconds, from its first statement to its end, nested calls and their approvals
   * included. A program still running then is stopped (its in-flight nested calls aborted) and the call fails.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * The interpreter's WebAssembly memory, in bytes: its whole heap, the 16 MiB the interpreter starts with included.
   * An allocation past it throws "out of memory" inside the program, and the call fails. At least 32 MiB.
   */
  readonly memoryBytes?: number | undefined;
  /** How many `tools.<name>(...)` calls one program may make; the call past it stops the program and fails the call. */
  readonly maxToolCalls?: number | undefined;
  /** How many characters of printed output and return value reach the result; the rest is cut, with a note. */
  readonly maxOutputChars?: number | undefined;
}

/** {@link CodeModeLimits} with every field set. */
export interface ResolvedLimits {
  readonly timeoutMs: number;
  readonly memoryBytes: number;
  readonly maxToolCalls: number;
  readonly maxOutputChars: number;
  /** The interpreter's stack, in bytes (deep recursion throws "stack overflow" inside the program). */
  readonly stackBytes: number;
}

/**
 * The defaults: 30 seconds, 64 MiB, 50 tool calls, 20,000 characters of output; a 512 KiB interpreter stack.
 */
export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxToolCalls: 50,
  maxOutputChars: 20_000,
  stackBytes: 512 * 1024,
});

const MIN_MEMORY = 32 * 1024 * 1024;

/**
 * The limits with defaults filled in.
 * @throws CoreError `INVALID_OPTION` for a field that is not a positive integer, or `memoryBytes` under 32 MiB.
 */
export function resolveLimits(limits: CodeModeLimits | undefined): ResolvedLimits {
  const given = limits ?? {};
  const known = new Set(['timeoutMs', 'memoryBytes', 'maxToolCalls', 'maxOutputChars']);
  for (const key of Object.keys(given)) {
    if (!known.has(key)) throw new CoreError('INVALID_OPTION', `CodeMode limits has no '${key}': its fields are timeoutMs, memoryBytes, maxToolCalls and maxOutputChars.`);
  }
  const pick = (key: 'timeoutMs' | 'memoryBytes' | 'maxToolCalls' | 'maxOutputChars'): number => {
    const value = given[key];
    if (value === undefined) return DEFAULT_LIMITS[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new CoreError('INVALID_OPTION', `CodeMode limits.${key} must be a positive integer, got ${JSON.stringify(value) ?? String(value)}.`);
    }
    return value;
  };
  const memoryBytes = pick('memoryBytes');
  if (memoryBytes < MIN_MEMORY) {
    throw new CoreError('INVALID_OPTION', `CodeMode limits.memoryBytes must be at least ${MIN_MEMORY} (32 MiB: the interpreter itself starts with 16 MiB), got ${memoryBytes}.`);
  }
  return Object.freeze({ timeoutMs: pick('timeoutMs'), memoryBytes, maxToolCalls: pick('maxToolCalls'), maxOutputChars: pick('maxOutputChars'), stackBytes: DEFAULT_LIMITS.stackBytes });
}

/** How many interpreters a `CodeMode` keeps started ahead of runs when `warmInterpreters` is not given. */
export const DEFAULT_WARM_INTERPRETERS = 1;

/**
 * `CodeModeOptions.warmInterpreters` with its default filled in.
 * @throws CoreError `INVALID_OPTION` for a value that is not an integer from 0 to 16.
 */
export function resolveWarm(count: number | undefined): number {
  if (count === undefined) return DEFAULT_WARM_INTERPRETERS;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 16) {
    throw new CoreError('INVALID_OPTION', `CodeMode warmInterpreters must be an integer from 0 to 16, got ${JSON.stringify(count) ?? String(count)}.`);
  }
  return count;
}

/** How long a warm interpreter waits for a run before it is terminated, in milliseconds, when `idleTimeoutMs` is not given (one minute). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/**
 * `CodeModeOptions.idleTimeoutMs` with its default filled in.
 * @throws CoreError `INVALID_OPTION` for a value that is not a positive integer (at most 2^31 - 1, a timer's range).
 */
export function resolveIdleTimeout(ms: number | undefined): number {
  if (ms === undefined) return DEFAULT_IDLE_TIMEOUT_MS;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms <= 0 || ms > 2 ** 31 - 1) {
    throw new CoreError('INVALID_OPTION', `CodeMode idleTimeoutMs must be a positive integer of milliseconds (at most 2147483647), got ${JSON.stringify(ms) ?? String(ms)}.`);
  }
  return ms;
}
