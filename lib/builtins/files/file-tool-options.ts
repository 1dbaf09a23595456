import type { Workspace } from '../../workspace/workspace';
import type { CredentialPathOptions } from './credential-paths';
import type { PermissionSource } from './rule-exclusions';

/** What every file tool factory takes. */
export interface FileToolOptions {
  /** The workspace the tool reads and writes; switching backend is passing another instance. */
  readonly workspace: Workspace;
  /**
   * The workspace root as an absolute path in the workspace's own file system, which path rules and safety checks
   * judge. Default: the workspace's `root` property (`LocalWorkspace.root`, its real host path).
   */
  readonly root?: string;
  /** Credential files and folders to add to the built-in lists (reading them asks; writing them asks, bypass-immune). */
  readonly credentialPaths?: CredentialPathOptions;
  /**
   * The permission engine that judges this tool's calls. Grep and Glob read its rules when they run and leave out of
   * their answer every file a deny rule naming them covers (`Grep(secret/**)`), wherever the search starts and
   * whatever glob narrows it. Without it they cannot leave files out, so a deny rule that may reach a file inside
   * the searched folder denies the whole call.
   */
  readonly engine?: PermissionSource;
  /** The tool's name (default the built-in name: `Read`, `Write`, `Edit`, `Glob`). */
  readonly name?: string;
}
