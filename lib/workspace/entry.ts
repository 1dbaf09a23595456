/**
 * One thing found in a workspace, as returned by {@link Workspace.listDir}, {@link Workspace.glob} and
 * {@link Workspace.stat}. A plain frozen record: safe to serialise and hand to a model.
 */
export interface Entry {
  /**
   * Path relative to the workspace root, POSIX separators, no leading `./` and no `..` (for example `src/index.ts`).
   * The root itself is `.`.
   */
  readonly path: string;
  /** True for a directory (after following the link when {@link Entry.isSymlink} comes from `stat`). */
  readonly isDirectory: boolean;
  /**
   * True when the path is a symbolic link. `listDir` and `glob` describe the link itself and never follow it (so
   * `isDirectory` is false and `size` null for a link); `stat` follows links that stay inside the root and sets
   * this flag to say that it did.
   */
  readonly isSymlink: boolean;
  /** Size in bytes; `null` for directories and for links that were not followed. */
  readonly size: number | null;
  /** Last modification time, milliseconds since the Unix epoch (may have a fractional part). */
  readonly modifiedMs: number;
}
