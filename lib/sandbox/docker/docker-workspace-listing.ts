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

/** File types by their `st_mode` bits; character and block devices are the rest. */
const KINDS: Readonly<Record<number, ListedEntry['kind']>> = {
  0o100000: 'file', 0o040000: 'directory', 0o120000: 'link', 0o010000: 'fifo', 0o140000: 'socket',
};

/**
 * Parses a `stat -c '%f|%s|%Y|%y'` line (raw mode in hex, size in bytes, modification time in seconds, then in
 * human form with nanoseconds). @returns null for a line that is not one (the entry vanished before `stat` ran).
 */
export function parseStat(path: string, line: string): ListedEntry | null {
  const [rawMode, size, seconds, human] = line.split('|');
  if (human === undefined) return null;
  const mode = Number.parseInt(rawMode!, 16);
  const kind = KINDS[mode & 0o170000] ?? 'device';
  const nanos = /\.(\d{1,9})/.exec(human)?.[1]?.padEnd(9, '0') ?? '0';
  return {
    path,
    kind,
    mode,
    isDirectory: kind === 'directory',
    isSymlink: kind === 'link',
    size: kind === 'directory' || kind === 'link' ? null : Number(size),
    modifiedMs: Number(seconds) * 1000 + Number(nanos) / 1e6,
  };
}

const KIND_TEXT: Readonly<Record<ListedEntry['kind'], string>> = {
  file: 'a file', directory: 'a directory', link: 'a symbolic link', fifo: 'a FIFO', socket: 'a socket', device: 'a device',
};

/** The kind of an entry as an error message names it (`a FIFO`). */
export function describeKind(kind: ListedEntry['kind']): string {
  return KIND_TEXT[kind];
}

/** The cause of a failed helper command: its standard error, or a generic text when it printed none. */
export function engineFailure(stderr: string): { message: string } {
  return { message: stderr.trim() || 'the helper command failed in the container' };
}
