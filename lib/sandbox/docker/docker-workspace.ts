import { randomUUID } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { posix } from 'node:path';
import type Docker from 'dockerode';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { normalizeSegments } from '../../fs/path-segments';
import { compileWorkspaceGlob } from '../../fs/workspace-glob';
import { isWithin } from '../../fs/path-within';
import type { Entry } from '../../workspace/entry';
import {
  AlreadyExistsError,
  AmbiguousMatchError,
  FileTooLargeError,
  InvalidArgumentError,
  InvalidPathError,
  NotADirectoryError,
  NotAFileError,
  NotFoundError,
  NotTextError,
  PathChangedError,
  PathOutsideWorkspaceError,
  TextNotFoundError,
  WorkspaceError,
  WorkspaceIoError,
} from '../../workspace/errors';
import type { EditOptions, GlobOptions, Workspace, WriteOptions } from '../../workspace/workspace';
import { dockerClient, type DockerConnection } from './connection';
import type { DockerSandbox } from './docker-sandbox';
import { runArgv } from './docker-workspace-exec';
import { describeKind, engineFailure, parseStat, type ListedEntry } from './docker-workspace-listing';
import { packOneFile, unpackFirstEntry } from './docker-workspace-tar';

/** Options of {@link DockerWorkspace}. */
export interface DockerWorkspaceOptions {
  /** The engine, when the container is given by id (ignored for a dockerode `Container`). Default: dockerode's default. */
  readonly connection?: DockerConnection;
  /** Absolute path of the root folder inside the container; created when missing. Default `/workspace`. */
  readonly root?: string;
  /** Largest file, in bytes, that may be read or written (a positive integer). Default 10 MiB. */
  readonly maxFileSize?: number;
  /** User of the helper commands run in the container (`uid:gid` or a name). Default: the container's user. */
  readonly user?: string;
}

/** Options of {@link DockerWorkspace.execArgv}. */
export interface DockerExecOptions {
  /** Absolute working directory in the container. Default: the root's canonical path. */
  readonly cwd?: string;
  /** Bytes written to the program's standard input, which is then closed. Default: none. */
  readonly stdin?: Uint8Array;
  /** Kills the program (SIGKILL inside the container) when it fires. */
  readonly signal?: AbortSignal;
  /** Kills the program once its standard output passes this many bytes. */
  readonly maxOutputBytes?: number;
}

/** What {@link DockerWorkspace.execArgv} returns. */
export interface DockerExecResult {
  /** Exit status; null when the engine still reported the program running a second after its output ended. */
  readonly exitCode: number | null;
  /** Standard output, as bytes (cut at `maxOutputBytes`). */
  readonly stdout: Buffer;
  /** Standard error, decoded as UTF-8. */
  readonly stderr: string;
  /** Why the program was killed, when it was: `abort` (the signal fired) or `output` (past `maxOutputBytes`). */
  readonly stopped?: 'abort' | 'output';
}

const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;
/** Listed entries matched between two looks at the signal and turns handed back to the event loop. */
const MATCHES_PER_TURN = 2048;
const STAT_FORMAT = '%f|%s|%Y|%y';

/*
 * Fixed scripts run with `sh -c SCRIPT sh ARG...`: paths reach them only as positional parameters. Every path passed
 * is absolute, so none can be read as an option.
 *
 * PROBE: prints the canonical path (`readlink -f`, every link followed) then NUL, then its `stat` line when it
 * exists. When it cannot be resolved, exits 3 (a folder on the way is missing), 4 (one is not a folder) or 5 (a link
 * on the way loops or dangles). The `x` keeps trailing newlines of names from being eaten by `$(...)`.
 */
const PROBE_SCRIPT = `r=$(readlink -f -- "$1" && echo x) || {
  p=$1; while [ -n "$p" ] && [ ! -e "$p" ] && [ ! -L "$p" ]; do p=\${p%/*}; done
  [ -L "$p" ] && [ ! -e "$p" ] && exit 5; [ -d "$p" ] && exit 3; exit 4; }
r=\${r%??}; printf '%s\\0' "$r"; stat -c '${STAT_FORMAT}' -- "$r" 2>/dev/null; exit 0`;
/** LIST: `name NUL stat-line` for each entry of folder $1 (not following links); $2 is `all` to walk the tree. */
const LIST_SCRIPT = `if [ "$2" = all ]; then set -- "$1" ! -type l; else set -- "$1" -maxdepth 1; fi
find "$@" -mindepth 1 -exec sh -c 'for f do printf "%s\\0" "$f"; stat -c "${STAT_FORMAT}" -- "$f" 2>/dev/null || echo; done' sh {} +`;
/**
 * COMMIT: moves the uploaded temporary file $1 onto $2: `mv -T` replaces (never into a folder), `link` creates only
 * when nothing is there (one atomic step). With $4, refuses (exit 42) unless $2's stat line is still $4. `touch`
 * gives the file the time of the write to the nanosecond (a tar header holds whole seconds only).
 */
const COMMIT_SCRIPT = `if [ -n "$4" ] && [ "$(stat -c '${STAT_FORMAT}' -- "$2" 2>/dev/null)" != "$4" ]; then rm -f -- "$1"; exit 42; fi
touch -c -- "$1" || { rm -f -- "$1"; exit 1; }
if [ "$3" = new ]; then link "$1" "$2"; rc=$?; rm -f -- "$1"; exit $rc; fi
mv -f -T -- "$1" "$2"; rc=$?; [ $rc = 0 ] || rm -f -- "$1"; exit $rc`;

interface Probe {
  /** Canonical absolute path in the container. */
  readonly real: string;
  /** Its stat line and parsed form; null when nothing is there. */
  readonly stat: { line: string; entry: ListedEntry } | null;
}

/**
 * The {@link Workspace} port over a folder inside a container, for engines that share no disk with the host (a
 * remote engine): file content moves through the engine's archive API (tar upload and download), listing and
 * description through execs of busybox-compatible programs (`readlink -f`, `stat -c`, `find`, `mv -T`, `link`),
 * each with its arguments as an array.
 *
 * Confinement: a path is first applied to the root as text (`..` may not climb above it; an absolute path must lie
 * inside it), then resolved in the container with `readlink -f`, and the result must lie inside the root's own
 * canonical path; links leading out are refused with `PATH_OUTSIDE_WORKSPACE`. The check and the use are separate
 * engine calls: a process inside the container that can write in the root may swap a checked folder for a link in
 * between, and the file is then read or written where the link leads inside the same container (the engine resolves
 * archive paths within the container's own file system, never on the host). Use a LocalWorkspace on a bind mount
 * when that window matters. Writes upload a temporary file beside the target and rename it (`mv -T`), so readers see
 * the old or the new content; the file keeps its permission bits but is owned by the engine's extraction user.
 *
 * It can share a {@link DockerSandbox}'s container, so that the files it writes are the ones the sandbox's commands
 * see. That container's `/workspace` (this workspace's default root) is a bind mount of the policy's working
 * directory from the machine that runs the engine. With a local engine that is the host folder itself. With a remote
 * engine the bind names a folder of the same path on the remote machine (which must exist there, and DockerSandbox
 * also requires it on this host): the files live on the remote machine, never on this host's disk. Where no such
 * folder can be arranged, give the workspace a container of its own, without binds, and run commands in it yourself.
 *
 * @example Sharing a DockerSandbox's container on the local engine:
 * ```ts
 * const sandbox = new DockerSandbox('node:22', new SandboxPolicy({ workingDirectory: '/home/me/project', writablePaths: ['/home/me/project'] }));
 * const workspace = new DockerWorkspace(sandbox);
 * await workspace.writeFile('src/example.ts', 'console.log("hello");\n');
 * await sandbox.execute('node src/example.ts', { cwd: '/home/me/project' }); // runs in /workspace of the container
 * ```
 *
 * @example A container of its own on a remote engine (nothing shared with this host):
 * ```ts
 * const docker = dockerClient('tcp://build-host:2375');
 * const container = await docker.createContainer({ Image: 'node:22', Cmd: ['sleep', 'infinity'] });
 * await container.start();
 * const workspace = new DockerWorkspace(container, { root: '/work' });
 * await workspace.writeFile('src/example.ts', 'console.log("hello");\n');
 * ```
 */
export class DockerWorkspace implements Workspace {
  /** Root folder inside the container, as configured. */
  readonly root: string;
  /** Largest file, in bytes, that may be read or written. */
  readonly maxFileSize: number;
  readonly #user: string | undefined;
  readonly #container: () => Promise<Docker.Container>;
  #realRoot: Promise<string> | undefined;

  /**
   * @param container - a dockerode `Container`, a container id or name (with `options.connection`), or a
   * {@link DockerSandbox} (its container is started when needed; pass the sandbox's connection too).
   * @throws InvalidArgumentError (`maxFileSize` not a positive integer, root not an absolute path).
   */
  constructor(container: Docker.Container | DockerSandbox | string, options: DockerWorkspaceOptions = {}) {
    const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    if (!Number.isSafeInteger(maxFileSize) || maxFileSize <= 0) {
      throw new InvalidArgumentError(String(options.root), `maxFileSize must be a positive integer number of bytes, got ${String(options.maxFileSize)}.`);
    }
    const root = options.root ?? '/workspace';
    if (typeof root !== 'string' || !root.startsWith('/') || root.includes('\0')) {
      throw new InvalidArgumentError(String(root), 'The workspace root must be an absolute container path without NUL bytes.');
    }
    this.root = posix.normalize(root).replace(/(.)\/$/, '$1');
    this.maxFileSize = maxFileSize;
    this.#user = options.user;
    if (typeof container === 'string') {
      const found = dockerClient(options.connection).getContainer(container);
      this.#container = () => Promise.resolve(found);
    } else if ('exec' in container && 'putArchive' in container) {
      this.#container = () => Promise.resolve(container);
    } else {
      const docker = dockerClient(options.connection);
      this.#container = async () => docker.getContainer(await container.start());
    }
  }

  /** {@inheritDoc workspace!Workspace.readFile} */
  async readFile(path: string): Promise<string> {
    const { bytes } = await this.#read(path);
    if (!isUtf8(bytes)) throw new NotTextError(path);
    return bytes.toString('utf8');
  }

  /** {@inheritDoc workspace!Workspace.readBytes} */
  async readBytes(path: string): Promise<Uint8Array> {
    return (await this.#read(path)).bytes;
  }

  /** {@inheritDoc workspace!Workspace.writeFile} */
  async writeFile(path: string, content: string, options: WriteOptions = {}): Promise<void> {
    if (typeof content !== 'string') {
      throw new InvalidArgumentError(String(path), `Cannot write '${String(path)}': content must be a string (use writeBytes for bytes).`);
    }
    await this.#write(path, Buffer.from(content, 'utf8'), options.overwrite !== false, undefined);
  }

  /** {@inheritDoc workspace!Workspace.writeBytes} */
  async writeBytes(path: string, content: Uint8Array, options: WriteOptions = {}): Promise<void> {
    if (!(content instanceof Uint8Array)) {
      throw new InvalidArgumentError(String(path), `Cannot write '${String(path)}': content must be a Uint8Array (use writeFile for text).`);
    }
    await this.#write(path, content, options.overwrite !== false, undefined);
  }

  /** {@inheritDoc workspace!Workspace.editFile} */
  async editFile(path: string, oldText: string, newText: string, options: EditOptions = {}): Promise<number> {
    this.#lexical(path);
    if (typeof oldText !== 'string' || oldText === '') {
      throw new InvalidArgumentError(path, `Cannot edit '${path}': the text to replace must be a non-empty string.`);
    }
    if (typeof newText !== 'string') {
      throw new InvalidArgumentError(path, `Cannot edit '${path}': the replacement text must be a string, got ${typeof newText}.`);
    }
    const { bytes, stat } = await this.#read(path);
    if (!isUtf8(bytes)) throw new NotTextError(path);
    const parts = bytes.toString('utf8').split(oldText);
    const count = parts.length - 1;
    if (count === 0) throw new TextNotFoundError(path);
    if (count > 1 && options.replaceAll !== true) throw new AmbiguousMatchError(path, count);
    await this.#write(path, Buffer.from(parts.join(newText), 'utf8'), true, stat);
    return count;
  }

  /** {@inheritDoc workspace!Workspace.glob} */
  async glob(pattern: string, options: GlobOptions = {}): Promise<Entry[]> {
    checkPattern(pattern);
    const glob = compileWorkspaceGlob(pattern, { dot: options.dot === true });
    if ('refused' in glob) throw new InvalidArgumentError(pattern, `Cannot search for '${pattern}': ${glob.refused}.`);
    const { signal } = options;
    signal?.throwIfAborted();
    try {
      return await this.#guard(pattern, 'search', async () => {
        const root = await this.#root();
        const listed = await this.#list(root, true, pattern, signal);
        const entries: Entry[] = [];
        for (let i = 0; i < listed.length; i++) {
          if (i % MATCHES_PER_TURN === MATCHES_PER_TURN - 1) {
            await yieldToEventLoop();
            signal?.throwIfAborted();
          }
          const entry = listed[i]!;
          // Links are listed (the walk does not enter them) but never returned.
          if (entry.isSymlink || (glob.directoriesOnly && !entry.isDirectory)) continue;
          if (glob.matches(entry.path)) entries.push(toEntry(entry.path, entry));
        }
        return entries.sort(byPath);
      });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      throw error;
    }
  }

  /** {@inheritDoc workspace!Workspace.listDir} */
  async listDir(path = '.'): Promise<Entry[]> {
    const { relative } = this.#lexical(path);
    return this.#guard(path, 'list', async () => {
      const probe = await this.#probe(path, relative);
      if (probe.stat === null) throw new NotFoundError(path);
      if (!probe.stat.entry.isDirectory) throw new NotADirectoryError(path);
      const prefix = relative === '.' ? '' : `${relative}/`;
      const listed = await this.#list(probe.real, false, path);
      return listed.map((e) => toEntry(prefix + e.path, e)).sort(byPath);
    });
  }

  /** {@inheritDoc workspace!Workspace.stat} */
  async stat(path: string): Promise<Entry | null> {
    const { relative } = this.#lexical(path);
    try {
      return await this.#guard(path, 'stat', async () => {
        const probe = await this.#probe(path, relative);
        if (probe.stat === null) return null;
        const lexical = await this.#absolute(relative);
        return toEntry(relative, probe.stat.entry, probe.real !== lexical);
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'NOT_FOUND' || code === 'NOT_A_DIRECTORY') return null;
      throw error;
    }
  }

  /**
   * The canonical absolute path of `path` in the container (every link followed), confined like every other call.
   * A path whose last part does not exist resolves to where it would be.
   *
   * @throws WorkspaceError `PATH_OUTSIDE_WORKSPACE`, `INVALID_PATH`, `NOT_FOUND` (a folder on the way is missing or a
   *   link dangles), `NOT_A_DIRECTORY`, `IO_ERROR`.
   */
  async resolve(path: string): Promise<string> {
    const { relative } = this.#lexical(path);
    return this.#guard(path, 'resolve', async () => (await this.#probe(path, relative)).real);
  }

  /**
   * Runs one program in the container as the workspace's user, its arguments as an array (no shell reads them),
   * with the container's environment, and collects its output: for tools that must run where the files are (the
   * built-in Grep runs ripgrep this way). The program is not confined to the root: it sees what the container's
   * user sees.
   *
   * @param argv - the program (a name looked up on the container's `PATH`, or an absolute path) and its arguments.
   * @param options - `cwd` (absolute container path, default the root's canonical path), `stdin` (bytes written to
   *   its standard input, which is then closed), `signal` (kills it, SIGKILL inside the container) and
   *   `maxOutputBytes` (kills it once its standard output passes that many bytes; the kept output stops there).
   * @returns its exit status (null when the engine never reported it), its standard output as bytes, its standard
   *   error as UTF-8 text, and `stopped` (`abort` or `output`) when it was killed.
   * @throws WorkspaceError `IO_ERROR` when the engine fails (container gone, program missing from the image).
   */
  async execArgv(argv: readonly string[], options: DockerExecOptions = {}): Promise<DockerExecResult> {
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((word) => typeof word !== 'string' || word.includes('\0'))) {
      throw new InvalidArgumentError(String(argv), 'execArgv takes a non-empty array of strings without NUL bytes.');
    }
    const program = argv[0]!;
    return this.#guard(program, 'run', async () => {
      const container = await this.#container();
      const workingDir = options.cwd ?? (await this.#root());
      return runArgv(container, argv, { user: this.#user, workingDir, stdin: options.stdin, signal: options.signal, maxOutputBytes: options.maxOutputBytes });
    });
  }

  async #read(path: string): Promise<{ bytes: Buffer; stat: string }> {
    const { relative } = this.#lexical(path);
    return this.#guard(path, 'read', async () => {
      const probe = await this.#probe(path, relative);
      if (relative === '.') throw new NotAFileError(path, 'the workspace root, a directory');
      if (probe.stat === null) throw new NotFoundError(path);
      const found = probe.stat.entry;
      if (found.kind !== 'file') throw new NotAFileError(path, describeKind(found.kind));
      if (found.size! > this.maxFileSize) throw new FileTooLargeError(path, found.size!, this.maxFileSize);
      const container = await this.#container();
      const archive = (await container.getArchive({ path: probe.real })) as NodeJS.ReadableStream;
      const entry = await unpackFirstEntry(archive, this.maxFileSize);
      // The engine archives a final link as the link itself: anything but a file here was swapped in meanwhile.
      if (entry === null || entry.type !== 'file') throw new PathChangedError(path, 'it is no longer a regular file');
      if (entry.tooLarge) throw new FileTooLargeError(path, this.maxFileSize + 1, this.maxFileSize);
      return { bytes: entry.bytes, stat: probe.stat.line };
    });
  }

  /** Uploads `data` beside the target and renames it; `unchanged` is the target's stat line that must still hold. */
  async #write(path: string, data: Uint8Array, overwrite: boolean, unchanged: string | undefined): Promise<void> {
    const { relative } = this.#lexical(path);
    if (data.length > this.maxFileSize) throw new FileTooLargeError(path, data.length, this.maxFileSize);
    await this.#guard(path, 'write', async () => {
      if (relative === '.') throw new NotAFileError(path, 'the workspace root, a directory');
      const folder = await this.#folderFor(path, posix.dirname(relative));
      const name = posix.basename(relative);
      const target = await this.#probe(path, posix.join(folder.relative, name));
      if (target.stat !== null && target.stat.entry.kind !== 'file') throw new NotAFileError(path, describeKind(target.stat.entry.kind));
      if (!overwrite && target.stat !== null) throw new AlreadyExistsError(path);
      const into = posix.dirname(target.real);
      const temporary = `.${posix.basename(target.real).slice(0, 40)}.${randomUUID()}.tmp`;
      const mode = target.stat === null ? 0o644 : target.stat.entry.mode & 0o7777;
      const container = await this.#container();
      await container.putArchive(await packOneFile(temporary, data, mode), { path: into });
      const committed = await runArgv(container, ['/bin/sh', '-c', COMMIT_SCRIPT, 'sh', `${into}/${temporary}`, target.real,
        overwrite ? 'replace' : 'new', unchanged ?? ''], { user: this.#user });
      if (committed.exitCode === 0) return;
      if (committed.exitCode === 42) throw new PathChangedError(path, 'the file was modified after it was read');
      const now = await this.#probe(path, posix.join(folder.relative, name));
      if (!overwrite && now.stat !== null) throw new AlreadyExistsError(path);
      if (now.stat !== null && now.stat.entry.kind !== 'file') throw new NotAFileError(path, describeKind(now.stat.entry.kind));
      throw new WorkspaceIoError(path, 'write', engineFailure(committed.stderr));
    });
  }

  /** Makes sure the folder `relative` exists inside the root (creating missing levels) and returns it resolved. */
  async #folderFor(path: string, relative: string): Promise<{ relative: string }> {
    let probe = await this.#probe(path, relative).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'NOT_FOUND') return null;
      throw error;
    });
    if (probe === null || probe.stat === null) {
      const container = await this.#container();
      const made = await runArgv(container, ['mkdir', '-p', '--', await this.#absolute(relative)], { user: this.#user });
      if (made.exitCode !== 0) throw new WorkspaceIoError(path, 'create the folders of', engineFailure(made.stderr));
      probe = await this.#probe(path, relative);
    }
    if (probe.stat === null) throw new PathChangedError(path, 'its folder vanished');
    if (!probe.stat.entry.isDirectory) throw new NotADirectoryError(path);
    const root = await this.#root();
    return { relative: posix.relative(root, probe.real) || '.' };
  }

  /**
   * Resolves `relative` in the container and checks that the canonical path lies inside the root.
   * @throws PathOutsideWorkspaceError, NotFoundError (a folder on the way is missing or a link dangles),
   * NotADirectoryError (a folder on the way is a file).
   */
  async #probe(path: string, relative: string): Promise<Probe> {
    const root = await this.#root();
    const container = await this.#container();
    const result = await runArgv(container, ['/bin/sh', '-c', PROBE_SCRIPT, 'sh', await this.#absolute(relative)], { user: this.#user });
    if (result.exitCode === 3 || result.exitCode === 5) throw new NotFoundError(path);
    if (result.exitCode === 4) throw new NotADirectoryError(path);
    const cut = result.stdout.indexOf(0);
    if (result.exitCode !== 0 || cut < 0) throw new WorkspaceIoError(path, 'resolve', engineFailure(result.stderr));
    const real = result.stdout.subarray(0, cut).toString('utf8');
    if (!isWithin(root, real)) throw new PathOutsideWorkspaceError(path, 'a symbolic link on the way leads outside the workspace root');
    const line = result.stdout.subarray(cut + 1).toString('utf8').replace(/\n$/, '');
    const entry = line === '' ? null : parseStat(posix.basename(real), line);
    return { real, stat: entry === null ? null : { line, entry } };
  }

  /** Entries under the canonical folder `folder` (the whole tree without links when `all`), paths relative to it. */
  async #list(folder: string, all: boolean, path: string, signal?: AbortSignal): Promise<ListedEntry[]> {
    const container = await this.#container();
    const result = await runArgv(container, ['/bin/sh', '-c', LIST_SCRIPT, 'sh', folder, all ? 'all' : 'one'], { user: this.#user, signal });
    signal?.throwIfAborted();
    if (result.exitCode !== 0) throw new WorkspaceIoError(path, 'list', engineFailure(result.stderr));
    const out = result.stdout;
    const entries: (ListedEntry | null)[] = [];
    for (let at = 0; ;) {
      const nul = out.indexOf(0, at);
      const newline = out.indexOf(10, nul + 1);
      if (nul < 0 || newline < 0) break;
      const full = out.subarray(at, nul).toString('utf8');
      // An entry removed between find and stat has an empty stat line, which parses to null.
      entries.push(parseStat(posix.relative(folder, full), out.subarray(nul + 1, newline).toString('utf8')));
      at = newline + 1;
    }
    return entries.filter((entry): entry is ListedEntry => entry !== null);
  }

  /** The root's canonical path in the container, created on first use. */
  #root(): Promise<string> {
    this.#realRoot ??= (async () => {
      const container = await this.#container();
      const made = await runArgv(container, ['mkdir', '-p', '--', this.root], { user: this.#user });
      if (made.exitCode !== 0) throw new WorkspaceIoError(this.root, 'create the workspace root', engineFailure(made.stderr));
      const real = await runArgv(container, ['readlink', '-f', '--', this.root], { user: this.#user });
      const resolved = real.stdout.toString('utf8').replace(/\n$/, '');
      if (real.exitCode !== 0 || !resolved.startsWith('/')) throw new WorkspaceIoError(this.root, 'resolve the workspace root', engineFailure(real.stderr));
      return resolved;
    })();
    this.#realRoot.catch(() => {
      this.#realRoot = undefined;
    });
    return this.#realRoot;
  }

  async #absolute(relative: string): Promise<string> {
    const root = await this.#root();
    return relative === '.' ? root : `${root === '/' ? '' : root}/${relative}`;
  }

  /** Applies the path to the root as text. @throws InvalidPathError, PathOutsideWorkspaceError. */
  #lexical(requested: unknown): { relative: string } {
    const path = checkPathString(requested);
    let rest = path;
    if (path.startsWith('/')) {
      if (!isWithin(this.root, path)) throw new PathOutsideWorkspaceError(path, 'an absolute path must lie inside the workspace root');
      rest = path.slice(this.root.length);
    }
    const segments = normalizeSegments(rest.split('/'), () => new PathOutsideWorkspaceError(path, "its '..' segments climb above the root"));
    return { relative: segments.length === 0 ? '.' : segments.join('/') };
  }

  /** Runs `work`, turning an engine failure into `IO_ERROR`. */
  async #guard<T>(path: string, action: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      throw new WorkspaceIoError(path, action, error);
    }
  }
}

function checkPathString(requested: unknown): string {
  if (typeof requested !== 'string') {
    throw new InvalidPathError(String(requested), `a path must be a string, got ${requested === null ? 'null' : typeof requested}`);
  }
  if (requested.includes('\0')) throw new InvalidPathError(requested, 'it contains a NUL byte, which no file name may hold');
  return requested;
}

/** Refuses absolute patterns and `..` segments or alternatives, escaped or not, before any listing. */
function checkPattern(pattern: unknown): void {
  checkPathString(pattern);
  const plain = (pattern as string).replace(/\\(.)/g, '$1');
  if (/^(\/|\\|[A-Za-z]:)/.test(pattern as string) || plain.startsWith('/')) {
    throw new PathOutsideWorkspaceError(pattern as string, 'a glob pattern must be relative to the workspace root, not absolute');
  }
  if (/(^|[/{,(|])\.\.($|[/},)|])/.test(plain)) {
    throw new PathOutsideWorkspaceError(pattern as string, "a glob pattern may not contain '..' segments, which climb above the root");
  }
}

function toEntry(path: string, listed: ListedEntry, followed = false): Entry {
  return Object.freeze({ path, isDirectory: listed.isDirectory, isSymlink: followed || listed.isSymlink, size: listed.size, modifiedMs: listed.modifiedMs });
}

function byPath(a: Entry, b: Entry): number {
  // Paths of one listing are unique: never equal.
  return a.path < b.path ? -1 : 1;
}
