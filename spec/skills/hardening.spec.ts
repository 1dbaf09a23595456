import { Type } from '@sinclair/typebox';
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActionResult, ToolContext, ToolEffect, Tools } from '../../lib';
import { SkillRefreshMiddleware, Skills } from '../../lib/skills';
import { cleanup, recordingLogger, skillText, tempDir, writeSkill } from '../skills/helpers';

afterEach(cleanup);

const marker = globalThis as { __skillPwned?: boolean };

describe('review: front matter that tries to run code', () => {
  beforeEach(() => delete marker.__skillPwned);

  it.each([
    ['---js\n({ name: "evil", description: (globalThis.__skillPwned = true, "x") })\n---\nbody\n'],
    ['---javascript\n({ name: "evil", description: (globalThis.__skillPwned = true, "x") })\n---\nbody\n'],
    ['---coffee\nname: "evil"\n---\nbody\n'],
    ['--- js\n({ a: (globalThis.__skillPwned = true) })\n---\nbody\n'],
    ['---\t javascript\n({ a: (globalThis.__skillPwned = true) })\n---\nbody\n'],
    ['---\nname: evil\ndescription: !!js/function "function () { globalThis.__skillPwned = true; return \'x\' }"\n---\nbody\n'],
    ['---\nname: evil\ndescription: !<tag:yaml.org,2002:js/function> "function () { globalThis.__skillPwned = true }"\n---\nbody\n'],
    ['---\nname: !!js/undefined ""\ndescription: !!js/regexp /x/\n---\nbody\n'],
  ])('refuses or neutralises %j without running anything', async (text) => {
    const root = tempDir();
    writeSkill(root, 'evil', text);
    let skills: Skills | undefined;
    try {
      skills = await Skills.fromLocalDir(root, { logger: recordingLogger() });
    } catch (error) {
      expect((error as { code?: string }).code).toBe('SKILL_DISCOVERY');
    }
    if (skills) {
      const skill = skills.get('evil');
      if (skill) expect(typeof skill.description).toBe('string');
    }
    expect(marker.__skillPwned).toBeUndefined();
  });

  it('refuses deeply nested YAML cleanly instead of crashing the process', async () => {
    const root = tempDir();
    const depth = 5000;
    writeSkill(root, 'deep', `---\nname: deep\ndescription: x\nmetadata: ${'['.repeat(depth)}${']'.repeat(depth)}\n---\nbody\n`);
    await expect(Skills.fromLocalDir(root)).rejects.toMatchObject({ code: 'SKILL_DISCOVERY' });
  });

  it('refuses an alias bomb and a huge file, each naming the rule', async () => {
    const root = tempDir();
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    writeSkill(root, 'bomb', `---\nname: bomb\ndescription: x\nmetadata:\n  ${lines.join('\n  ')}\n---\nbody\n`);
    writeSkill(root, 'huge', skillText('huge', { body: 'x'.repeat(300 * 1024) }));
    await expect(Skills.fromLocalDir(root)).rejects.toThrow(/bomb[\s\S]*yaml|yaml[\s\S]*bomb/);
    await expect(Skills.fromLocalDir(root)).rejects.toThrow(/file-size/);
  });
});

describe('review: registry races', () => {
  it('refuses on load a skill folder swapped for a link out of the root after discovery', async () => {
    const root = tempDir();
    const outside = tempDir();
    writeSkill(root, 'swap');
    const skills = await Skills.fromLocalDir(root);
    writeSkill(outside, 'swap', skillText('swap', { body: 'stolen instructions' }));
    rmSync(join(root, 'swap'), { recursive: true });
    symlinkSync(join(outside, 'swap'), join(root, 'swap'));
    await expect(skills.load('swap')).rejects.toThrow(/outside|out of/i);
  });

  it('keeps the old skills when a skill is renamed mid-refresh without its name, and counts the fixed rename once', async () => {
    const root = tempDir();
    writeSkill(root, 'alpha');
    writeSkill(root, 'keep');
    const skills = await Skills.fromLocalDir(root);
    renameSync(join(root, 'alpha'), join(root, 'beta'));
    await expect(skills.refresh()).rejects.toThrow(/name-folder|must be equal/);
    expect(skills.list().map((s) => s.name)).toEqual(['alpha', 'keep']);
    await expect(skills.load('alpha')).rejects.toMatchObject({ code: expect.any(String) });
    writeFileSync(join(root, 'beta', 'SKILL.md'), skillText('beta'));
    const [a, b, c] = await Promise.all([skills.refresh(), skills.refreshIfChanged(), skills.refresh()]);
    expect(a).toMatchObject({ revision: 1, added: ['beta'], removed: ['alpha'] });
    expect(b).toMatchObject({ revision: 1, added: [], removed: [] });
    expect(c).toMatchObject({ revision: 1, added: [], removed: [] });
  });

  it('watches again when watch() is called right after close()', async () => {
    const root = tempDir();
    writeSkill(root, 'w');
    const skills = await Skills.fromLocalDir(root);
    try {
      await skills.watch({ debounceMs: 10 });
      const closing = skills.close();
      const watching = skills.watch({ debounceMs: 10 });
      await Promise.all([closing, watching]);
      expect(skills.watching).toBe(true);
    } finally {
      await skills.close();
    }
    expect(skills.watching).toBe(false);
  });

  it('is not watching after close() was called while watch() was starting', async () => {
    const root = tempDir();
    writeSkill(root, 'w');
    const skills = await Skills.fromLocalDir(root);
    const starting = skills.watch();
    await skills.close();
    await starting;
    expect(skills.watching).toBe(false);
    await skills.close();
  });
});

describe('review: SkillRefreshMiddleware never changes the result', () => {
  it('returns the tool result even when the trigger predicate throws', async () => {
    const root = tempDir();
    writeSkill(root, 'existing');
    const skills = await Skills.fromLocalDir(root);
    const logger = recordingLogger();
    const middleware = new SkillRefreshMiddleware({
      logger,
      when: () => {
        throw new Error('predicate bug');
      },
    });
    const tools = new Tools({ context: new ToolContext(skills), middleware: [middleware], logger: { warn: () => undefined, error: () => undefined } });
    tools.action({ name: 'write', description: 'x', params: Type.Object({}), effects: [ToolEffect.WRITES_WORKSPACE] }, () => ActionResult.success('wrote'));
    expect(await tools.execute('write', {})).toEqual(ActionResult.success('wrote'));
    expect(logger.messages.join('\n')).toMatch(/predicate bug/);
  });

  it('returns the tool result when a refresh fails on something that is not a skill error', async () => {
    const root = tempDir();
    writeSkill(root, 'existing');
    const skills = await Skills.fromLocalDir(root);
    jest.spyOn(skills, 'refreshIfChanged').mockRejectedValue(new TypeError('unexpected'));
    const logger = recordingLogger();
    const tools = new Tools({ context: new ToolContext(skills), middleware: [new SkillRefreshMiddleware({ logger })], logger: { warn: () => undefined, error: () => undefined } });
    tools.action({ name: 'write', description: 'x', params: Type.Object({}), effects: [ToolEffect.WRITES_WORKSPACE] }, () => 'wrote');
    expect((await tools.execute('write', {})).result).toBe('wrote');
    expect(logger.messages.join('\n')).toMatch(/unexpected/);
  });
});
