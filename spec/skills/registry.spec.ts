import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidSkillError, SkillDiscoveryError, SkillNotFoundError, Skills, hasSkillChanges } from '../../lib/skills';
import * as discoveryModule from '../../lib/skills/discovery';
import { cleanup, skillText, tempDir, writeSkill } from './helpers';

afterEach(cleanup);

describe('renderPrompt', () => {
  it('lists name and description of each skill in an escaped XML-like block', async () => {
    const root = tempDir();
    writeSkill(root, 'b-skill', skillText('b-skill', { description: 'Use </skill><skill> & "quotes" \'too\'' }));
    writeSkill(root, 'a-skill', skillText('a-skill', { description: 'First.' }));
    const skills = await Skills.fromLocalDir(root);
    expect(skills.renderPrompt()).toBe(
      [
        '<available_skills>',
        '  <skill>',
        '    <name>a-skill</name>',
        '    <description>First.</description>',
        '  </skill>',
        '  <skill>',
        '    <name>b-skill</name>',
        '    <description>Use &lt;/skill&gt;&lt;skill&gt; &amp; &quot;quotes&quot; &apos;too&apos;</description>',
        '  </skill>',
        '</available_skills>',
      ].join('\n'),
    );
  });

  it('is empty without skills', async () => {
    expect((await Skills.fromLocalDir(tempDir())).renderPrompt()).toBe('');
  });
});

describe('load', () => {
  it('returns a frozen skill with instructions, absolute directory and sorted relative resources', async () => {
    const root = tempDir();
    writeSkill(root, 'research', skillText('research', { body: '\n# Research\n\nRun scripts/search.py.\n' }));
    const dir = join(root, 'research');
    mkdirSync(join(dir, 'references'));
    mkdirSync(join(dir, 'scripts', 'lib'), { recursive: true });
    writeFileSync(join(dir, 'references', 'guide.md'), 'guide');
    writeFileSync(join(dir, 'scripts', 'search.py'), 'print(1)');
    writeFileSync(join(dir, 'scripts', 'lib', 'util.py'), '');
    writeFileSync(join(dir, 'scripts-notes.txt'), '');
    writeFileSync(join(root, 'inside-root.txt'), 'ok');
    symlinkSync(join(root, 'inside-root.txt'), join(dir, 'linked-inside.txt'));
    const outside = join(tempDir(), 'secret.txt');
    writeFileSync(outside, 'secret');
    symlinkSync(outside, join(dir, 'linked-outside.txt'));
    symlinkSync(join(dir, 'scripts'), join(dir, 'loop'));
    const skills = await Skills.fromLocalDir(root);
    const loaded = await skills.load('research');
    expect(loaded.name).toBe('research');
    expect(loaded.instructions).toBe('# Research\n\nRun scripts/search.py.');
    expect(loaded.directory).toBe(join(realpathSync(root), 'research'));
    expect(loaded.resources).toEqual(['linked-inside.txt', 'references/guide.md', 'scripts-notes.txt', 'scripts/lib/util.py', 'scripts/search.py']);
    expect(Object.isFrozen(loaded)).toBe(true);
    expect(Object.isFrozen(loaded.resources)).toBe(true);
  });

  it('re-reads SKILL.md from disk on every load, without a refresh', async () => {
    const root = tempDir();
    const file = writeSkill(root, 'edit-me');
    const skills = await Skills.fromLocalDir(root);
    writeFileSync(file, skillText('edit-me', { body: 'Version 2' }));
    expect((await skills.load('edit-me')).instructions).toBe('Version 2');
    expect(skills.revision).toBe(0);
  });

  it('throws SkillNotFoundError for an unknown name, listing the available ones', async () => {
    const root = tempDir();
    writeSkill(root, 'one');
    writeSkill(root, 'two');
    const skills = await Skills.fromLocalDir(root);
    const error = await skills.load('three').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillNotFoundError);
    expect((error as SkillNotFoundError).code).toBe('SKILL_NOT_FOUND');
    expect((error as Error).message).toBe("Unknown skill 'three'. Available: one, two");
    const empty = await Skills.fromLocalDir(tempDir());
    await expect(empty.load('x')).rejects.toThrow("Unknown skill 'x'. Available: (none)");
  });

  it('says when a listed skill is gone from disk', async () => {
    const root = tempDir();
    writeSkill(root, 'gone');
    const skills = await Skills.fromLocalDir(root);
    rmSync(join(root, 'gone', 'SKILL.md'));
    await expect(skills.load('gone')).rejects.toThrow(/Skill 'gone' cannot be loaded: its SKILL.md is gone \(skill folder '.*gone'\)\. Call refresh\(\)/);
    rmSync(join(root, 'gone'), { recursive: true });
    await expect(skills.load('gone')).rejects.toThrow(/Skill 'gone' cannot be loaded: its folder is gone or no longer a folder \(skill folder '.*gone'\)\. Call refresh\(\)/);
  });

  it('refuses an invalid edit on load instead of activating it', async () => {
    const root = tempDir();
    const file = writeSkill(root, 'fragile');
    const skills = await Skills.fromLocalDir(root);
    writeFileSync(file, skillText('fragile', { body: '' }));
    const error = await skills.load('fragile').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSkillError);
    expect((error as InvalidSkillError).rule).toBe('body');
  });
});

describe('refresh', () => {
  it('reports sorted added, updated and removed names and bumps the revision only on change', async () => {
    const root = tempDir();
    writeSkill(root, 'keep');
    const edited = writeSkill(root, 'edit');
    writeSkill(root, 'drop');
    const skills = await Skills.fromLocalDir(root);
    writeSkill(root, 'new-b');
    writeSkill(root, 'new-a');
    writeFileSync(edited, skillText('edit', { body: 'changed' }));
    rmSync(join(root, 'drop'), { recursive: true });
    const changes = await skills.refresh();
    expect(changes).toEqual({ revision: 1, added: ['new-a', 'new-b'], updated: ['edit'], removed: ['drop'] });
    expect(Object.isFrozen(changes) && Object.isFrozen(changes.added)).toBe(true);
    expect(hasSkillChanges(changes)).toBe(true);
    expect(skills.revision).toBe(1);
    expect(skills.list().map((s) => s.name)).toEqual(['edit', 'keep', 'new-a', 'new-b']);
    const none = await skills.refresh();
    expect(none).toEqual({ revision: 1, added: [], updated: [], removed: [] });
    expect(hasSkillChanges(none)).toBe(false);
  });

  it('does not count a rewrite with the same text as an update', async () => {
    const root = tempDir();
    const file = writeSkill(root, 'same');
    const skills = await Skills.fromLocalDir(root);
    writeFileSync(file, skillText('same'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await skills.refreshIfChanged()).toEqual({ revision: 0, added: [], updated: [], removed: [] });
  });

  it('keeps the previous registry when discovery fails, and never activates the bad edit', async () => {
    const root = tempDir();
    writeSkill(root, 'stable');
    const file = writeSkill(root, 'victim');
    const skills = await Skills.fromLocalDir(root);
    writeFileSync(file, '---js\n{}\n---\nbody');
    writeSkill(root, 'newcomer');
    const error = await skills.refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillDiscoveryError);
    expect((error as Error).message).toContain(join(realpathSync(root), 'victim', 'SKILL.md'));
    expect(skills.revision).toBe(0);
    expect(skills.list().map((s) => s.name)).toEqual(['stable', 'victim']);
    expect(skills.get('victim')!.description).toContain('victim');
    writeFileSync(file, skillText('victim', { body: 'fixed' }));
    expect(await skills.refresh()).toEqual({ revision: 1, added: ['newcomer'], updated: ['victim'], removed: [] });
  });

  it('keeps the registry when a root disappears', async () => {
    const root = tempDir();
    writeSkill(root, 'one');
    const skills = await Skills.fromLocalDir(root);
    renameSync(root, `${root}-moved`);
    try {
      await expect(skills.refreshIfChanged()).rejects.toThrow(/does not exist or is not a folder/);
      expect(skills.list()).toHaveLength(1);
    } finally {
      renameSync(`${root}-moved`, root);
    }
    expect(await skills.refreshIfChanged()).toEqual({ revision: 0, added: [], updated: [], removed: [] });
  });

  it('serialises concurrent refreshes so each revision is counted once', async () => {
    const root = tempDir();
    const skills = await Skills.fromLocalDir(root);
    writeSkill(root, 'one');
    const results = await Promise.all([skills.refresh(), skills.refresh(), skills.refreshIfChanged()]);
    expect(results.map((r) => r.revision)).toEqual([1, 1, 1]);
    expect(results[0]!.added).toEqual(['one']);
    expect(results[1]!.added).toEqual([]);
  });
});

describe('refreshIfChanged', () => {
  it('skips discovery while the fingerprint is unchanged, and sees adds, edits, removals and replacements', async () => {
    const root = tempDir();
    const file = writeSkill(root, 'watched');
    const skills = await Skills.fromLocalDir(root);
    const discovery = jest.spyOn(discoveryModule, 'discoverSkills');
    try {
      expect(await skills.refreshIfChanged()).toEqual({ revision: 0, added: [], updated: [], removed: [] });
      expect(discovery).not.toHaveBeenCalled();
      writeFileSync(file, skillText('watched', { body: 'v2, longer than before' }));
      expect((await skills.refreshIfChanged()).updated).toEqual(['watched']);
      writeSkill(root, 'second');
      expect((await skills.refreshIfChanged()).added).toEqual(['second']);
      const replacement = join(root, 'replacement.tmp');
      writeFileSync(replacement, skillText('watched', { body: 'v3, an atomic replace' }));
      renameSync(replacement, file);
      expect((await skills.refreshIfChanged()).updated).toEqual(['watched']);
      rmSync(join(root, 'second'), { recursive: true });
      expect((await skills.refreshIfChanged()).removed).toEqual(['second']);
      expect(discovery).toHaveBeenCalledTimes(4);
    } finally {
      discovery.mockRestore();
    }
  });

  it('answers a broken state with the same error without re-parsing, until the files change', async () => {
    const root = tempDir();
    const file = writeSkill(root, 'flaky');
    const skills = await Skills.fromLocalDir(root);
    writeFileSync(file, '---\nname: flaky\n---\nno description');
    const first = await skills.refreshIfChanged().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(SkillDiscoveryError);
    const discovery = jest.spyOn(discoveryModule, 'discoverSkills');
    try {
      expect(await skills.refreshIfChanged().catch((e: unknown) => e)).toBe(first);
      expect(discovery).not.toHaveBeenCalled();
      writeFileSync(file, skillText('flaky', { body: 'repaired' }));
      expect((await skills.refreshIfChanged()).updated).toEqual(['flaky']);
      expect(discovery).toHaveBeenCalledTimes(1);
    } finally {
      discovery.mockRestore();
    }
  });
});

describe('relative roots', () => {
  it('are resolved once, when the registry is made', async () => {
    const parent = tempDir();
    const root = join(parent, 'skills');
    mkdirSync(root);
    writeSkill(root, 'relative');
    const cwd = process.cwd();
    process.chdir(parent);
    let skills: Skills;
    try {
      skills = await Skills.fromLocalDir('skills');
    } finally {
      process.chdir(cwd);
    }
    expect(skills.get('relative')!.root).toBe(realpathSync(root));
    expect(await skills.refreshIfChanged()).toEqual({ revision: 0, added: [], updated: [], removed: [] });
  });
});
