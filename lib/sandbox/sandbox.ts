/**
 * Options of one {@link Sandbox.execute} call.
 */
export interface SandboxExecuteOptions {
  /**
   * Working directory on the host. A relative path is resolved against the policy's `workingDirectory` (or the
   * process's cwd when the policy has none). It must exist, be a directory, and lie inside a readable or writable
   * path when the policy lists any, as spelled and once links are followed. Backends that run elsewhere (Docker) map it to the matching mount.
   */
  cwd?: string;
  /** Extra environment variables for this call only; they override the policy's `environment`. */
  env?: Readonly<Record<string, string>>;
  /**
   * Cancels the call. The whole process tree is killed, then the promise rejects with `signal.reason`
   * (an `AbortError` `DOMException` unless the caller gave another reason).
   */
  signal?: AbortSignal;
  /** Overrides the policy's `limits.timeoutMs` for this call, in milliseconds (positive). */
  timeoutMs?: number;
  /**
   * Lets processes the command started in the background (`server &`, `setsid`, `nohup`) keep running after the
   * command exits normally. Default false: when the command ends, every process it started is killed, however it
   * detached. Kept processes still die on timeout, cancellation and `close()`; redirect their output
   * (`server >log 2>&1 &`), since the call stops reading once the command exits. `BubblewrapSandbox` refuses it
   * (`OPTIONS_INVALID`): its pid namespace ends with the command.
   */
  keepBackground?: boolean;
  /**
   * Receives the command's output while it runs, piece by piece, in the order the sandbox read it: the same bytes
   * the result captures (within `limits.maxOutputBytes`; nothing after the budget is spent), decoded as UTF-8, a
   * piece never ending inside a character. Called synchronously from the reading loop: keep it quick, and do not
   * throw (a listener's exception is ignored). Every backend of this library calls it; a backend that does not
   * stream ignores it, and the result still carries the whole output.
   */
  onOutput?: (chunk: SandboxOutputChunk) => void;
  /**
   * The shell that runs the command, default `'posix'` (`/bin/sh -c`: dash on Debian and Ubuntu, ash in busybox
   * images). `'bash'` runs GNU bash, which the backend resolves once to an absolute path. A shell the backend does not
   * list in {@link Sandbox.capabilities} is refused (`SandboxError` `SHELL_UNAVAILABLE`), never replaced by another:
   * a caller that analysed the command in one grammar must not have it run in another.
   */
  shell?: SandboxShell;
  /**
   * Runs the command so that it can read but not write any file nor connect anywhere (read-only file system, no
   * network), default false. A backend that cannot enforce this refuses the option (`SandboxError`
   * `READ_ONLY_UNSUPPORTED`, UnsafeLocalSandbox); {@link Sandbox.capabilities} says which do. BubblewrapSandbox
   * remounts everything read-only for the call; DockerSandbox runs it in a second, read-only container (own `/tmp`
   * and processes). See docs/sandbox.md for each backend's cost and limits.
   */
  readOnly?: boolean;
}

/** A shell grammar a sandbox can run commands in; see {@link SandboxExecuteOptions.shell}. */
export type SandboxShell = 'posix' | 'bash';

/** What a backend offers beyond the port's minimum; see {@link Sandbox.capabilities}. */
export interface SandboxCapabilities {
  /** The values {@link SandboxExecuteOptions.shell} accepts. Always holds `'posix'`. */
  readonly shells: readonly SandboxShell[];
  /** Whether {@link SandboxExecuteOptions.readOnly} is enforced (true) or refused (false). */
  readonly readOnly: boolean;
}

/** One piece of output streamed to {@link SandboxExecuteOptions.onOutput}. */
export interface SandboxOutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/**
 * What every backend returns for one command.
 */
export interface SandboxResult {
  /**
   * Exit status of the command (the shell's, see {@link SandboxExecuteOptions.shell}). A command killed by a signal inside the sandbox reports `128 + signal`
   * like a shell does (137 for SIGKILL). `null` only when the call timed out: the sandbox killed it, so it has no
   * status of its own.
   */
  exitCode: number | null;
  /**
   * Captured standard output, decoded as UTF-8, at most `limits.maxOutputBytes` bytes together with `stderr`. A cut
   * never splits a character.
   */
  stdout: string;
  /** Captured standard error, decoded as UTF-8. */
  stderr: string;
  /** True when the timeout fired and the sandbox killed the command's processes. */
  timedOut: boolean;
  /** True when output past `limits.maxOutputBytes` was dropped. */
  truncated: boolean;
  /** Wall-clock duration of the call, in milliseconds. */
  durationMs: number;
  /**
   * True when the engine killed the command for exceeding the memory limit. Present only for backends that can
   * know it (Docker); `undefined` elsewhere.
   */
  oomKilled?: boolean;
}

/**
 * The sandbox port: runs shell commands under a {@link SandboxPolicy}. Implemented by `UnsafeLocalSandbox`,
 * `BubblewrapSandbox` and `DockerSandbox` (from `agenttoolkit/sandbox/docker`).
 *
 * Every backend kills every process a command started when the command ends (normally, by timeout or by
 * cancellation), bounds captured output while reading, and honours an `AbortSignal`. Use it with
 * `await using sandbox = ...` or call {@link Sandbox.close}. See docs/sandbox.md for each backend's mechanism.
 */
export interface Sandbox extends AsyncDisposable {
  /**
   * Runs `command` with `/bin/sh -c` (or bash, see {@link SandboxExecuteOptions.shell}) inside the sandbox, in an
   * environment rebuilt from a small base (`PATH`, `HOME`, `LANG`, `TERM`) and the variables the host passes (the
   * policy's `environment`, inherited names, the call's `env`); the host's other variables never reach it.
   *
   * @param command - a shell command line (non-empty).
   * @param options - cwd, extra environment, cancellation signal, timeout, background processes, shell and read-only
   *   runs, see {@link SandboxExecuteOptions}.
   * @returns the exit status and captured output, see {@link SandboxResult}. A non-zero exit is a result, not an error.
   * @throws SandboxError `SANDBOX_CLOSED` after `close()`, `CWD_INVALID`, `OPTIONS_INVALID` (an unknown `shell`, a
   *   `readOnly` that is not a boolean, ...), `SHELL_UNAVAILABLE`, `READ_ONLY_UNSUPPORTED`, and engine errors.
   * @throws the signal's reason when `options.signal` aborts.
   */
  execute(command: string, options?: SandboxExecuteOptions): Promise<SandboxResult>;
  /**
   * Says which shells and which enforcement this backend offers, resolved once (the first call may look up binaries
   * or ask the engine). Optional for custom backends: a sandbox without it is taken to offer
   * `{ shells: ['posix'], readOnly: false }`.
   */
  capabilities?(): Promise<SandboxCapabilities>;
  /** Releases the sandbox (kills running commands, removes its container). Idempotent. */
  close(): Promise<void>;
}
