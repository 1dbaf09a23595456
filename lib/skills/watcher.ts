import { basename, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { SkillWatchError } from './errors';
import { SKILL_FILE } from './skill-folder';

/** A running watch over the skills roots; `close()` stops it. */
export interface SkillRootsWatch {
  close(): Promise<void>;
}

/**
 * Loads chokidar on first use. chokidar is an optional peer dependency: this is the only place that loads it, and only
 * when a registry is watched, so importing `agenttoolkit/skills` never needs it. `require` (the package is CommonJS)
 * rather than `import()`, so the load also works in runtimes without ESM-in-CJS support (jest's VM).
 *
 * @throws SkillWatchError (code `SKILL_WATCH_UNAVAILABLE`) when chokidar cannot be loaded.
 */
export function loadChokidar(): typeof import('chokidar') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of an optional peer dependency
    return require('chokidar') as typeof import('chokidar');
  } catch (error) {
    throw new SkillWatchError(error);
  }
}

/**
 * Watches the skills roots with chokidar: the root folders, their direct sub-folders and each sub-folder's SKILL.md
 * (other files are ignored, since discovery reads only SKILL.md). Every add, change or removal calls `onChange`;
 * watcher errors go to `onError`. Resolves once chokidar has finished its initial scan.
 *
 * @param roots - the configured roots.
 * @param onChange - called synchronously on every relevant file-system event (debounce in the caller).
 * @param onError - called with each error chokidar reports.
 * @throws SkillWatchError when chokidar is not installed.
 */
export async function watchSkillRoots(
  roots: readonly string[],
  onChange: () => void,
  onError: (error: unknown) => void,
): Promise<SkillRootsWatch> {
  const chokidar = loadChokidar();
  const paths = roots.map((root) => resolve(root));
  const watcher: FSWatcher = chokidar.watch(paths, {
    ignoreInitial: true,
    depth: 1,
    ignored: (path, stats) => stats !== undefined && stats.isFile() && basename(path) !== SKILL_FILE,
  });
  watcher.on('all', () => onChange());
  watcher.on('error', (error) => {
    onChange();
    onError(error);
  });
  await new Promise<void>((done) => watcher.once('ready', () => done()));
  return { close: () => watcher.close() };
}
