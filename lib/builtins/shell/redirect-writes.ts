import { PermissionBehavior } from '../../permissions/permission-behavior';
import type { PermissionContext } from '../../permissions/permission-context';
import { PermissionDecision } from '../../permissions/permission-decision';
import { formatPermissionRule, type PermissionRule } from '../../permissions/permission-rule';
import { pathRule } from '../../permissions/rule-matchers';
import type { ShellAnalysis } from './analyze-command';

/** Output targets that write no file. */
const HARMLESS_TARGETS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

const PATH_HOOKS = pathRule('path');

/** Options of {@link judgeRedirectWrites}. */
export interface RedirectWriteOptions {
  /** The tool whose path rules judge a write (default `Write`): `Write(.env)` deny rules deny `echo x > .env`. */
  readonly writeTool?: string;
}

/**
 * A command's output redirections judged as writes of their target files, for a shell tool's own permission check
 * (command rules never cover them: see docs/shell-analysis.md). In order: a target known only at run time (`> "$F"`)
 * is a bypass-immune ASK; a target covered by a deny rule of the write tool is a DENY; a dangerous path
 * (`context.isDangerousPath`: `~/.bashrc`, `.git/`, a link leading there) is a bypass-immune ASK; a target covered by
 * an ask rule of the write tool is an ASK; else PASSTHROUGH (no opinion: the command's own rules decide). Targets
 * resolve against `context.cwd`, links included, as `pathRule` judges paths; `/dev/null`, `/dev/stdout`,
 * `/dev/stderr` and descriptor copies (`2>&1`) write no file.
 */
export function judgeRedirectWrites(analysis: ShellAnalysis, context: PermissionContext, options: RedirectWriteOptions = {}): PermissionDecision {
  const tool = options.writeTool ?? 'Write';
  const writes = analysis.redirects.filter((r) => r.kind === 'write' && !(r.target?.literal && HARMLESS_TARGETS.has(r.target.text)));
  const dynamic = writes.find((r) => r.target === undefined || !r.target.literal);
  if (dynamic !== undefined) {
    return PermissionDecision.ask(`The command writes to ${dynamic.target?.text ?? 'a file'}, known only when it runs; confirm it.`, { bypassImmune: true });
  }
  const targets = writes.map((r) => r.target!.text);
  for (const behavior of [PermissionBehavior.DENY, PermissionBehavior.ASK] as const) {
    if (behavior === PermissionBehavior.ASK) {
      const dangerous = targets.find((t) => context.isDangerousPath(t));
      if (dangerous !== undefined) return PermissionDecision.ask(`The command writes to ${dangerous}, a sensitive file; confirm it.`, { bypassImmune: true });
    }
    for (const rule of context.rules) {
      if (rule.toolName !== tool || rule.behavior !== behavior) continue;
      const target = targets.find((t) => covers(rule, t, context));
      if (target === undefined) continue;
      const text = `The permission rule ${formatPermissionRule(rule)} ${behavior === PermissionBehavior.DENY ? 'denies' : 'asks before'} writing ${target}, which the command redirects its output to.`;
      return behavior === PermissionBehavior.DENY ? PermissionDecision.deny(text, { reason: { type: 'rule', rule } }) : PermissionDecision.ask(text, { reason: { type: 'rule', rule } });
    }
  }
  return PermissionDecision.passthrough();
}

/** Whether a deny or ask path rule covers `target`; a rule that cannot judge it (a link loop, a bad pattern) covers it. */
function covers(rule: PermissionRule, target: string, context: PermissionContext): boolean {
  if (rule.ruleContent === undefined) return true;
  try {
    return PATH_HOOKS.matchRule(rule.ruleContent, { path: target }, context, rule.behavior);
  } catch {
    return true;
  }
}
