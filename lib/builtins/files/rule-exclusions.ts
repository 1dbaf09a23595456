import { isWithin } from '../../fs/path-within';
import { resolveRealPath } from '../../fs/resolve-real-path';
import { PermissionBehavior } from '../../permissions/permission-behavior';
import type { PermissionContext } from '../../permissions/permission-context';
import type { RuleBehavior } from '../../permissions/permission-rule';
import { patternBase } from '../../permissions/path-pattern';
import type { PathPermissions } from './path-permissions';

/** What a multi-file tool reads the current rules from at call time: a `PermissionEngine` (its `context`). */
export interface PermissionSource {
  readonly context: PermissionContext;
}

/** The note a multi-file tool's answer ends with when deny rules left files out; it never names them. */
export const LEFT_OUT_NOTE = '(Some files were left out: permission rules deny them.)';

/**
 * The permission side of a tool that reaches many files in one call (Grep, Glob), whose rules name the folder it
 * searches. A rule about a path pattern is judged for every file the call could reach, not for the folder only:
 *
 * - a deny rule that covers the whole search folder denies the call; one that may reach a file inside it leaves
 *   those files out of the answer when the tool reads the rules at call time (`permissions` given), and denies the
 *   whole call otherwise (it could not leave them out);
 * - an ask rule that covers the folder or may reach a file inside it asks before the call runs;
 * - an allow rule must cover the whole search folder.
 *
 * "May reach" is judged on the rule pattern's fixed leading folder: it lies inside the search folder, or the search
 * folder inside it (as written, and with the links of the search folder resolved). Case is ignored when the context
 * says so.
 */
export class MultiFileRules {
  constructor(
    private readonly toolName: string,
    private readonly permissions: PathPermissions,
    private readonly source: PermissionSource | undefined,
  ) {}

  /** Whether the rule `content` about a call searching `folder` applies to the call (see the class docs). */
  matchRule(content: string, folder: string, context: PermissionContext, behavior: RuleBehavior): boolean {
    if (this.permissions.matchRule(content, folder, context, behavior)) return true;
    if (behavior === PermissionBehavior.ALLOW) return false;
    if (behavior === PermissionBehavior.DENY && this.source !== undefined) return false;
    return this.reaches(content, folder, context);
  }

  /**
   * Whether a deny rule naming the tool covers `file` (root-relative, as the search printed it), judged as for
   * Read (links resolved, case-insensitive file systems probed). The rules are read from `permissions` now.
   */
  isDenied(file: string, toolName = this.toolName): boolean {
    if (this.source === undefined) return false;
    const context = this.source.context;
    for (const rule of context.rules) {
      if (rule.behavior !== PermissionBehavior.DENY || rule.toolName !== toolName || rule.ruleContent === undefined) continue;
      try {
        if (this.permissions.matchRule(rule.ruleContent, file, context, PermissionBehavior.DENY)) return true;
      } catch {
        // A rule that cannot judge the file counts as covering it, as in the engine.
        return true;
      }
    }
    return false;
  }

  /** Whether any deny rule naming the tool has path content (so that results need filtering at all). */
  get filters(): boolean {
    return this.source !== undefined && this.source.context.rules.some((r) => r.behavior === PermissionBehavior.DENY && r.toolName === this.toolName && r.ruleContent !== undefined);
  }

  private reaches(content: string, folder: string, context: PermissionContext): boolean {
    let base: string;
    try {
      base = patternBase(content, context.cwd);
    } catch {
      return true;
    }
    const absolute = this.permissions.paths.absolute(folder);
    let real = absolute;
    try {
      real = resolveRealPath(absolute);
    } catch {
      return true;
    }
    const fold = (p: string) => (context.caseInsensitive ? p.toLowerCase() : p);
    return [absolute, real].some((where) => isWithin(fold(base), fold(where)) || isWithin(fold(where), fold(base)));
  }
}
