import { posix } from 'node:path';
import { isWithin } from '../../fs/path-within';
import type { Workspace } from '../../workspace/workspace';
import { BuiltinToolError } from './errors';

/**
 * How a file tool names a path two ways: as the workspace takes it (relative to its root) and as the canonical
 * absolute path in the workspace's own file system, which permission rules and safety checks judge (the host path
 * for a `LocalWorkspace`).
 */
export class WorkspacePaths {
  /** Absolute root of the workspace in its own file system, POSIX separators. */
  readonly root: string;

  constructor(readonly workspace: Workspace, root?: string) {
    const found = root ?? (workspace as { root?: unknown }).root;
    if (typeof found !== 'string' || !found.startsWith('/') || found.includes('\0')) {
      throw new BuiltinToolError('INVALID_BUILTIN_OPTION',
        `A file tool needs the workspace's absolute root to judge paths; got ${describe(found)}. Pass { root: '/abs/path' } for a workspace without a 'root' property.`);
    }
    this.root = posix.normalize(found).replace(/(.)\/$/, '$1');
  }

  /** The canonical absolute path: relative paths resolve against the root, `.` and `..` segments are applied. */
  absolute(path: string): string {
    return posix.resolve(this.root, path);
  }

  /** The path as the workspace takes it: root-relative when inside the root, else as given (the workspace refuses it). */
  forWorkspace(path: string): string {
    const absolute = this.absolute(path);
    return isWithin(this.root, absolute) ? posix.relative(this.root, absolute) || '.' : path;
  }

  /** The path shown to the model: relative to the root when inside it, else absolute. */
  display(path: string): string {
    const absolute = this.absolute(path);
    return isWithin(this.root, absolute) ? posix.relative(this.root, absolute) || '.' : absolute;
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\0/g, '\\0')}'` : typeof value;
}
