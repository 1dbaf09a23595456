import { basename, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { SkillWatchError } from './errors';
import { SKILL_FILE } from './skill-folder';

/** A running watch over the skills roots; `close()` stops it. */
export interface SkillRootsWatch {
  close(): Promise<void>;
}

/** The part of chokidar's API the watch uses: `watch(paths, options)`, the same in chokidar 4, 5 and 6. */
export interface ChokidarModule {
  watch: typeof import('chokidar').watch;
}

/**
 * Picks chokidar's API out of what loading it returned: the module namespace of chokidar 5 or 6 (ES modules only),
 * chokidar 4's CommonJS exports, or a namespace whose `default` holds them (chokidar 4 imported from an ES module
 * loader that did not detect its named exports).
 *
 * @param loaded - what `import('chokidar')` or `require('chokidar')` returned.
 * @returns the object whose `watch` is chokidar's.
 * @throws SkillWatchError (code `SKILL_WATCH_UNAVAILABLE`) when neither it nor its `default` has a `watch` function.
 */
export function chokidarApi(loaded: unknown): ChokidarModule {
  for (const candidate of [loaded, (loaded as { default?: unknown } | null | undefined)?.default]) {
    if (typeof (candidate as Partial<ChokidarModule> | null | undefined)?.watch === 'function') return candidate as ChokidarModule;
  }
  throw new SkillWatchError(loaded);
}

/**
 * Loads chokidar on first use. chokidar is an optional peer dependency (4, 5 or 6): this is the only place that loads
 * it, and only when a registry is watched, so importing `agenttoolkit/skills` never needs it. chokidar 5 and 6 ship ES
 * modules only, so it is loaded with a dynamic `import()`, which the CommonJS build keeps as a real `import()` (module
 * `node20`) and which loads chokidar 4's CommonJS as well. Where `import()` is not available (a CommonJS test runner's
 * VM, such as jest without its ES module mode), `require` is tried instead: it loads chokidar 4 there.
 *
 * @returns chokidar's API.
 * @throws SkillWatchError (code `SKILL_WATCH_UNAVAILABLE`) when chokidar cannot be loaded either way; its `cause` is
 *   the `import()` failure.
 */
export async function loadChokidar(): Promise<ChokidarModule> {
  let loaded: unknown;
  try {
    loaded = await import('chokidar');
  } catch (importError) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- fallback where import() is unavailable
      loaded = require('chokidar');
    } catch {
      throw new SkillWatchError(importError);
    }
  }
  return chokidarApi(loaded);
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
  const chokidar = await loadChokidar();
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
