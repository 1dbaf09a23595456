import { PermissionBehavior } from '../permissions/permission-behavior';
import { type PermissionRule, parsePermissionRule } from '../permissions/permission-rule';
import { cutText } from '../text/cut-text';
import { InvalidSkillError } from './errors';

/** Longest piece of a bad `allowed-tools` entry quoted in an error message, in characters. */
const QUOTE_LENGTH = 80;

/**
 * Reads the `allowed-tools` front-matter value as permission rule strings (`Tool` or `Tool(content)`, the syntax of
 * `parsePermissionRule`). A YAML list holds one rule per item; a string holds rules separated by blanks or commas,
 * where parentheses group, so `Bash(git add:*) Read` is the two rules `Bash(git add:*)` and `Read`, and
 * `Bash(git commit -m "a, b"), Read` keeps the comma inside the parentheses.
 *
 * @param value - what the YAML gave for `allowed-tools` (undefined when absent).
 * @returns the rule strings, trimmed, in order; or a string saying what is wrong with which entry (for the caller's
 *   InvalidSkillError).
 */
export function parseAllowedTools(value: unknown): readonly string[] | { readonly problem: string } {
  if (value === undefined) return [];
  let entries: readonly string[];
  if (typeof value === 'string') {
    const split = splitRuleList(value);
    if (!Array.isArray(split)) return split as { problem: string };
    entries = split;
  } else if (Array.isArray(value) && value.every((t) => typeof t === 'string')) {
    entries = (value as string[]).map((t) => t.trim());
  } else {
    return { problem: `'allowed-tools' must be a list of permission rule strings or one string of rules separated by blanks or commas (got ${Array.isArray(value) ? 'a list with a non-string item' : typeof value === 'object' && value !== null ? 'a mapping' : String(value)})` };
  }
  for (const entry of entries) {
    try {
      parsePermissionRule(entry, PermissionBehavior.ALLOW);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { problem: `the entry ${quote(entry)} of 'allowed-tools' is not a permission rule (${why})` };
    }
  }
  return entries;
}

/**
 * The allow rules a skill asks for in its `allowed-tools` front matter, for the host to show, review and then add to
 * its own permission configuration (for example `engine.addRules(rules)` on a `PermissionEngine` while the skill is in
 * use, and `engine.removeRule(rule)` afterwards).
 *
 * Nothing applies these rules automatically, and nothing should without a person's consent: a SKILL.md can be
 * written by an agent, so `allowed-tools: Bash` in a skill it wrote would otherwise be a way to grant itself every
 * shell command. Discovery already refused skills whose entries are not permission rules.
 *
 * @example
 * ```ts
 * const skill = await skills.load('git-helper');
 * const rules = skillAllowRules(skill); // [{ toolName: 'Bash', ruleContent: 'git add:*', behavior: 'allow', source: 'skill:git-helper' }]
 * if (await askUser(`Allow ${rules.map(formatPermissionRule).join(', ')}?`)) engine.addRules(rules);
 * ```
 * @param skill - a skill from `skills.list()`, `skills.get(name)` or `skills.load(name)`.
 * @param source - the rules' `source`, shown to users (default `skill:<name>`).
 * @returns frozen allow rules, in the order of the front matter (empty when the skill asks for none).
 * @throws InvalidSkillError (code `SKILL_INVALID`, rule `allowed-tools`) naming the skill and the bad entry, for a
 *   skill object whose `allowedTools` were not read by discovery and hold something that is not a permission rule.
 */
export function skillAllowRules(skill: { readonly name: string; readonly file: string; readonly allowedTools: readonly string[] }, source = `skill:${skill.name}`): readonly PermissionRule[] {
  const rules = skill.allowedTools.map((text) => {
    try {
      return parsePermissionRule(text, PermissionBehavior.ALLOW, source);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new InvalidSkillError(skill.file, 'allowed-tools', `skill '${skill.name}': the entry ${quote(String(text))} of ` +
        `'allowed-tools' is not a permission rule (${why}).`, { cause: error });
    }
  });
  return Object.freeze(rules);
}

/** Splits a rule list at blanks and commas outside parentheses; a problem when the parentheses do not balance. */
function splitRuleList(text: string): string[] | { problem: string } {
  const entries: string[] = [];
  let depth = 0;
  let start = 0;
  const flush = (end: number): void => {
    const entry = text.slice(start, end).trim();
    if (entry !== '') entries.push(entry);
    start = end + 1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return unbalanced(text, `a ')' at character ${i + 1} closes nothing`);
    else if (depth === 0 && (c === ',' || /\s/.test(c))) flush(i);
  }
  if (depth > 0) return unbalanced(text, `${depth} '(' never closed`);
  flush(text.length);
  return entries;
}

function unbalanced(text: string, why: string): { problem: string } {
  return { problem: `'allowed-tools' ${quote(text)} has unbalanced parentheses: ${why}` };
}

function quote(text: string): string {
  return JSON.stringify(cutText(text, QUOTE_LENGTH));
}
