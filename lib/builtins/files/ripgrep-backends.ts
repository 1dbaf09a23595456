import { readFile } from 'node:fs/promises';
import { posix, relative } from 'node:path';
import { isWithin } from '../../fs/path-within';
import { resolveRealPath } from '../../fs/resolve-real-path';
import { BindMount } from '../../sandbox/bind-mount';
import type { Sandbox } from '../../sandbox/sandbox';
import type { Workspace } from '../../workspace/workspace';
import { BuiltinToolError } from './errors';
import { ripgrepPath } from './ripgrep-path';
import { runRipgrep, type RipgrepRun } from './run-ripgrep';

/** Where {@link ripgrepMount} binds ripgrep inside a sandbox, and where the Grep tool looks for it there first. */
export const SANDBOX_RIPGREP_PATH = '/opt/agenttoolkit/bin/rg';
/** Where the Grep tool copies ripgrep into a container that has none of its own. */
export const CONTAINER_RIPGREP_PATH = '/tmp/.agenttoolkit/bin/rg';

/**
 * A read-only bind of the ripgrep binary that `@vscode/ripgrep` ships (a static executable on Linux) at
 * {@link SANDBOX_RIPGREP_PATH}, for a `BubblewrapSandbox`'s `mounts`, so that the Grep tool finds ripgrep inside the
 * sandbox. A bubblewrap sandbox refuses a mount source inside one of its writable paths: when the project's
 * `node_modules` is writable, copy the binary elsewhere first, or install ripgrep on the host (the sandbox sees
 * `/usr`).
 *
 * @param source - the host binary (default {@link ripgrepPath}).
 * @throws BuiltinToolError `RIPGREP_NOT_FOUND` when `@vscode/ripgrep` is not installed and no source is given.
 */
export function ripgrepMount(source: string = ripgrepPath()): BindMount {
  return BindMount.readOnly(source, SANDBOX_RIPGREP_PATH);
}

/**
 * The part of a workspace in a container that the Grep tool uses to search there: its root path in the container,
 * path resolution inside the container and an argv exec. `DockerWorkspace` provides it.
 */
export interface ContainerSearchWorkspace extends Workspace {
  /** The workspace's root path in the container. */
  readonly root: string;
  /** The real path in the container of a workspace path (relative to the root, or absolute inside it). */
  resolve(path: string): Promise<string>;
  /** Runs a program (no shell) in the container; output capped at `maxOutputBytes`. */
  execArgv(argv: readonly string[], options?: { cwd?: string; stdin?: Uint8Array; signal?: AbortSignal; maxOutputBytes?: number }):
    Promise<{ exitCode: number | null; stdout: Buffer; stderr: string; stopped?: 'abort' | 'output' }>;
}

/** Whether a workspace runs in a container the Grep tool can search in (it has `resolve` and `execArgv`). */
export function isContainerWorkspace(workspace: Workspace): workspace is ContainerSearchWorkspace {
  const candidate = workspace as Partial<ContainerSearchWorkspace>;
  return typeof candidate.resolve === 'function' && typeof candidate.execArgv === 'function';
}

/** Where a search runs: the canonical folder ripgrep starts in and the searched path relative to it. */
export type Located =
  | { readonly cwd: string; readonly target: string }
  | { readonly refused: true }
  /** The path cannot be resolved, and why. */
  | { readonly unresolvable: string }
  /** The search cannot run at all (the workspace's container is unreachable). */
  | { readonly failure: string };

/** One way to run ripgrep over a workspace: on the host, inside a sandbox, or inside the workspace's container. */
export interface RipgrepBackend {
  /**
   * Resolves a path the tool has checked lexically: `absolute` in the workspace's own file system, `lexical` the same
   * relative to the root.
   */
  locate(absolute: string, lexical: string): Promise<Located>;
  /** Runs ripgrep with `args` in `cwd`; `failure` or `stopped: 'spawn'` when it could not run. */
  run(args: readonly string[], cwd: string, signal: AbortSignal, maxOutput: number): Promise<RipgrepRun & { failure?: string }>;
}

/** ripgrep on the host, over a LocalWorkspace (the host path is the workspace's path). */
export class HostRipgrep implements RipgrepBackend {
  constructor(private readonly realRoot: string, private readonly rgPath: string | undefined, private readonly toolName: string) {}

  async locate(absolute: string): Promise<Located> {
    return locateOnHost(this.realRoot, absolute);
  }

  async run(args: readonly string[], cwd: string, signal: AbortSignal, maxOutput: number): Promise<RipgrepRun> {
    let rg: string;
    try {
      rg = this.rgPath ?? ripgrepPath();
    } catch (error) {
      return { code: null, stdout: '', stderr: '', stopped: 'spawn', spawnError: (error as BuiltinToolError).message };
    }
    const run = await runRipgrep(rg, args, cwd, signal, maxOutput);
    return run.stopped === 'spawn' ? { ...run, spawnError: `${this.toolName} could not run ripgrep at '${rg}': ${run.spawnError}` } : run;
  }
}

/**
 * ripgrep inside a {@link Sandbox} over a LocalWorkspace whose root the sandbox sees at the same path (bubblewrap), or
 * maps through its working directory (Docker). The Sandbox port runs shell command lines, so each argument is one
 * single-quoted word (a quote inside is written `'\''`); no argument is ever unquoted.
 */
export class SandboxRipgrep implements RipgrepBackend {
  constructor(private readonly sandbox: Sandbox, private readonly realRoot: string, private readonly rgPath: string | undefined, private readonly toolName: string) {}

  async locate(absolute: string): Promise<Located> {
    return locateOnHost(this.realRoot, absolute);
  }

  async run(args: readonly string[], cwd: string, signal: AbortSignal, maxOutput: number): Promise<RipgrepRun & { failure?: string }> {
    const words = args.map(shellQuote).join(' ');
    const command = this.rgPath === undefined
      ? `set -- ${words}; if [ -x ${SANDBOX_RIPGREP_PATH} ]; then exec ${SANDBOX_RIPGREP_PATH} "$@"; fi; command -v rg >/dev/null 2>&1 || exit 127; exec rg "$@"`
      : `exec ${shellQuote(this.rgPath)} ${words}`;
    let result;
    try {
      result = await this.sandbox.execute(command, { cwd, signal });
    } catch (error) {
      if (signal.aborted) return { code: null, stdout: '', stderr: '', stopped: 'abort' };
      return { code: null, stdout: '', stderr: '', failure: `${this.toolName} could not run in the sandbox: ${describeError(error)}` };
    }
    if (result.exitCode === 127 || result.exitCode === 126) {
      const where = this.rgPath === undefined ? `neither at ${SANDBOX_RIPGREP_PATH} nor on the sandbox's PATH` : `at '${this.rgPath}' in the sandbox`;
      return { code: null, stdout: '', stderr: '', stopped: 'spawn',
        spawnError: `${this.toolName} found no ripgrep ${where}. Bind it into the sandbox (mounts: [ripgrepMount()]) or install ripgrep where the sandbox sees it.` };
    }
    const stopped = result.timedOut ? 'abort' : result.truncated || Buffer.byteLength(result.stdout) > maxOutput ? 'output' : undefined;
    return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr, ...(stopped === undefined ? {} : { stopped }) };
  }
}

/**
 * A fixed script run in the container: `$1` is the copied ripgrep, the rest are ripgrep's arguments. The container's
 * own `rg` wins, then one bound at {@link SANDBOX_RIPGREP_PATH}, then the copy; exit 127 says there is none.
 */
const CONTAINER_RUN_SCRIPT = `up=$1; shift; if command -v rg >/dev/null 2>&1; then exec rg "$@"; fi
if [ -x ${SANDBOX_RIPGREP_PATH} ]; then exec ${SANDBOX_RIPGREP_PATH} "$@"; fi; if [ -x "$up" ]; then exec "$up" "$@"; fi; exit 127`;
/** A fixed script that installs the bytes on its standard input as the executable `$1`, built for machine `$2`. */
const CONTAINER_INSTALL_SCRIPT = `m=$(uname -m); [ "$m" = "$2" ] || { echo "the container runs on $m, the host's ripgrep is built for $2" >&2; exit 3; }
mkdir -p "\${1%/*}" && cat > "$1.$$" && chmod 755 "$1.$$" && mv -f "$1.$$" "$1"`;
const MACHINES: Readonly<Record<string, string>> = { x64: 'x86_64', arm64: 'aarch64' };

/**
 * ripgrep inside the workspace's container, through argv execs (no shell reads the arguments): the container's own
 * `rg` when it has one, else one bound at {@link SANDBOX_RIPGREP_PATH}, else a copy of the host's `@vscode/ripgrep`
 * binary (a static Linux executable) written to {@link CONTAINER_RIPGREP_PATH} on first use, through an exec's
 * standard input (so a container whose root is read-only but whose `/tmp` allows execution works too). Paths are
 * container paths.
 */
export class ContainerRipgrep implements RipgrepBackend {
  #installed: Promise<string | undefined> | undefined;

  constructor(private readonly workspace: ContainerSearchWorkspace, private readonly rgPath: string | undefined, private readonly toolName: string) {}

  async locate(absolute: string, lexical: string): Promise<Located> {
    let realRoot: string;
    let real: string;
    try {
      realRoot = await this.workspace.resolve('.');
    } catch (error) {
      return { failure: `${this.toolName} could not reach the workspace: ${describeError(error)}` };
    }
    try {
      real = await this.workspace.resolve(lexical);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'PATH_OUTSIDE_WORKSPACE') return { refused: true };
      // A missing path is searched as written, so that ripgrep reports it the way it does on the host.
      if (code === 'NOT_FOUND' || code === 'NOT_A_DIRECTORY') return { cwd: realRoot, target: lexical };
      return { unresolvable: describeError(error) };
    }
    if (!isWithin(realRoot, real)) return { refused: true };
    return { cwd: realRoot, target: posix.relative(realRoot, real) || '.' };
  }

  async run(args: readonly string[], cwd: string, signal: AbortSignal, maxOutput: number): Promise<RipgrepRun & { failure?: string }> {
    const argv = this.rgPath === undefined ? ['/bin/sh', '-c', CONTAINER_RUN_SCRIPT, 'sh', CONTAINER_RIPGREP_PATH, ...args] : [this.rgPath, ...args];
    let result = await this.#exec(argv, cwd, signal, maxOutput);
    let problem: string | undefined;
    if (this.rgPath === undefined && result.code === 127) {
      problem = await this.#install(signal);
      if (problem === undefined) result = await this.#exec(argv, cwd, signal, maxOutput);
    }
    // ripgrep itself exits with 0, 1 or 2: 126 and 127 come from the shell that could not run it.
    if (result.code !== 126 && result.code !== 127) return result;
    const why = problem ?? (result.stderr.trim() || 'not found');
    const spawnError = this.rgPath === undefined
      ? `${this.toolName} found no ripgrep in the container, and a copy of the host's could not run there (${why}). Install ripgrep in the image, bind it in (DockerSandbox mounts: [ripgrepMount()], with a local engine), or pass { rgPath } naming one in the container.`
      : `${this.toolName} could not run ripgrep at '${this.rgPath}' in the container: ${why}`;
    return { code: null, stdout: '', stderr: '', stopped: 'spawn', spawnError };
  }

  async #exec(argv: readonly string[], cwd: string, signal: AbortSignal, maxOutput: number): Promise<RipgrepRun & { failure?: string }> {
    try {
      const run = await this.workspace.execArgv(argv, { cwd, signal, maxOutputBytes: maxOutput });
      return { code: run.exitCode, stdout: run.stdout.toString('utf8'), stderr: run.stderr, ...(run.stopped === undefined ? {} : { stopped: run.stopped }) };
    } catch (error) {
      return { code: null, stdout: '', stderr: '', failure: `${this.toolName} could not run in the container: ${describeError(error)}` };
    }
  }

  /** Copies the host's ripgrep into the container once; @returns why it could not, or undefined. */
  #install(signal: AbortSignal): Promise<string | undefined> {
    this.#installed ??= (async () => {
      const machine = process.platform === 'linux' ? MACHINES[process.arch] : undefined;
      if (machine === undefined) return `the host's ripgrep is built for ${process.platform}-${process.arch}, not Linux`;
      let bytes: Buffer;
      try {
        bytes = await readFile(ripgrepPath());
      } catch (error) {
        return describeError(error);
      }
      const run = await this.workspace.execArgv(['/bin/sh', '-c', CONTAINER_INSTALL_SCRIPT, 'sh', CONTAINER_RIPGREP_PATH, machine], { cwd: '/', stdin: bytes, signal })
        .catch((error: unknown) => ({ exitCode: null, stderr: describeError(error) }));
      return run.exitCode === 0 ? undefined : run.stderr.trim() || `the copy failed with exit code ${String(run.exitCode)}`;
    })();
    void this.#installed.then((problem) => {
      if (problem !== undefined) this.#installed = undefined;
    });
    return this.#installed;
  }
}

/** The host-side resolution shared by the host and sandbox backends. */
function locateOnHost(realRoot: string, absolute: string): Located {
  let real: string;
  try {
    real = resolveRealPath(absolute, realRoot);
  } catch {
    return { unresolvable: 'a link loop or an unreadable folder' };
  }
  if (!isWithin(realRoot, real)) return { refused: true };
  return { cwd: realRoot, target: relative(realRoot, real) || '.' };
}

/** One POSIX shell word that stands for `word` exactly. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function describeError(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && !text.startsWith(code) ? `${code}: ${text}` : text;
}
