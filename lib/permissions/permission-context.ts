import { resolve } from 'node:path';
import { resolveRealPath } from '../fs/resolve-real-path';
import { isDangerousPath, type DangerousPathOptions } from './dangerous-paths';
import { PermissionMode } from './permission-mode';
import type { PermissionRule } from './permission-rule';
import { isInsideWorkingDirectories } from './working-directories';

/** The fields of a {@link PermissionContext}. */
export interface PermissionContextInit {
  readonly mode?: PermissionMode;
  readonly rules?: readonly PermissionRule[];
  /** Directories the agent may edit in ACCEPT_EDITS mode (absolute, or relative to the process's cwd). */
  readonly workingDirectories?: readonly string[];
  /**
   * The folder the agent's relative paths mean, and the one relative path rule patterns resolve against: set it to
   * the folder the tools resolve relative paths against. Default: the first working directory, else the process's
   * current directory when the context is built.
   */
  readonly cwd?: string;
  /**
   * Compare paths in rules without regard to case, for every rule (default: true on macOS and Windows, whose file
   * systems ignore case by default). Without it, deny and ask rules still ignore case for a path that lies on a file
   * system found to ignore case.
   */
  readonly caseInsensitive?: boolean;
  /** Extra dangerous files and directories, added to the built-in lists. */
  readonly dangerousPaths?: DangerousPathOptions;
}

/**
 * What a tool's `checkPermissions(input, context)` and its rule hooks see: the mode, the rules, the working
 * directories, the cwd relative paths resolve against, and the path helpers tools use for their safety checks.
 * Frozen: the engine builds a new one whenever its mode or rules change.
 */
export class PermissionContext {
  readonly mode: PermissionMode;
  readonly rules: readonly PermissionRule[];
  readonly workingDirectories: readonly string[];
  /** Absolute folder that relative paths and relative path rule patterns resolve against. */
  readonly cwd: string;
  readonly caseInsensitive: boolean;
  readonly dangerousPaths: DangerousPathOptions;

  constructor(init: PermissionContextInit = {}) {
    this.mode = init.mode ?? PermissionMode.DEFAULT;
    this.rules = Object.freeze([...(init.rules ?? [])]);
    this.workingDirectories = Object.freeze([...(init.workingDirectories ?? [])]);
    this.cwd = resolve(init.cwd ?? this.workingDirectories[0] ?? process.cwd());
    this.caseInsensitive = init.caseInsensitive ?? (process.platform === 'darwin' || process.platform === 'win32');
    this.dangerousPaths = init.dangerousPaths ?? {};
    Object.freeze(this);
  }

  /**
   * Whether `path` is a dangerous file or inside a dangerous directory (built-in lists plus this context's extras),
   * as written or once links are resolved: a link named `notes.txt` that leads to `~/.bashrc` is dangerous, since
   * writing through it changes the start-up file. A relative path resolves against {@link cwd}. A path whose links
   * cannot be resolved (a loop, say) counts as dangerous.
   */
  isDangerousPath(path: string): boolean {
    if (isDangerousPath(path, this.dangerousPaths)) return true;
    if (path === '') return false;
    try {
      return isDangerousPath(resolveRealPath(path, this.cwd), this.dangerousPaths);
    } catch {
      return true;
    }
  }

  /**
   * Whether `path` lies inside a working directory (or is one), links resolved on both sides, relative to
   * {@link cwd} (false when none are configured, and for a path whose links cannot be resolved).
   */
  isInsideWorkingDirectory(path: string): boolean {
    return isInsideWorkingDirectories(path, this.workingDirectories, { cwd: this.cwd, caseInsensitive: this.caseInsensitive });
  }
}
