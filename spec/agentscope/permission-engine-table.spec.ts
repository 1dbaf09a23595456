import { PermissionBehavior, PermissionEngine, PermissionMode, type PermissionSettings } from '../../lib/permissions';
import { Probe, type ProbeVerdict } from './probe-tool';

const { DEFAULT, ACCEPT_EDITS, EXPLORE, BYPASS, DONT_ASK } = PermissionMode;
const A = PermissionBehavior.ALLOW;
const D = PermissionBehavior.DENY;
const Q = PermissionBehavior.ASK;

interface Row {
  situation: string;
  verdict: ProbeVerdict;
  readOnly?: boolean;
  rules?: PermissionSettings;
  /** Expected behaviour per mode, and the reason type of the decision. */
  expect: Record<PermissionMode, [PermissionBehavior, string]>;
}

const deny = { deny: ['Bash(git push:*)'] };
const ask = { ask: ['Bash(git push:*)'] };
const allow = { allow: ['Bash(git push:*)'] };

// Reference semantics section 5: every mode applies deny rule -> ask rule -> read-only first; then per mode.
const table: Row[] = [
  { situation: 'deny rule (tool would allow)', verdict: 'allow', rules: deny,
    expect: { [DEFAULT]: [D, 'rule'], [ACCEPT_EDITS]: [D, 'rule'], [EXPLORE]: [D, 'rule'], [BYPASS]: [D, 'rule'], [DONT_ASK]: [D, 'rule'] } },
  { situation: 'deny rule beats read-only and allow rule', verdict: 'allow', readOnly: true, rules: { ...deny, allow: ['Bash'] },
    expect: { [DEFAULT]: [D, 'rule'], [ACCEPT_EDITS]: [D, 'rule'], [EXPLORE]: [D, 'rule'], [BYPASS]: [D, 'rule'], [DONT_ASK]: [D, 'rule'] } },
  { situation: 'ask rule (tool would allow)', verdict: 'allow', rules: ask,
    expect: { [DEFAULT]: [Q, 'rule'], [ACCEPT_EDITS]: [Q, 'rule'], [EXPLORE]: [Q, 'rule'], [BYPASS]: [Q, 'rule'], [DONT_ASK]: [D, 'rule'] } },
  { situation: 'ask rule beats allow rule and read-only', verdict: 'passthrough', readOnly: true, rules: { ...ask, allow: ['Bash'] },
    expect: { [DEFAULT]: [Q, 'rule'], [ACCEPT_EDITS]: [Q, 'rule'], [EXPLORE]: [Q, 'rule'], [BYPASS]: [Q, 'rule'], [DONT_ASK]: [D, 'rule'] } },
  { situation: 'read-only call (tool would ask)', verdict: 'ask', readOnly: true,
    expect: { [DEFAULT]: [A, 'read_only'], [ACCEPT_EDITS]: [A, 'read_only'], [EXPLORE]: [A, 'read_only'], [BYPASS]: [A, 'read_only'], [DONT_ASK]: [A, 'read_only'] } },
  { situation: 'tool ALLOW', verdict: 'allow',
    expect: { [DEFAULT]: [A, 'tool'], [ACCEPT_EDITS]: [A, 'tool'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'tool'], [DONT_ASK]: [A, 'tool'] } },
  { situation: 'tool DENY (allow rule present)', verdict: 'deny', rules: allow,
    expect: { [DEFAULT]: [D, 'tool'], [ACCEPT_EDITS]: [D, 'tool'], [EXPLORE]: [D, 'mode'], [BYPASS]: [D, 'tool'], [DONT_ASK]: [D, 'tool'] } },
  { situation: 'tool ASK, no allow rule', verdict: 'ask',
    expect: { [DEFAULT]: [Q, 'tool'], [ACCEPT_EDITS]: [Q, 'tool'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'mode'], [DONT_ASK]: [D, 'tool'] } },
  { situation: 'tool ASK, allow rule', verdict: 'ask', rules: allow,
    expect: { [DEFAULT]: [A, 'rule'], [ACCEPT_EDITS]: [A, 'rule'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'mode'], [DONT_ASK]: [A, 'rule'] } },
  { situation: 'bypass-immune ASK, allow rule', verdict: 'immune', rules: allow,
    expect: { [DEFAULT]: [Q, 'tool'], [ACCEPT_EDITS]: [Q, 'tool'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'mode'], [DONT_ASK]: [D, 'tool'] } },
  { situation: 'bypass-immune ASK, no rule', verdict: 'immune',
    expect: { [DEFAULT]: [Q, 'tool'], [ACCEPT_EDITS]: [Q, 'tool'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'mode'], [DONT_ASK]: [D, 'tool'] } },
  { situation: 'PASSTHROUGH, no rule', verdict: 'passthrough',
    expect: { [DEFAULT]: [Q, 'default'], [ACCEPT_EDITS]: [Q, 'default'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'mode'], [DONT_ASK]: [D, 'default'] } },
  { situation: 'PASSTHROUGH, allow rule', verdict: 'passthrough', rules: allow,
    expect: { [DEFAULT]: [A, 'rule'], [ACCEPT_EDITS]: [A, 'rule'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'mode'], [DONT_ASK]: [A, 'rule'] } },
  { situation: 'PASSTHROUGH, allow rule for another command', verdict: 'passthrough', rules: { allow: ['Bash(npm run:*)'] },
    expect: { [DEFAULT]: [Q, 'default'], [ACCEPT_EDITS]: [Q, 'default'], [EXPLORE]: [D, 'mode'], [BYPASS]: [A, 'mode'], [DONT_ASK]: [D, 'default'] } },
];

const cases = table.flatMap((row) => Object.values(PermissionMode).map((mode) => [row.situation, mode, row] as const));

describe('PermissionEngine decision table (mode x situation)', () => {
  it.each(cases)('%s in %s mode', async (_situation, mode, row) => {
    const engine = new PermissionEngine({ mode, settings: row.rules ?? {} });
    const decision = await engine.check(new Probe(row.verdict, row.readOnly), { command: 'git push origin main' });
    const [behavior, reason] = row.expect[mode];
    expect([decision.behavior, decision.reason.type]).toEqual([behavior, reason]);
    if (decision.behavior !== PermissionBehavior.ALLOW) expect(decision.message).not.toBe('');
  });

  it('never returns PASSTHROUGH', async () => {
    for (const mode of Object.values(PermissionMode)) {
      const decision = await new PermissionEngine({ mode }).check(new Probe('passthrough'), { command: 'x' });
      expect(decision.behavior).not.toBe(PermissionBehavior.PASSTHROUGH);
    }
  });
});
