import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
// The module object itself (an `import * as` copy has read-only getters), so that its readdir can be counted.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');
import { join } from 'node:path';
import { renderLoadedSkill, Skills, type LoadedSkill } from '../../lib/skills';
import { MAX_SKILL_FOLDERS, MAX_SKILL_RESOURCE_DEPTH } from '../../lib/skills/resources';
import { MAX_RESOURCE_LIST_CHARS } from '../../lib/skills/viewer-tool';
import { cleanup, tempDir, writeSkill } from './helpers';

afterAll(cleanup);

/** Makes `levels` nested folders named `d` under `dir` (one by one: the full path outgrows PATH_MAX), returns the deepest. */
function nest(dir: string, levels: number): string {
  const cwd = process.cwd();
  try {
    process.chdir(dir);
    for (let i = 0; i < levels; i++) {
      mkdirSync('d');
      process.chdir('d');
    }
    writeFileSync('leaf.txt', 'x');
    return process.cwd();
  } finally {
    process.chdir(cwd);
  }
}

/**
 * A skill can be written by an agent, so its folder tree is hostile input to `load()`. Unbounded, a chain of 3,000
 * nested folders held about 2,000 descriptors open at once (the walk keeps each level open) and 20,000 empty folders
 * took seconds per `load()`.
 */
describe('the resource walk of load() is bounded', () => {
  it('a deep chain of folders holds few descriptors, and lists what is within the depth limit', async () => {
    const root = tempDir();
    writeSkill(root, 'deep');
    nest(join(root, 'deep'), 400);
    mkdirSync(join(root, 'deep', 'ok', 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'deep', 'ok', 'a', 'b', 'near.txt'), 'x');
    const skills = await Skills.fromLocalDir(root);
    let most = 0;
    let samples = 0;
    const timer = setInterval(() => {
      samples++;
      most = Math.max(most, readdirSync('/proc/self/fd').length);
    }, 0);
    const before = readdirSync('/proc/self/fd').length;
    const loaded = await skills.load('deep');
    clearInterval(timer);
    expect(samples).toBeGreaterThan(0); // the walk was observed while it ran
    expect(most - before).toBeLessThan(MAX_SKILL_RESOURCE_DEPTH + 10);
    expect(loaded.resources).toEqual(['ok/a/b/near.txt']);
  });

  it('a file exactly at the depth limit is listed, one below is not', async () => {
    const root = tempDir();
    writeSkill(root, 'edge');
    const at = join(root, 'edge', 'at');
    const below = join(root, 'edge', 'below');
    mkdirSync(at);
    mkdirSync(below);
    nest(at, MAX_SKILL_RESOURCE_DEPTH - 1);
    nest(below, MAX_SKILL_RESOURCE_DEPTH);
    const loaded = await (await Skills.fromLocalDir(root)).load('edge');
    expect(loaded.resources).toEqual([`at/${'d/'.repeat(MAX_SKILL_RESOURCE_DEPTH - 1)}leaf.txt`]);
  });

  it('a wide tree of empty folders costs at most MAX_SKILL_FOLDERS listings in load(), and later files are still listed', async () => {
    const root = tempDir();
    writeSkill(root, 'wide');
    const wide = join(root, 'wide', 'a-wide');
    mkdirSync(wide);
    for (let i = 0; i < MAX_SKILL_FOLDERS * 4; i++) mkdirSync(join(wide, `e${i}`));
    writeFileSync(join(root, 'wide', 'z-last.txt'), 'x');
    const skills = await Skills.fromLocalDir(root);
    const listings = jest.spyOn(fsp, 'readdir');
    const loaded = await skills.load('wide');
    // The skill folder, `a-wide`, then empty folders up to the cap: the other 3,000 are never opened.
    expect(listings.mock.calls.length).toBeGreaterThanOrEqual(MAX_SKILL_FOLDERS);
    expect(listings.mock.calls.length).toBeLessThanOrEqual(MAX_SKILL_FOLDERS + 1);
    listings.mockRestore();
    expect(loaded.resources).toEqual(['z-last.txt']);
  });
});

describe('the viewer text of a skill with many long resource paths is capped', () => {
  it('lists what fits and says how many more there are', () => {
    const resources = Array.from({ length: 10_000 }, (_, i) => `${'deep/'.repeat(60)}file-${i}.txt`);
    const skill = { name: 's', description: 'd', directory: '/x/s', file: '/x/s/SKILL.md', root: '/x', instructions: 'Do it.', resources } as unknown as LoadedSkill;
    const text = renderLoadedSkill(skill);
    expect(text.length).toBeLessThan(MAX_RESOURCE_LIST_CHARS + 500);
    expect(text).toMatch(/\(\d+ more not shown\)\n\nDo it\.$/);
    const shown = text.split('\n').filter((line) => line.startsWith('- ')).length;
    expect(text).toContain(`(${10_000 - shown} more not shown)`);
    expect(renderLoadedSkill({ ...skill, resources: ['a.md'] })).toContain('- a.md\n\nDo it.');
  });
});
