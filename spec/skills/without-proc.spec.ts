/**
 * Skills where `/proc/self/fd` cannot be read (macOS, BSD, a Linux without /proc): folders are judged by their real
 * path, opened with O_NOFOLLOW and compared with it, and the same links are followed or refused.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as SkillsModule from '../../lib/skills';
import { cleanup, skillText, tempDir, writeSkill } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');

let isolated: typeof SkillsModule;

beforeEach(() => {
  const noProc = (path: unknown): void => {
    if (String(path).startsWith('/proc/')) throw Object.assign(new Error('ENOENT: no /proc here'), { code: 'ENOENT' });
  };
  const readlink = fsp.readlink;
  jest.spyOn(fsp, 'readlink').mockImplementation(async (...args: Parameters<typeof fsp.readlink>) => {
    noProc(args[0]);
    return readlink(...args);
  });
  const readlinkSync = fs.readlinkSync;
  jest.spyOn(fs, 'readlinkSync').mockImplementation(((...args: Parameters<typeof fs.readlinkSync>) => {
    noProc(args[0]);
    return readlinkSync(...args);
  }) as typeof fs.readlinkSync);
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    isolated = require('../../lib/skills') as typeof SkillsModule;
  });
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
