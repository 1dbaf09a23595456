import type { PermissionContext } from './permission-context';
import type { PermissionDecision } from './permission-decision';
import type { PermissionRule, RuleBehavior } from './permission-rule';

/**
 * What the {@link PermissionEngine} needs from a tool (every `Tool` satisfies it: the permission hooks of
 * `ToolBase`). Inputs are validated params (defaults applied), never the raw model arguments.
 */
export interface PermissionSubject {
  readonly name: string;
  readonly isMcp: boolean;
  readonly mcpName: string | undefined;
  /** Validates a model's arguments (see `Tool.parseArgs`). */
  parseArgs(args: unknown): { readonly ok: true; readonly params: Record<string, unknown> } | { readonly ok: false; readonly error: string };
  /** The tool's own verdict on a call: ALLOW, DENY, ASK (possibly bypass-immune) or PASSTHROUGH. */
  checkPermissions(input: Record<string, unknown>, context: PermissionContext): PermissionDecision | Promise<PermissionDecision>;
  /** Whether this call only reads (used for read-only auto-allow and EXPLORE mode). */
  checkReadOnly(input: Record<string, unknown>): boolean;
  /**
   * Whether a rule's content pattern covers this call, as a boolean or a promise of one (the engine awaits it);
   * `context` gives the cwd relative paths resolve against, `behavior` the rule's behaviour (a path matcher asks more
   * of an allow rule than of a deny rule).
   */
  matchRule(ruleContent: string, input: Record<string, unknown>, context: PermissionContext, behavior: RuleBehavior): boolean | Promise<boolean>;
  /**
   * Whether {@link matchRule} judges content at all (`Tool` answers this). False: a rule with content about this tool
   * would match nothing, and the engine refuses it. Undefined counts as true.
   */
  readonly hasRuleMatcher?: boolean;
  /** Rules that would allow this call, offered with an ASK. */
  generateSuggestions(input: Record<string, unknown>, context?: PermissionContext): readonly PermissionRule[];
}

/**
 * Whether `rule` is about `tool`: the same name, or, for an MCP tool, its server as `mcp__<server>` or
 * `mcp__<server>__*` (one rule for every tool of a server).
 */
export function ruleNamesTool(rule: PermissionRule, tool: PermissionSubject): boolean {
  if (rule.toolName === tool.name) return true;
  if (!tool.isMcp || tool.mcpName === undefined) return false;
  return rule.toolName === `mcp__${tool.mcpName}` || rule.toolName === `mcp__${tool.mcpName}__*`;
}
