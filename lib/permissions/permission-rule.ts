import { PermissionBehavior } from './permission-behavior';
import { PermissionConfigError } from './permission-error';

/** The behaviours a rule can carry (a rule never passes through). */
export type RuleBehavior = PermissionBehavior.ALLOW | PermissionBehavior.DENY | PermissionBehavior.ASK;

/**
 * One allow, deny or ask rule: the tool it is about, an optional content
 * pattern whose meaning belongs to the tool (`tool.matchRule`; none = every call of that tool), the behaviour and
 * where the rule came from (for example `"user"`, `"project"`, `"session"`: shown to users, never interpreted).
 *
 * Frozen when built by {@link permissionRule} or {@link parsePermissionRule}, and then read in text as its string
 * form (`String(rule)` gives `Bash(git commit:*)`, as {@link formatPermissionRule} does).
 */
export interface PermissionRule {
  readonly toolName: string;
  readonly ruleContent?: string;
  readonly behavior: RuleBehavior;
  readonly source?: string;
}

const RULE = /^([A-Za-z0-9_*-]{1,128})(?:\(([\s\S]*)\))?$/;
const TOOL_NAME = /^[A-Za-z0-9_*-]{1,128}$/;
const FORMS = '`Tool` (every call) or `Tool(content)`, for example `Bash(git commit:*)` or `Write(src/**)`';

/**
 * A frozen rule. Empty `ruleContent` is dropped (the rule then covers every call).
 * @throws PermissionConfigError `INVALID_PERMISSION_RULE` for a rule that has no string form
 *   {@link parsePermissionRule} reads back: a bad tool name, or content of blanks only.
 */
export function permissionRule(toolName: string, behavior: RuleBehavior, ruleContent?: string, source?: string): PermissionRule {
  if (!TOOL_NAME.test(toolName)) {
    throw new PermissionConfigError('INVALID_PERMISSION_RULE', `Permission rule tool name ${JSON.stringify(toolName)} is not valid: use 1 to 128 letters, digits, '_', '-' or '*'.`);
  }
  if (ruleContent !== undefined && ruleContent !== '' && ruleContent.trim() === '') {
    throw new PermissionConfigError('INVALID_PERMISSION_RULE', `Permission rule ${toolName}(${ruleContent}) has blank content. Leave the content out to cover every call of the tool.`);
  }
  const rule: { -readonly [K in keyof PermissionRule]: PermissionRule[K] } = { toolName, behavior };
  if (ruleContent !== undefined && ruleContent !== '') rule.ruleContent = ruleContent;
  if (source !== undefined) rule.source = source;
  // In text (a template literal, String(), a log line) a rule reads as its string form, not "[object Object]".
  Object.defineProperty(rule, 'toString', { value: () => formatPermissionRule(rule), enumerable: false });
  return Object.freeze(rule);
}

/**
 * Parses the string form users keep in configuration files: `Tool` or `Tool(content)`. The content is everything
 * between the first `(` and the final `)`, kept verbatim (it may itself contain parentheses), so
 * `formatPermissionRule(parsePermissionRule(s, b))` gives back `s` (trimmed).
 *
 * @throws PermissionConfigError `INVALID_PERMISSION_RULE` for an empty string, a bad tool name, unbalanced
 *   parentheses or empty content (`Tool()`: write `Tool` for every call).
 */
export function parsePermissionRule(text: string, behavior: RuleBehavior, source?: string): PermissionRule {
  const trimmed = text.trim();
  const match = RULE.exec(trimmed);
  if (match === null) {
    throw new PermissionConfigError('INVALID_PERMISSION_RULE', `Permission rule ${JSON.stringify(text)} is not valid. Write ${FORMS}.`);
  }
  const content = match[2];
  if (content !== undefined && content.trim() === '') {
    throw new PermissionConfigError('INVALID_PERMISSION_RULE', `Permission rule ${JSON.stringify(text)} has empty content. Write \`${match[1]}\` to cover every call of the tool.`);
  }
  return permissionRule(match[1]!, behavior, content, source);
}

/**
 * `rule`, or a frozen copy of it, that reads as its string form in text (`String(rule)`: `Bash(git commit:*)`); a rule
 * built by {@link permissionRule} already does. Used for the suggestions of a decision, which hooks may build as
 * plain objects.
 */
export function readableRule(rule: PermissionRule): PermissionRule {
  if (rule === null || typeof rule !== 'object' || Object.hasOwn(rule, 'toString')) return rule;
  const copy = { ...rule };
  Object.defineProperty(copy, 'toString', { value: () => formatPermissionRule(copy), enumerable: false });
  return Object.freeze(copy);
}

/** The string form of a rule: `Tool` or `Tool(content)` (the inverse of {@link parsePermissionRule}). */
export function formatPermissionRule(rule: PermissionRule): string {
  return rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`;
}

/** Rules as kept in a settings file: one list of rule strings per behaviour. */
export interface PermissionSettings {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly ask?: readonly string[];
}

/**
 * Parses a settings object (`{ allow: [...], deny: [...], ask: [...] }`) into rules, all with `source`.
 * @throws PermissionConfigError `INVALID_PERMISSION_RULE` naming the first bad entry.
 */
export function parsePermissionSettings(settings: PermissionSettings, source?: string): PermissionRule[] {
  return [
    ...(settings.deny ?? []).map((text) => parsePermissionRule(text, PermissionBehavior.DENY, source)),
    ...(settings.ask ?? []).map((text) => parsePermissionRule(text, PermissionBehavior.ASK, source)),
    ...(settings.allow ?? []).map((text) => parsePermissionRule(text, PermissionBehavior.ALLOW, source)),
  ];
}

/** The settings form of `rules` (inverse of {@link parsePermissionSettings}; empty lists are left out). */
export function formatPermissionSettings(rules: readonly PermissionRule[]): PermissionSettings {
  const out: { allow?: string[]; deny?: string[]; ask?: string[] } = {};
  for (const rule of rules) (out[rule.behavior] ??= []).push(formatPermissionRule(rule));
  return out;
}
