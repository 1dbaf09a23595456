import { asClause, cutText } from '../text/cut-text';
import { PermissionBehavior } from './permission-behavior';
import { PermissionContext, type PermissionContextInit } from './permission-context';
import { PermissionDecision } from './permission-decision';
import { PermissionMode } from './permission-mode';
import { PermissionConfigError } from './permission-error';
import { formatPermissionRule, parsePermissionRule, parsePermissionSettings, type PermissionRule, type PermissionSettings, type RuleBehavior } from './permission-rule';
import { ruleNamesTool, type PermissionSubject } from './permission-subject';
import { checkRuleSet, ruleMisfit, type RuleCheckOptions, type RuleCheckReport, type RuleCheckTool } from './rule-check';

/** Options of `new PermissionEngine(...)`: a context's fields, plus rules in their settings-file form. */
export interface PermissionEngineOptions extends PermissionContextInit {
  /** Rule strings per behaviour (`{ allow: ['Read'], deny: ['Bash(rm:*)'] }`), added after `rules`. */
  readonly settings?: PermissionSettings;
  /** The `source` recorded on rules parsed from `settings` (default `"settings"`). */
  readonly settingsSource?: string;
}

type Input = Record<string, unknown>;

/**
 * Decides whether a tool call may run. Every mode first applies, in
 * order: a matching deny rule (DENY), a matching ask rule (ASK, with suggestions), a read-only call
 * (`tool.checkReadOnly`: ALLOW). Then:
 *
 * | mode | after the common steps |
 * |---|---|
 * | DEFAULT, ACCEPT_EDITS | the tool's check: ALLOW/DENY as is; bypass-immune ASK as is; other ASK or PASSTHROUGH: an allow rule allows, else ASK |
 * | EXPLORE | DENY (read-only mode; allow rules never consulted) |
 * | BYPASS | the tool's ALLOW/DENY honoured, every ASK ignored: ALLOW |
 * | DONT_ASK | as DEFAULT, then any ASK becomes DENY keeping its reason and suggestions |
 *
 * A tool check that rewrites the input (`updatedInput`) has the rewritten input checked against the deny and ask
 * rules again and carried on the final decision; a tool check or rule matcher that throws fails closed (DENY, or
 * "matches" for deny and ask rules, with the matcher's error in the message); arguments that do not validate are allowed (reason
 * `invalid_input`) unless a tool-wide deny rule applies, because such a call fails validation and runs nothing.
 * A deny or ask rule meant for the tool that would match nothing (content on a tool without a rule matcher, or a
 * tool name that differs from the tool's only by case) denies the call, naming the rule and its fix; see
 * {@link PermissionEngine.checkRules} for the whole rule set against a registry.
 * Never returns PASSTHROUGH; never rejects.
 */
export class PermissionEngine {
  private current: PermissionContext;

  constructor(options: PermissionEngineOptions = {}) {
    const fromSettings = options.settings ? parsePermissionSettings(options.settings, options.settingsSource ?? 'settings') : [];
    this.current = new PermissionContext({ ...options, rules: [...(options.rules ?? []), ...fromSettings] });
  }

  /** The context tools see: mode, rules, working directories (a new frozen object after every change). */
  get context(): PermissionContext {
    return this.current;
  }

  /** The current mode. */
  get mode(): PermissionMode {
    return this.current.mode;
  }

  /** Switches the mode (for example when the user leaves plan/explore mode). */
  setMode(mode: PermissionMode): this {
    return this.update({ mode });
  }

  /** Adds rules: `PermissionRule` objects, or rule strings with the behaviour and source they get. */
  addRules(rules: ReadonlyArray<PermissionRule>): this;
  addRules(rules: ReadonlyArray<string>, behavior: RuleBehavior, source?: string): this;
  addRules(rules: ReadonlyArray<PermissionRule | string>, behavior?: RuleBehavior, source?: string): this {
    const parsed = rules.map((rule) => (typeof rule === 'string' ? parsePermissionRule(rule, behavior!, source) : rule));
    return this.update({ rules: [...this.current.rules, ...parsed] });
  }

  /** Removes every rule with the same tool, content and behaviour as `rule` (the source is ignored). */
  removeRule(rule: PermissionRule): this {
    const text = formatPermissionRule(rule);
    return this.update({ rules: this.current.rules.filter((r) => r.behavior !== rule.behavior || formatPermissionRule(r) !== text) });
  }

  /**
   * Checks the rules against a registry (a `Tools`, or any list of tools), so that no rule silently matches nothing.
   * Refused, all at once: a rule with content about a tool that judges no content (`deploy(prod)` on a tool without
   * a rule matcher), a tool name that differs from a registered one only by case (`bash(rm:*)` beside `Bash`), and a
   * tool name that no registered tool and no registered MCP server's prefix can match. A rule naming an `mcp__`
   * server with no registered tool yet is a warning (its client may connect later; list it in
   * `options.mcpServers` to silence the warning). `runToolCalls` calls this for every batch.
   *
   * @returns the warnings.
   * @throws PermissionConfigError `RULE_MATCHES_NOTHING`, one line per refused rule, each naming the fix.
   */
  checkRules(tools: Iterable<RuleCheckTool> | { list(): readonly RuleCheckTool[] }, options: RuleCheckOptions = {}): RuleCheckReport {
    const list = 'list' in tools && typeof tools.list === 'function' ? tools.list() : [...(tools as Iterable<RuleCheckTool>)];
    const { problems, warnings } = checkRuleSet(this.current.rules, list, options);
    if (problems.length > 0) throw new PermissionConfigError('RULE_MATCHES_NOTHING', problems.join('\n'));
    return { warnings };
  }

  /**
   * The decision for one call of `tool` with the model's `args` (object or JSON text). See the class docs for the
   * order. ASK decisions carry suggested rules (the tool's `generateSuggestions`, unless the check gave its own).
   */
  async check(tool: PermissionSubject, args: unknown): Promise<PermissionDecision> {
    const context = this.current;
    // A deny or ask rule meant for this tool that would match nothing (content it cannot judge, a name that differs
    // only by case) fails closed: the user believes the call is denied or asked for.
    for (const rule of context.rules) {
      if (rule.behavior === PermissionBehavior.ALLOW) continue;
      const misfit = ruleMisfit(rule, tool);
      if (misfit !== undefined) return PermissionDecision.deny(`${misfit} Until then this call of ${tool.name} is denied.`, { reason: { type: 'rule', rule } });
    }
    const parsed = tool.parseArgs(args);
    if (!parsed.ok) {
      const deny = await this.find(context, tool, PermissionBehavior.DENY, undefined);
      return deny ? denyByRule(tool, deny) : PermissionDecision.allow(`Arguments for ${tool.name} do not validate; the call will fail validation and run nothing.`, { reason: { type: 'invalid_input' } });
    }
    const input = parsed.params;
    const deny = await this.find(context, tool, PermissionBehavior.DENY, input);
    if (deny) return denyByRule(tool, deny);
    const ask = await this.find(context, tool, PermissionBehavior.ASK, input);
    if (ask) {
      return this.finish(context, tool, input, askByRule(tool, ask));
    }
    // Only `true` vouches for the call: a predicate written `async` returns a Promise, which is truthy but says nothing.
    if (safely(() => tool.checkReadOnly(input) === true, false)) {
      return PermissionDecision.allow(`${tool.name} only reads for this call.`, { reason: { type: 'read_only' } });
    }
    if (context.mode === PermissionMode.EXPLORE) {
      return PermissionDecision.deny(`${tool.name} may change things, and explore mode is read-only.`, { reason: { type: 'mode', mode: context.mode } });
    }
    let own: PermissionDecision;
    try {
      own = await tool.checkPermissions(input, context);
      // A hand-written check (plain JavaScript, or typed `any`) may return anything: only a decision counts.
      own = asDecision(own);
    } catch (error) {
      return PermissionDecision.deny(`The permission check of ${tool.name} failed (${clause(error)}), so the call is denied.`, { reason: { type: 'error' } });
    }
    const effective = own.updatedInput ?? input;
    if (own.updatedInput !== undefined) {
      const denyUpdated = await this.find(context, tool, PermissionBehavior.DENY, effective);
      if (denyUpdated) return denyByRule(tool, denyUpdated);
      const askUpdated = own.behavior === PermissionBehavior.DENY ? undefined : await this.find(context, tool, PermissionBehavior.ASK, effective);
      if (askUpdated) {
        return this.finish(context, tool, effective, askByRule(tool, askUpdated, own.updatedInput));
      }
    }
    if (own.behavior === PermissionBehavior.ALLOW || own.behavior === PermissionBehavior.DENY) return own;
    if (context.mode === PermissionMode.BYPASS) {
      return PermissionDecision.allow(`Bypass mode allows ${tool.name}.`, { reason: { type: 'mode', mode: context.mode }, updatedInput: own.updatedInput });
    }
    if (own.behavior === PermissionBehavior.ASK && own.bypassImmune) return this.finish(context, tool, effective, own);
    const allow = await this.find(context, tool, PermissionBehavior.ALLOW, effective);
    if (allow) {
      return PermissionDecision.allow(`Allowed by rule ${formatPermissionRule(allow.rule)}.`, { reason: { type: 'rule', rule: allow.rule }, updatedInput: own.updatedInput });
    }
    const asking = own.behavior === PermissionBehavior.ASK ? own : PermissionDecision.ask(`No permission rule allows this call of ${tool.name}, so the user must confirm it.`, { reason: { type: 'default' }, updatedInput: own.updatedInput });
    return this.finish(context, tool, effective, asking);
  }

  /**
   * The first rule of `behavior` about `tool` that covers `input` (undefined input: tool-wide rules only). A matcher
   * that throws or rejects counts as covering for deny and ask rules (its error is kept for the message), never for
   * allow rules. A matcher may answer with a promise (a shell matcher loads its parser on first use): it is awaited.
   */
  private async find(context: PermissionContext, tool: PermissionSubject, behavior: RuleBehavior, input: Input | undefined): Promise<Found | undefined> {
    for (const rule of context.rules) {
      if (rule.behavior !== behavior || !ruleNamesTool(rule, tool)) continue;
      if (rule.ruleContent === undefined) return { rule };
      if (input === undefined) continue;
      const content = rule.ruleContent;
      try {
        if (await tool.matchRule(content, input, context, behavior)) return { rule };
      } catch (error) {
        if (behavior !== PermissionBehavior.ALLOW) return { rule, error };
      }
    }
    return undefined;
  }

  /** Adds suggestions to an ASK and applies DONT_ASK (ASK becomes DENY, reason and suggestions kept). */
  private finish(context: PermissionContext, tool: PermissionSubject, input: Input, ask: PermissionDecision): PermissionDecision {
    const suggestions = ask.suggestions.length > 0 ? ask.suggestions : safely(() => tool.generateSuggestions(input, context), []);
    if (context.mode !== PermissionMode.DONT_ASK) return ask.suggestions === suggestions ? ask : ask.with({ suggestions });
    return ask.with({
      behavior: PermissionBehavior.DENY,
      message: `${asSentence(ask.message)} Denied: dont-ask mode never asks.`,
      suggestions,
    });
  }

  private update(patch: PermissionContextInit): this {
    const c = this.current;
    this.current = new PermissionContext({
      mode: c.mode,
      rules: c.rules,
      workingDirectories: c.workingDirectories,
      cwd: c.cwd,
      caseInsensitive: c.caseInsensitive,
      dangerousPaths: c.dangerousPaths,
      ...patch,
    });
    return this;
  }
}

interface Found {
  readonly rule: PermissionRule;
  /** What the rule's matcher threw, when it could not judge the call (the rule then counts as matching). */
  readonly error?: unknown;
}

function denyByRule(tool: PermissionSubject, found: Found): PermissionDecision {
  return PermissionDecision.deny(`${ruleText(found)} denies this call of ${tool.name}.${unjudged(found)}`, { reason: { type: 'rule', rule: found.rule } });
}

function askByRule(tool: PermissionSubject, found: Found, updatedInput?: Input): PermissionDecision {
  return PermissionDecision.ask(`${ruleText(found)} asks before ${tool.name} runs.${unjudged(found)}`, { reason: { type: 'rule', rule: found.rule }, updatedInput });
}

function ruleText({ rule }: Found): string {
  return `The permission rule ${formatPermissionRule(rule)}${rule.source ? ` (from ${rule.source})` : ''}`;
}

function unjudged(found: Found): string {
  return 'error' in found ? ` The rule could not judge this call, so it applies (${clause(found.error)}).` : '';
}

/** A message as a sentence that another can follow: ending in `.`, `!` or `?` (empty stays empty). */
function asSentence(message: string): string {
  const text = message.trim();
  return text === '' || /[.!?]$/.test(text) ? text : `${text}.`;
}

/** An error's message quoted in a decision is cut to this many characters. */
const MAX_ERROR_CLAUSE = 300;

/** An error's message as a clause inside parentheses: no final full stop. */
function clause(error: unknown): string {
  // The message may echo the model's input (a path in a resolution error): capped, and trimmed in linear time.
  return cutText(asClause(error instanceof Error ? error.message : String(error)), MAX_ERROR_CLAUSE);
}

const BEHAVIORS: ReadonlySet<unknown> = new Set(Object.values(PermissionBehavior));

/** A tool check's answer as a real decision: a decision-shaped plain object is rebuilt, anything else throws. */
function asDecision(value: unknown): PermissionDecision {
  if (value instanceof PermissionDecision) return value;
  const shape = value as Partial<Record<keyof PermissionDecision, unknown>> | null;
  if (typeof shape !== 'object' || shape === null || !BEHAVIORS.has(shape.behavior)) {
    throw new PermissionConfigError('INVALID_PERMISSION_DECISION', `checkPermissions returned ${shape === null ? 'null' : typeof shape === 'object' ? 'an object without a valid behavior' : typeof shape} instead of a PermissionDecision`);
  }
  const updated = shape.updatedInput;
  return new PermissionDecision(shape.behavior as PermissionBehavior, typeof shape.message === 'string' ? shape.message : '', {
    suggestions: Array.isArray(shape.suggestions) ? (shape.suggestions as PermissionRule[]) : undefined,
    updatedInput: typeof updated === 'object' && updated !== null ? (updated as Input) : undefined,
    bypassImmune: shape.bypassImmune === true,
  });
}

function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
