import { resolve } from 'node:path';
import { isWithin } from '../fs/path-within';
import { checkEnvironment } from './environment';
import { quoted, SandboxError } from './errors';

/** Resource limits of a {@link SandboxPolicy}. Every value must be positive. */
export interface SandboxLimits {
  /** Wall-clock limit of one command, in milliseconds. Default 60 000. */
  readonly timeoutMs: number;
  /** Cap on captured stdout + stderr together, in bytes. Default 1 MiB (1 048 576). */
  readonly maxOutputBytes: number;
  /** Memory limit of the sandbox, in bytes (no swap on top). Default none. */
  readonly memoryBytes?: number;
  /** Maximum number of processes (and threads) in the sandbox. Default none. */
  readonly pids?: number;
  /** CPU quota in cores, fractional allowed (1.5 = one and a half cores). Default none. */
  readonly cpus?: number;
}

/** Constructor input of {@link SandboxPolicy}; every field is optional. */
export interface SandboxPolicyOptions {
  /** Default working directory of commands (host path). Added to the readable paths unless inside one. */
  workingDirectory?: string;
  /** Host paths the sandbox may read. */
  readablePaths?: readonly string[];
  /** Host paths the sandbox may read and write. */
  writablePaths?: readonly string[];
  /** Allow network access. Default false. */
  enableNetworkAccess?: boolean;
  /** Explicit variables set in every command's environment. */
  environment?: Readonly<Record<string, string>>;
  /** Limits; missing fields take the defaults of {@link SandboxLimits}. */
  limits?: Partial<SandboxLimits>;
}

/**
 * The longest timeout, in ms: the largest delay a Node.js timer accepts (2^31 - 1, about 24.8 days). A longer one
 * would fire at once (Node sets such a delay to 1 ms).
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Default timeout of a command: 60 s, in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default cap on captured output: 1 MiB, in bytes. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * What a sandbox may read, write and use: paths, network, environment and limits. Immutable and validated on
 * construction (fields and defaults in docs/sandbox.md). Paths are resolved to absolute paths and de-duplicated in
 * order.
 *
 * @example
 * const policy = SandboxPolicy.forWorkspace('/srv/project', { writable: true });
 * const strict = new SandboxPolicy({ readablePaths: ['/data'], limits: { timeoutMs: 5_000, memoryBytes: 256 * 2 ** 20 } });
 */
export class SandboxPolicy {
  /** Absolute default working directory, or undefined. */
  readonly workingDirectory: string | undefined;
  /** Absolute readable paths, de-duplicated; includes `workingDirectory` unless it lies inside one of them. */
  readonly readablePaths: readonly string[];
  /** Absolute writable paths, de-duplicated. */
  readonly writablePaths: readonly string[];
  /** Whether commands may use the network. */
  readonly enableNetworkAccess: boolean;
  /** Variables set in every command's environment. */
  readonly environment: Readonly<Record<string, string>>;
  /** Limits with defaults applied. */
  readonly limits: SandboxLimits;

  /**
   * @param options - see {@link SandboxPolicyOptions}.
   * @throws SandboxError `POLICY_INVALID` for an empty path, a limit that is not a positive number (integers for
   * `timeoutMs`, `maxOutputBytes`, `memoryBytes`, `pids`), or an environment key/value that `execve` would reject.
   */
  constructor(options: SandboxPolicyOptions = {}) {
    this.workingDirectory = options.workingDirectory === undefined ? undefined : absolute(options.workingDirectory, 'workingDirectory');
    const writable = unique((options.writablePaths ?? []).map((p) => absolute(p, 'writablePaths')));
    const readable = unique((options.readablePaths ?? []).map((p) => absolute(p, 'readablePaths')));
    const wd = this.workingDirectory;
    if (wd !== undefined && !readable.some((p) => isWithin(p, wd))) readable.push(wd);
    this.readablePaths = Object.freeze(readable);
    this.writablePaths = Object.freeze(writable);
    this.enableNetworkAccess = options.enableNetworkAccess ?? false;
    this.environment = checkEnvironment(options.environment ?? {}, 'POLICY_INVALID', 'SandboxPolicy environment');
    this.limits = Object.freeze(limitsFrom(options.limits ?? {}));
    Object.freeze(this);
  }

  /**
   * A policy for one workspace folder: it is the working directory and readable, and writable when asked.
   *
   * @param root - the workspace folder (resolved to an absolute path).
   * @param options - `writable` (default false), `enableNetworkAccess` (default false), and any other policy field.
   */
  static forWorkspace(root: string, options: { writable?: boolean; enableNetworkAccess?: boolean } & Omit<SandboxPolicyOptions, 'workingDirectory' | 'enableNetworkAccess'> = {}): SandboxPolicy {
    const { writable = false, ...rest } = options;
    const dir = resolve(root);
    return new SandboxPolicy({
      ...rest,
      workingDirectory: dir,
      readablePaths: [dir, ...(rest.readablePaths ?? [])],
      writablePaths: writable ? [dir, ...(rest.writablePaths ?? [])] : rest.writablePaths,
    });
  }

  /** True when `path` (absolute) is inside, or equal to, one of the readable or writable paths. */
  allows(path: string): boolean {
    return [...this.readablePaths, ...this.writablePaths].some((root) => isWithin(root, path));
  }
}

function absolute(path: string, field: string): string {
  if (typeof path !== 'string' || path === '' || path.includes('\0')) {
    throw new SandboxError('POLICY_INVALID', `SandboxPolicy ${field}: paths must be non-empty strings without NUL.`);
  }
  return resolve(path);
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

function limitsFrom(input: Partial<SandboxLimits>): SandboxLimits {
  const limits: { -readonly [K in keyof SandboxLimits]: SandboxLimits[K] } = {
    timeoutMs: timeout(input.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs'),
    maxOutputBytes: positive(input.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, 'maxOutputBytes', true),
  };
  if (input.memoryBytes !== undefined) limits.memoryBytes = positive(input.memoryBytes, 'memoryBytes', true);
  if (input.pids !== undefined) limits.pids = positive(input.pids, 'pids', true);
  if (input.cpus !== undefined) limits.cpus = positive(input.cpus, 'cpus', false);
  return limits;
}

/**
 * Checks a timeout: a positive integer of at most {@link MAX_TIMEOUT_MS}.
 *
 * @throws SandboxError `POLICY_INVALID` (or `code`) naming the field.
 */
export function timeout(value: number, name: string, code: 'POLICY_INVALID' | 'OPTIONS_INVALID' = 'POLICY_INVALID'): number {
  positive(value, name, true, code);
  if (value > MAX_TIMEOUT_MS) throw new SandboxError(code, `${name} must be at most ${MAX_TIMEOUT_MS} ms (about 24.8 days), got ${value}.`);
  return value;
}

/**
 * Checks that a limit is a finite positive number (an integer when `integer`), and returns it.
 *
 * @throws SandboxError `POLICY_INVALID` naming the limit.
 */
export function positive(value: number, name: string, integer: boolean, code: 'POLICY_INVALID' | 'OPTIONS_INVALID' = 'POLICY_INVALID'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new SandboxError(code, `${name} must be a positive ${integer ? 'integer' : 'number'}, got ${quoted(String(value), 40)}.`);
  }
  return value;
}
