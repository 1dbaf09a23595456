import type { Workspace } from '../../workspace/workspace';
import type { CredentialPathOptions } from './credential-paths';

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
  /** The tool's name (default the built-in name: `Read`, `Write`, `Edit`, `Glob`). */
  readonly name?: string;
}
