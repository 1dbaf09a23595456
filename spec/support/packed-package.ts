import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

/** A lock older than this is from a run that died: taken over. */
const STALE_LOCK_MS = 15 * 60_000;
/** Cached builds and installs of other contents of this checkout, older than this, are removed when a new one is made. */
const PRUNE_AFTER_MS = 2 * 3600_000;

/**
 * What the packed package is made of: the sources the build compiles and bundles (lib/, the scripts, the tsconfigs,
 * the dependency versions of package-lock.json) and the files it ships beside dist/. Equal contents pack to the same
 * tarball, so a pack is made once per content and reused by every spec file and every Node major of a run.
 */
const PACK_INPUTS = ['lib', 'scripts', 'docs', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE.md', 'CHANGELOG.md', '.npmignore', '.npmrc'];

const checkout = createHash('sha256').update(root).digest('hex').slice(0, 12);
/** This checkout's cache: $AGENTTOOLKIT_CACHE/packed/<checkout> (default ~/.cache/agenttoolkit), outside the project. */
const cacheRoot = join(process.env.AGENTTOOLKIT_CACHE ?? join(process.env.HOME ?? tmpdir(), '.cache', 'agenttoolkit'), 'packed', checkout);

function hashInto(hash: ReturnType<typeof createHash>, path: string): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashInto(hash, join(path, entry));
    return;
  }
  hash.update(`${relative(root, path)}\0`).update(readFileSync(path)).update('\0');
}

let contentKey: string | undefined;
/** The hash of PACK_INPUTS, computed once per jest worker (the sources do not change during a run). */
function packKey(): string {
  if (contentKey === undefined) {
    const hash = createHash('sha256');
    for (const input of PACK_INPUTS) hashInto(hash, join(root, input));
    contentKey = hash.digest('hex').slice(0, 16);
  }
  return contentKey;
}

/**
 * Runs `make` holding the lock folder `name` in the temp dir: one holder at a time across jest workers and processes
 * (the specs of spec/package/ run in parallel workers, and the Node majors one after the other).
 */
function withLock<T>(name: string, make: () => T): T {
  const lock = join(tmpdir(), `agenttoolkit-${name}-${checkout}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    return make();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes `path` (a folder) once: `build` fills a temporary folder beside it, renamed into place when complete, so a
 * reader never sees a half-made one, even from a process that took over a stale lock.
 */
function once(path: string, build: (into: string) => void): string {
  if (existsSync(path)) return path;
  const partial = `${path}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    build(partial);
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(path)) throw error;
  }
  return path;
}

/** Removes this checkout's cached contents other than `keep` that are older than PRUNE_AFTER_MS. */
function prune(keep: string): void {
  if (!existsSync(cacheRoot)) return;
  for (const entry of readdirSync(cacheRoot)) {
    const path = join(cacheRoot, entry);
    if (entry !== keep && Date.now() - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** The cached folder holding the tarball of the current contents, packed first when missing. */
function packed(): string {
  const key = packKey();
  return withLock('pack', () => {
    prune(key);
    return once(join(cacheRoot, key, 'tarball'), (into) => {
      // npm pack's prepack rebuilds dist/ in the checkout: one at a time (the lock), or two would delete and rebuild the
      // same dist/ under each other.
      execFileSync('npm', ['pack', '--pack-destination', into, '--loglevel=error'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      if (!readdirSync(into).some((f) => f.endsWith('.tgz'))) throw new Error(`npm pack wrote no tarball into ${into}`);
    });
  });
}

/**
 * Installs the packed tarball and `packages` (exact `name@version` specs) into a consumer project, once per content of
 * the package and list of packages (cached like the tarball), and links `project`'s node_modules and package.json to
 * it: a fresh project folder whose `agenttoolkit` and peers resolve as after `npm install ./<tarball> ...packages`.
 * The install's files are shared: a spec writes its own files into `project`, never under node_modules.
 *
 * @param project - an existing folder without node_modules.
 * @param packages - what to install beside the tarball, as `npm install` takes them.
 * @throws when the install fails (its output in the message).
 */
export function installPacked(project: string, packages: readonly string[]): void {
  const from = packed();
  const tarball = readdirSync(from).find((f) => f.endsWith('.tgz'))!;
  const list = [...packages].sort();
  const key = createHash('sha256').update(JSON.stringify(list)).digest('hex').slice(0, 16);
  const installed = withLock(`install-${key}`, () =>
    once(join(cacheRoot, packKey(), `consumer-${key}`), (into) => {
      copyFileSync(join(from, tarball), join(into, tarball));
      writeFileSync(join(into, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
      execFileSync('npm', ['install', `./${tarball}`, ...list, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: into, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    }),
  );
  symlinkSync(join(installed, 'node_modules'), join(project, 'node_modules'), 'dir');
  cpSync(join(installed, 'package.json'), join(project, 'package.json'));
}

/**
 * The library compiled by tsc alone (tsconfig.build.json, no bundling: one file per module), once per content of the
 * sources like the tarball, for specs that run the compiled modules themselves.
 *
 * @returns the folder of the compiled library (shared: copy it before writing into it).
 * @throws when tsc fails (its output in the message).
 */
export function compiledLibrary(): string {
  const key = packKey();
  return withLock('tsc', () =>
    once(join(cacheRoot, key, 'tsc'), (into) => {
      execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', into], { cwd: root, stdio: 'pipe' });
    }),
  );
}

/**
 * The optional peers the entry points load, and the types their declarations name (Node's, dockerode's): what a
 * consumer of every entry point installs. One list, so the consumers of published-package.spec.ts and
 * typescript-majors.spec.ts share one install.
 */
export const EVERY_PEER = ['@modelcontextprotocol/sdk', '@types/node', 'dockerode', '@types/dockerode', '@nestjs/common', '@nestjs/core', 'rxjs', 'ai', '@openai/agents-core', 'chokidar', 'typebox', '@sinclair/typebox', '@opentelemetry/api', '@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/node', 'quickjs-emscripten'] as const;

/** What `tsc -p .` printed and returned in a consumer project. */
export interface Compiled {
  readonly status: number | null;
  readonly stdout: string;
}

/**
 * Runs `tsc -p .` (the compiler at `tsc`, on the Node running the specs) in `project`, a folder whose node_modules
 * installPacked linked, and leaves what it emitted there. A successful compile is recorded in the consumer's cache,
 * keyed by the install, the compiler and the project's own files: the same declarations, sources and options give
 * the same diagnostics and output whichever Node runs the compiler, so the other Node majors of a run copy the output
 * and run it instead of compiling again. A failed compile is never recorded (it runs again, and its output is shown).
 *
 * @param project - the consumer folder (its sources, tsconfig.json and package.json directly inside it).
 * @param tsc - the compiler's `bin/tsc`.
 * @returns tsc's exit status and standard output.
 */
export function compileOnce(project: string, tsc: string): Compiled {
  const installed = realpathSync(join(project, '..', 'node_modules'));
  const hash = createHash('sha256').update(installed).update('\0').update(realpathSync(tsc)).update('\0');
  const own = readdirSync(project).sort();
  for (const file of own) hash.update(`${file}\0`).update(readFileSync(join(project, file))).update('\0');
  const record = join(installed, '..', `tsc-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(record, 'compiled.json'))) {
    for (const file of readdirSync(join(record, 'emitted'))) copyFileSync(join(record, 'emitted', file), join(project, file));
    return JSON.parse(readFileSync(join(record, 'compiled.json'), 'utf8')) as Compiled;
  }
  const result = spawnSync(process.execPath, [tsc, '-p', '.'], { cwd: project, encoding: 'utf8' });
  const compiled: Compiled = { status: result.status, stdout: result.stdout };
  if (compiled.status === 0) {
    once(record, (into) => {
      mkdirSync(join(into, 'emitted'));
      for (const file of readdirSync(project)) if (!own.includes(file)) copyFileSync(join(project, file), join(into, 'emitted', file));
      writeFileSync(join(into, 'compiled.json'), JSON.stringify(compiled));
    });
  }
  return compiled;
}
