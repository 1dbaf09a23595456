import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  InvalidSkillError,
  SkillDiscoveryError,
  SkillError,
  SkillOutsideRootError,
  SkillRootError,
  Skills,
} from '../../lib/skills';
import { cleanup, recordingLogger, skillText, tempDir, writeSkill } from './helpers';

afterEach(cleanup);

async function discoveryError(...args: Parameters<typeof Skills.fromLocalDir>): Promise<SkillDiscoveryError> {
  const error = await Skills.fromLocalDir(...args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillDiscoveryError);
  expect((error as SkillDiscoveryError).code).toBe('SKILL_DISCOVERY');
  return error as SkillDiscoveryError;
}

describe('Skills.fromLocalDir discovery', () => {
  it('finds one skill per sub-folder with a SKILL.md, sorted by name, and skips everything else', async () => {
    const root = tempDir();
    writeSkill(root, 'zeta');
    writeSkill(root, 'alpha', skillText('alpha', { extra: 'license: MIT' }));
    mkdirSync(join(root, 'shared-assets'));
    writeFileSync(join(root, 'shared-assets', 'notes.md'), 'not a skill');
    writeFileSync(join(root, 'README.md'), 'root file');
    mkdirSync(join(root, 'folder-with-dir-named-skill', 'SKILL.md'), { recursive: true });
    const skills = await Skills.fromLocalDir(root);
    expect(skills.list().map((s) => s.name)).toEqual(['alpha', 'zeta']);
    const alpha = skills.get('alpha')!;
    const realRoot = realpathSync(root);
    expect(alpha).toMatchObject({ license: 'MIT', directory: join(realRoot, 'alpha'), file: join(realRoot, 'alpha', 'SKILL.md'), root: realRoot });
    expect(Object.isFrozen(alpha)).toBe(true);
    expect(skills.get('missing')).toBeUndefined();
    expect(skills.revision).toBe(0);
  });

  it('lets a later folder override an earlier one, with one warning naming both', async () => {
    const first = tempDir();
    const second = tempDir();
    writeSkill(first, 'shared', skillText('shared', { description: 'from first' }));
    writeSkill(first, 'only-first');
    writeSkill(second, 'shared', skillText('shared', { description: 'from second' }));
    const logger = recordingLogger();
    const skills = await Skills.fromLocalDir(first, second, { logger });
    expect(skills.get('shared')!.description).toBe('from second');
    expect(skills.list().map((s) => s.name)).toEqual(['only-first', 'shared']);
    expect(logger.messages).toEqual([
      `Skill 'shared' in '${join(realpathSync(second), 'shared')}' overrides the one in '${join(realpathSync(first), 'shared')}' (a later skills folder wins).`,
    ]);
    await skills.refresh();
    expect(logger.messages).toHaveLength(1);
  });

  it('warns on the console by default', async () => {
    const first = tempDir();
    const second = tempDir();
    writeSkill(first, 'shared');
    writeSkill(second, 'shared');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await Skills.fromLocalDir(first, second);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("Skill 'shared'"));
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses a missing root, and a root that is a file', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'file'), 'x');
    const error = await discoveryError(join(root, 'nope'), join(root, 'file'));
    expect(error.problems).toHaveLength(2);
    expect(error.problems.every((p) => p instanceof SkillRootError && p.code === 'SKILL_ROOT_MISSING')).toBe(true);
    expect(error.message).toContain(`Skills root '${join(root, 'nope')}' does not exist`);
    expect(error.message).toContain('2 problems');
  });

  it('needs at least one folder and checks limits', async () => {
    await expect(Skills.fromLocalDir()).rejects.toMatchObject({ code: 'SKILL_INVALID_OPTIONS', name: 'SkillOptionsError' });
    await expect(Skills.fromLocalDir(tempDir(), { limits: { maxFileBytes: 0 } })).rejects.toThrow("Skill limit 'maxFileBytes' must be an integer >= 1");
    await expect(Skills.fromLocalDir(tempDir(), { limits: { maxYamlAliases: 1.5 } })).rejects.toMatchObject({ code: 'SKILL_INVALID_OPTIONS' });
    await expect(Skills.fromLocalDir(tempDir(), { limits: { maxYamlAliases: 1.5 } })).rejects.toBeInstanceOf(SkillError);
  });

  it('reports every invalid skill at once, each naming its file and rule', async () => {
    const root = tempDir();
    writeSkill(root, 'good');
    const wrongName = writeSkill(root, 'wrong-name', skillText('other-name'));
    const noBody = writeSkill(root, 'no-body', skillText('no-body', { body: '\n  \n' }));
    const unclosed = writeSkill(root, 'unclosed', '---\nname: unclosed\ndescription: d\n');
    const error = await discoveryError(root);
    expect(error.message).toContain('3 problems');
    const byFile = new Map(error.problems.map((p) => [(p as InvalidSkillError).file, (p as InvalidSkillError).rule]));
    const real = (file: string) => file.replace(root, realpathSync(root));
    expect(byFile).toEqual(new Map([[real(noBody), 'body'], [real(unclosed), 'body'], [real(wrongName), 'name-folder']]));
    expect(error.message).toContain('the previous skills stay active');
  });

  it('refuses a SKILL.md larger than the size limit before parsing it', async () => {
    const root = tempDir();
    writeSkill(root, 'big', skillText('big', { body: 'x'.repeat(2000) }));
    const error = await discoveryError(root, { limits: { maxFileBytes: 1000 } });
    const problem = error.problems[0] as InvalidSkillError;
    expect(problem.rule).toBe('file-size');
    expect(problem.message).toMatch(/has \d+ bytes, more than the limit of 1000/);
    expect(error.message).toContain('failed with 1 problem (');
  });

  it('follows links that stay inside the root', async () => {
    const root = tempDir();
    writeSkill(root, 'real-skill');
    mkdirSync(join(root, 'linked'));
    writeFileSync(join(root, 'linked-source.md'), skillText('linked'));
    symlinkSync(join(root, 'linked-source.md'), join(root, 'linked', 'SKILL.md'));
    mkdirSync(join(root, '.store', 'aliased'), { recursive: true });
    writeFileSync(join(root, '.store', 'aliased', 'SKILL.md'), skillText('aliased'));
    symlinkSync(join(root, '.store', 'aliased'), join(root, 'aliased'));
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
    symlinkSync(join(root, 'linked-source.md'), join(root, 'link-to-a-file'));
    mkdirSync(join(root, 'dangling-file'));
    symlinkSync(join(root, 'nowhere.md'), join(root, 'dangling-file', 'SKILL.md'));
    const skills = await Skills.fromLocalDir(root);
    expect(skills.list().map((s) => s.name)).toEqual(['aliased', 'linked', 'real-skill']);
    expect(await skills.refreshIfChanged()).toEqual({ revision: 0, added: [], updated: [], removed: [] });
  });

  it('refuses a skill folder that is a link out of its root', async () => {
    const root = tempDir();
    const outside = tempDir();
    writeSkill(outside, 'escaped');
    symlinkSync(join(outside, 'escaped'), join(root, 'escaped'));
    const [problem] = (await discoveryError(root)).problems;
    expect(problem).toBeInstanceOf(SkillOutsideRootError);
    expect(problem!.code).toBe('SKILL_OUTSIDE_ROOT');
    expect(problem!.message).toContain(`leads to '${join(realpathSync(outside), 'escaped')}', outside its skills root`);
  });

  it('refuses a SKILL.md that is a link out of its root', async () => {
    const root = tempDir();
    const outside = tempDir();
    const secret = join(outside, 'secret.md');
    writeFileSync(secret, skillText('leak'));
    mkdirSync(join(root, 'leak'));
    symlinkSync(secret, join(root, 'leak', 'SKILL.md'));
    const [problem] = (await discoveryError(root)).problems;
    expect(problem).toBeInstanceOf(SkillOutsideRootError);
    expect((problem as SkillOutsideRootError).realPath).toBe(realpathSync(secret));
  });

  it('ignores a link out of the root that holds no SKILL.md', async () => {
    const root = tempDir();
    symlinkSync(tempDir(), join(root, 'node-modules-like'));
    expect((await Skills.fromLocalDir(root)).list()).toEqual([]);
  });
});
