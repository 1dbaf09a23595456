import type { FileSystemAdapter } from 'tinyglobby';

/** One entry listed in the container, path relative to the folder listed. */
export interface ListedEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory' | 'link' | 'fifo' | 'socket' | 'device';
  /** Raw `st_mode`. */
  readonly mode: number;
  readonly isDirectory: boolean;
  readonly isSymlink: boolean;
  readonly size: number | null;
  readonly modifiedMs: number;
}

interface DirentLike {
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * A read-only file system, for tinyglobby's walk, made of a tree listed in the container: the pattern is matched by
 * the same matcher as LocalWorkspace's glob, and the host's own disk is never consulted (every other call fails
 * with ENOENT).
 *
 * @param root - the canonical folder the entries are relative to.
 */
export function virtualFileSystem(root: string, entries: readonly ListedEntry[]): FileSystemAdapter {
  const children = new Map<string, DirentLike[]>([['', []]]);
  for (const entry of entries) {
    if (entry.isDirectory && !children.has(entry.path)) children.set(entry.path, []);
  }
  for (const entry of entries) {
    const cut = entry.path.lastIndexOf('/');
    const parent = cut < 0 ? '' : entry.path.slice(0, cut);
    const name = entry.path.slice(cut + 1);
    children.get(parent)?.push({
      name,
      isDirectory: () => entry.isDirectory,
      isFile: () => entry.kind === 'file',
      isSymbolicLink: () => entry.isSymlink,
    });
  }
  const list = (path: string): DirentLike[] | undefined => {
    const trimmed = path.replace(/\/+$/, '');
    const relative = trimmed === root || trimmed === '.' || trimmed === '' ? '' : trimmed.startsWith(`${root}/`) ? trimmed.slice(root.length + 1) : undefined;
    return relative === undefined ? undefined : children.get(relative);
  };
  const missing = (path: unknown) => Object.assign(new Error(`ENOENT: ${String(path)}`), { code: 'ENOENT' });
  const adapter = {
    readdir: (path: string, _options: unknown, callback: (error: Error | null, entries?: DirentLike[]) => void) => {
      const found = list(String(path));
      queueMicrotask(() => (found === undefined ? callback(missing(path)) : callback(null, found)));
    },
    readdirSync: (path: string) => {
      const found = list(String(path));
      if (found === undefined) throw missing(path);
      return found;
    },
    realpath: (path: string, callback: (error: Error | null) => void) => queueMicrotask(() => callback(missing(path))),
    realpathSync: (path: string) => {
      throw missing(path);
    },
    stat: (path: string, callback: (error: Error | null) => void) => queueMicrotask(() => callback(missing(path))),
    statSync: (path: string) => {
      throw missing(path);
    },
  };
  return adapter as unknown as FileSystemAdapter;
}
