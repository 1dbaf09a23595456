import { formatPermissionRule, PermissionBehavior, PermissionEngine } from '../../lib/permissions';
import { InvalidSkillError, skillAllowRules, Skills } from '../../lib/skills';
import { validateManifest } from '../../lib/skills/manifest';
import { cleanup, skillText, tempDir, writeSkill } from './helpers';

afterEach(cleanup);

const FILE = '/skills/git-helper/SKILL.md';
const base = { name: 'git-helper', description: 'Stage and commit. Use for git work.' };
const tools = (value: unknown): readonly string[] => validateManifest(FILE, 'git-helper', { ...base, 'allowed-tools': value }).allowedTools;
const refusal = (value: unknown): InvalidSkillError => {
  try {
    tools(value);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSkillError);
    expect((error as InvalidSkillError).rule).toBe('allowed-tools');
    expect((error as InvalidSkillError).message).toContain("skill 'git-helper'");
    return error as InvalidSkillError;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
};

describe('allowed-tools is read as permission rules', () => {
  it.each([
    ['Bash(git add:*) Read', ['Bash(git add:*)', 'Read']],
    ['Bash(git add:*), Bash(git commit:*), Read', ['Bash(git add:*)', 'Bash(git commit:*)', 'Read']],
    ['Read,Grep', ['Read', 'Grep']],
    [' Read \n\t Grep ', ['Read', 'Grep']],
    ['Bash(git commit -m "a, b")  Write(src/**)', ['Bash(git commit -m "a, b")', 'Write(src/**)']],
    ['Bash(echo (nested) parens)', ['Bash(echo (nested) parens)']],
    ['mcp__server__tool', ['mcp__server__tool']],
    ['', []],
  ])('splits the string %j where parentheses do not group', (value, expected) => {
    expect(tools(value)).toEqual(expected);
  });

  it('takes one rule per YAML list item, trimmed, spaces inside parentheses kept', () => {
    expect(tools(['Bash(git add:*)', ' Read ', 'Write(src/app/(auth)/**)'])).toEqual(['Bash(git add:*)', 'Read', 'Write(src/app/(auth)/**)']);
  });

  it.each([
    ['Bash(git add:*', 'never closed'],
    ['Read)', 'closes nothing'],
    ['Bash (git add:*)', '"(git add:*)"'],
    ['Bash()', '"Bash()"'],
    ['Read Gr%p', '"Gr%p"'],
  ])('refuses the string %j naming the bad entry', (value, named) => {
    expect(refusal(value).message).toContain(named);
  });

  it.each([
    [['Read', ''], '""'],
    [['Read Grep'], '"Read Grep"'],
    [['Bash(git'], '"Bash(git"'],
  ])('refuses the list %j naming the bad entry', (value, named) => {
    expect(refusal(value).message).toContain(named);
  });

  it.each([[['Read', 3]], [{ Read: true }], [42], [null]])('refuses %j, which is neither a list of strings nor a string', (value) => {
    expect(refusal(value).message).toContain("'allowed-tools' must be a list of permission rule strings");
  });

  it('quotes a long bad entry shortened at a character boundary', () => {
    const message = refusal(`Bash(${'🎉'.repeat(100)}`).message;
    expect(message.isWellFormed()).toBe(true);
    expect(message).toContain('...');
  });

  it('refuses the skill at discovery with the file, the skill and the entry', async () => {
    const root = tempDir();
    writeSkill(root, 'git-helper', skillText('git-helper', { extra: 'allowed-tools: Bash(git add:* Read' }));
    const error = await Skills.fromLocalDir(root).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SKILL_DISCOVERY' });
    expect((error as Error).message).toMatch(/git-helper\/SKILL\.md' \(rule: allowed-tools\): skill 'git-helper'.*unbalanced/);
  });
});

describe('skillAllowRules', () => {
  it('turns a loaded skill\'s allowed-tools into allow rules the host may apply, tagged with the skill', async () => {
    const root = tempDir();
    writeSkill(root, 'git-helper', skillText('git-helper', { extra: 'allowed-tools: Bash(git add:*) Read' }));
    const skills = await Skills.fromLocalDir(root);
    const rules = skillAllowRules(await skills.load('git-helper'));
    expect(rules).toEqual([
      { toolName: 'Bash', ruleContent: 'git add:*', behavior: PermissionBehavior.ALLOW, source: 'skill:git-helper' },
      { toolName: 'Read', behavior: PermissionBehavior.ALLOW, source: 'skill:git-helper' },
    ]);
    expect(Object.isFrozen(rules)).toBe(true);
    expect(rules.map(formatPermissionRule)).toEqual(['Bash(git add:*)', 'Read']);
    expect(skillAllowRules(skills.get('git-helper')!, 'reviewed')[0]!.source).toBe('reviewed');
    // What the host does once a person agreed: the engine takes them as they are, and gives them back.
    const engine = new PermissionEngine().addRules(rules);
    expect(engine.context.rules).toEqual(rules);
    for (const rule of rules) engine.removeRule(rule);
    expect(engine.context.rules).toEqual([]);
  });

  it('is empty for a skill without allowed-tools', async () => {
    const root = tempDir();
    writeSkill(root, 'plain');
    const skills = await Skills.fromLocalDir(root);
    expect(skillAllowRules(skills.get('plain')!)).toEqual([]);
  });

  it('refuses a hand-built skill whose entry is not a rule, naming the skill and the entry', () => {
    const call = () => skillAllowRules({ name: 'made-up', file: '/x/made-up/SKILL.md', allowedTools: ['Read', 'Bash(git'] });
    expect(call).toThrow(InvalidSkillError);
    expect(call).toThrow(/skill 'made-up': the entry "Bash\(git" of 'allowed-tools' is not a permission rule/);
  });

});
