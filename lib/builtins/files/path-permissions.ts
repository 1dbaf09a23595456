import { PermissionContext } from '../../permissions/permission-context';
import { PermissionDecision } from '../../permissions/permission-decision';
import { PermissionMode } from '../../permissions/permission-mode';
import type { PermissionRule, RuleBehavior } from '../../permissions/permission-rule';
import { pathRule } from '../../permissions/rule-matchers';
import { isCredentialPathResolved, type CredentialPathOptions } from './credential-paths';
import type { WorkspacePaths } from './workspace-paths';

const PATH_RULE = pathRule('path');

/**
 * The permission side of a file tool whose call is about one path: rules, credential and dangerous-path checks,
 * all judged on the canonical absolute path in the workspace (relative rule patterns resolve against the
 * permission context's cwd, as for every path rule).
 */
export class PathPermissions {
  constructor(readonly paths: WorkspacePaths, readonly credentials: CredentialPathOptions = {}) {}

  /** Whether a rule's path pattern covers the call's path (links resolved; see `pathRule`). */
  matchRule(content: string, path: string, context: PermissionContext, behavior: RuleBehavior): boolean {
    return PATH_RULE.matchRule(content, { path: this.paths.absolute(path) }, context, behavior);
  }

  /** `<folder>/**` for the call's folder (or the file itself), as `pathRule` suggests. */
  suggestions(path: string, toolName: string, context?: PermissionContext): PermissionRule[] {
    return PATH_RULE.generateSuggestions({ path: this.paths.absolute(path) }, toolName, context ?? new PermissionContext());
  }

  /** Whether the path, as written or once links are resolved, is a credential path. */
  isCredential(path: string): boolean {
    return isCredentialPathResolved(this.paths.absolute(path), this.paths.root, this.credentials);
  }

  /**
   * The verdict for reading `path`: a credential path asks (allow rules, BYPASS and a user can let it through),
   * anything else is allowed.
   */
  readDecision(toolName: string, path: string, context: PermissionContext): PermissionDecision {
    if (this.isCredential(path)) {
      return PermissionDecision.ask(`${toolName} of '${this.paths.display(path)}' reads a credential file; the user must confirm.`,
        { suggestions: this.suggestions(path, toolName, context) });
    }
    return PermissionDecision.allow(`${toolName} only reads.`);
  }

  /**
   * The verdict for changing `path`: a dangerous or credential path asks, bypass-immune (allow rules cannot silence
   * it); ACCEPT_EDITS allows a path inside a working directory; anything else is the rules' and mode's to decide.
   */
  writeDecision(toolName: string, path: string, context: PermissionContext): PermissionDecision {
    const absolute = this.paths.absolute(path);
    if (context.isDangerousPath(absolute) || this.isCredential(path)) {
      return PermissionDecision.ask(
        `${toolName} of '${this.paths.display(path)}' changes a sensitive file (configuration, start-up script or credentials); the user must confirm.`,
        { bypassImmune: true, suggestions: this.suggestions(path, toolName, context) });
    }
    if (context.mode === PermissionMode.ACCEPT_EDITS && context.isInsideWorkingDirectory(absolute)) {
      return PermissionDecision.allow(`${toolName} edits inside a working directory (accept-edits mode).`);
    }
    return PermissionDecision.passthrough(`${toolName} changes '${this.paths.display(path)}'; the permission rules and mode decide.`);
  }
}
