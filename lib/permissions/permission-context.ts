import { resolve } from 'node:path';
import { isDangerousPath, type DangerousPathOptions } from './dangerous-paths';
import { PermissionMode } from './permission-mode';
import type { PermissionRule } from './permission-rule';
import { isInsideWorkingDirectories, realPathOf } from './working-directories';

/** The fields of a {@link PermissionContext}. */
export interface PermissionContextInit {
  readonly mode?: PermissionMode;
  readonly rules?: readonly PermissionRule[];
  /** Directories the agent may edit in ACCEPT_EDITS mode (absolute, or relative to the process's cwd). */
  readonly workingDirectories?: readonly string[];
  /** Extra dangerous files and directories, added to the built-in lists. */
  readonly dangerousPaths?: DangerousPathOptions;
}

/**
 * What a tool's `checkPermissions(input, context)` sees (seed 004: `PermissionContext`): the mode, the rules, the
 * working directories, and the path helpers tools use for their safety checks. Frozen: the engine builds a new one
 * whenever its mode or rules change.
 */
export class PermissionContext {
  readonly mode: PermissionMode;
  readonly rules: readonly PermissionRule[];
  readonly workingDirectories: readonly string[];
  readonly dangerousPaths: DangerousPathOptions;

  constructor(init: PermissionContextInit = {}) {
    this.mode = init.mode ?? PermissionMode.DEFAULT;
    this.rules = Object.freeze([...(init.rules ?? [])]);
    this.workingDirectories = Object.freeze([...(init.workingDirectories ?? [])]);
    this.dangerousPaths = init.dangerousPaths ?? {};
    Object.freeze(this);
  }

  /**
   * Whether `path` is a dangerous file or inside a dangerous directory (built-in lists plus this context's extras),
   * as written or once symlinks are resolved: a link named `notes.txt` that leads to `~/.bashrc` is dangerous, since
   * writing through it changes the start-up file. A relative path resolves against the first working directory (else
   * the process's cwd), as in {@link isInsideWorkingDirectory}.
   */
  isDangerousPath(path: string): boolean {
    if (isDangerousPath(path, this.dangerousPaths)) return true;
    if (path === '') return false;
    return isDangerousPath(realPathOf(path, resolve(this.workingDirectories[0] ?? process.cwd())), this.dangerousPaths);
  }

  /** Whether `path` lies inside a working directory, symlinks resolved (false when none are configured). */
  isInsideWorkingDirectory(path: string): boolean {
    return isInsideWorkingDirectories(path, this.workingDirectories);
  }
}
