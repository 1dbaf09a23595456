import { formatPermissionRule, type PermissionRule } from './permission-rule';
import type { PermissionSubject } from './permission-subject';

/** The view of a tool that checking rules needs. */
export type RuleCheckTool = Pick<PermissionSubject, 'name' | 'isMcp' | 'mcpName' | 'hasRuleMatcher'>;

/** Options of `PermissionEngine.checkRules`. */
export interface RuleCheckOptions {
  /**
   * MCP servers whose tools may be registered later (a client that connects after the engine is built): a rule
   * `mcp__<server>__<tool>` or `mcp__<server>` for one of them is accepted without a registered tool. Rules for any
   * other `mcp__` server that has no registered tool are warnings, never refusals: servers may connect later.
   */
  readonly mcpServers?: readonly string[];
}

/** What `PermissionEngine.checkRules` found: rules that may still match once more tools arrive. */
export interface RuleCheckReport {
  /** One sentence per rule that names no registered tool yet but may (an `mcp__` rule); empty when none. */
  readonly warnings: readonly string[];
}

/**
 * Why `rule` would silently match nothing when judging `tool`, or undefined when it is sound: content on a tool that
 * judges no content, or a tool name that differs from the tool's only by case. Used at check time, where the engine
 * fails closed on such a deny or ask rule.
 */
export function ruleMisfit(rule: PermissionRule, tool: RuleCheckTool): string | undefined {
  if (rule.toolName === tool.name) {
    if (rule.ruleContent !== undefined && tool.hasRuleMatcher === false) return noMatcher(rule, tool.name);
    return undefined;
  }
  if (rule.toolName.toLowerCase() === tool.name.toLowerCase()) return caseOnly(rule, tool.name);
  return undefined;
}

/**
 * Every problem of `rules` against the registered `tools`: the refusals (content on a tool without a rule matcher,
 * a name that differs from a registered one only by case, a name no registered tool or MCP server prefix can match)
 * and the warnings (an `mcp__` rule whose server has no registered tool yet).
 */
export function checkRuleSet(rules: readonly PermissionRule[], tools: readonly RuleCheckTool[], options: RuleCheckOptions = {}): { problems: string[]; warnings: string[] } {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const byLowerName = new Map(tools.map((t) => [t.name.toLowerCase(), t]));
  const servers = new Set<string>([...(options.mcpServers ?? []), ...tools.filter((t) => t.isMcp && t.mcpName !== undefined).map((t) => t.mcpName!)]);
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const rule of rules) {
    const tool = byName.get(rule.toolName);
    if (tool !== undefined) {
      const misfit = ruleMisfit(rule, tool);
      if (misfit !== undefined) problems.push(misfit);
      continue;
    }
    const server = mcpServerOf(rule.toolName);
    if (server !== undefined && tools.some((t) => t.isMcp && t.mcpName === server)) continue;
    const near = byLowerName.get(rule.toolName.toLowerCase());
    if (near !== undefined) {
      problems.push(caseOnly(rule, near.name));
    } else if (server !== undefined) {
      if (!servers.has(server)) warnings.push(`The permission rule ${formatPermissionRule(rule)} names the MCP server '${server}', which has no registered tool yet: it matches nothing until that server's tools are registered.`);
    } else {
      problems.push(`The permission rule ${formatPermissionRule(rule)} names no registered tool${suggestion(rule.toolName, tools)}, so it matches nothing. Fix its tool name, register the tool, or remove the rule.`);
    }
  }
  return { problems, warnings };
}

/** The server of an `mcp__<server>` or `mcp__<server>__<tool>` name. */
function mcpServerOf(name: string): string | undefined {
  const match = /^mcp__(.+?)(?:__.+)?$/.exec(name);
  return match?.[1];
}

function noMatcher(rule: PermissionRule, toolName: string): string {
  return `The permission rule ${formatPermissionRule(rule)} has content, but ${toolName} judges no rule content (it has no matchRule), so the rule matches nothing. Write ${toolName} without content to cover every call, or give the tool a matchRule hook.`;
}

function caseOnly(rule: PermissionRule, registered: string): string {
  const fixed = formatPermissionRule({ ...rule, toolName: registered });
  return `The permission rule ${formatPermissionRule(rule)} differs only by case from the tool ${registered}; tool names are compared exactly, so it matches nothing. Write ${fixed}.`;
}

function suggestion(name: string, tools: readonly RuleCheckTool[]): string {
  const lower = name.toLowerCase();
  const near = tools.find((t) => t.name.toLowerCase().startsWith(lower.slice(0, 3)) && lower.length >= 3);
  return near === undefined ? '' : ` (did you mean ${near.name}?)`;
}
