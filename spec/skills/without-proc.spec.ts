/**
 * Skills where `/proc/self/fd` cannot be read (macOS, BSD, a Linux without /proc): folders are judged by their real
 * path, opened with O_NOFOLLOW and compared with it, and the same links are followed or refused.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as SkillsModule from '../../lib/skills';
import { cleanup, skillText, tempDir, writeSkill } from './helpers';
import { loadWithoutProc } from '../support/without-proc';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');


let isolated: typeof SkillsModule;

beforeEach(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  isolated = loadWithoutProc(() => require('../../lib/skills') as typeof SkillsModule);
});
afterEach(() => {
  jest.restoreAllMocks();
  cleanup();
});

it('discovers and loads skills, following links that stay inside', async () => {
  const root = realpathSync(tempDir());
  writeSkill(root, 'plain');
  mkdirSync(join(root, 'plain', 'refs'));
  writeFileSync(join(root, 'plain', 'refs', 'guide.md'), 'guide');
  mkdirSync(join(root, 'store'));
  writeSkill(join(root, 'store'), 'linked');
  symlinkSync('store/linked', join(root, 'linked'));
  const skills = await isolated.Skills.fromLocalDir(root);
  expect(skills.list().map((s) => s.name)).toEqual(['linked', 'plain']);
  const loaded = await skills.load('plain');
  expect(loaded.resources).toEqual(['refs/guide.md']);
  expect((await skills.load('linked')).instructions).toContain('do linked');
  expect(fs.readlinkSync).toHaveBeenCalledWith(expect.stringMatching(/^\/proc\/self\/fd\/\d+$/));
});

it('refuses a folder and a SKILL.md that lead outside', async () => {
  const root = realpathSync(tempDir());
  const outside = realpathSync(tempDir());
  writeSkill(outside, 'away');
  writeFileSync(join(outside, 'evil.md'), skillText('file'));
  symlinkSync(join(outside, 'away'), join(root, 'away'));
  mkdirSync(join(root, 'file'));
  symlinkSync(join(outside, 'evil.md'), join(root, 'file', 'SKILL.md'));
  const error = await isolated.Skills.fromLocalDir(root).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'SKILL_DISCOVERY' });
  expect((error as { problems: { code: string }[] }).problems.map((p) => p.code)).toEqual(['SKILL_OUTSIDE_ROOT', 'SKILL_OUTSIDE_ROOT']);
});
