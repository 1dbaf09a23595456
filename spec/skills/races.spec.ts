/**
 * Skill loading raced by an adversary that swaps folders and files while `load()` runs: a second process flips them
 * as fast as it can (every test counts how often `load()` actually met the swapped state, and fails when it never
 * did), and hooks on the fs calls force a swap at the exact moment between two steps of one `load()`.
 *
 * Whatever the swap, `load()` never returns the outside SKILL.md, never lists an outside folder, never hangs on a
 * FIFO or a device, and throws only documented skill errors.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadedSkill, SkillError, Skills } from '../../lib/skills';
import { raceFor, startSwapper, type Swapper } from '../fs/swapper';
import { skillText } from './helpers';
import { skippedTitle } from '../support/skip-reason';

// The very module object the library calls into, so a spy on it intercepts those calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');

const INSIDE = 'inside instructions';
const OUTSIDE = 'OUTSIDE SECRET INSTRUCTIONS';
const DOCUMENTED = new Set(['SKILL_NOT_FOUND', 'SKILL_OUTSIDE_ROOT', 'SKILL_CHANGED', 'SKILL_UNREADABLE', 'SKILL_INVALID']);
const asRoot = process.getuid?.() === 0 ? it : (name: string, fn: jest.ProvidesCallback, timeout?: number) => it.skip(skippedTitle(name, 'making a device node needs root'), fn, timeout);

let base: string;
let root: string;
let outside: string;
let spare: string;
let swapper: Swapper | undefined;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'skills-race-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  spare = join(base, 'spare');
  for (const dir of [root, outside, spare, join(root, 'x', 'references'), join(outside, 'x')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(root, 'x', 'SKILL.md'), skillText('x', { body: INSIDE }));
  writeFileSync(join(root, 'x', 'references', 'guide.md'), 'guide');
  writeFileSync(join(outside, 'x', 'SKILL.md'), skillText('x', { body: OUTSIDE }));
  writeFileSync(join(outside, 'x', 'outside-only.txt'), 'secret resource');
  writeFileSync(join(outside, 'evil.md'), skillText('x', { body: OUTSIDE }));
  writeFileSync(join(outside, 'secret.txt'), 'secret');
});
afterEach(async () => {
  jest.restoreAllMocks();
  await swapper?.stop();
  swapper = undefined;
  rmSync(base, { recursive: true, force: true });
});

/** What the loads saw: instructions read, resource lists, and error codes (with a message sample per code). */
class Outcomes {
  readonly instructions = new Set<string>();
  readonly resources = new Set<string>();
  readonly codes = new Map<string, number>();
  readonly messages: string[] = [];
  loads = 0;

  async load(skills: Skills, name = 'x'): Promise<LoadedSkill | null> {
    this.loads++;
    let loaded: LoadedSkill;
    try {
      loaded = await skills.load(name);
    } catch (error) {
      this.error(error);
      return null;
    }
    this.instructions.add(loaded.instructions);
    for (const resource of loaded.resources) this.resources.add(resource);
    return loaded;
  }

  error(error: unknown): void {
    expect(error).toBeInstanceOf(SkillError);
    const code = (error as SkillError).code;
    this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
    this.messages.push((error as Error).message);
  }

  count(code: string): number {
    return this.codes.get(code) ?? 0;
  }

  countMessages(pattern: RegExp): number {
    return this.messages.filter((m) => pattern.test(m)).length;
  }

  /** The invariants every race must keep. */
  expectConfined(allowedResources: readonly string[]): void {
    expect([...this.instructions].join('\n')).not.toContain(OUTSIDE);
    for (const instructions of this.instructions) expect(instructions).toBe(INSIDE);
    for (const resource of this.resources) expect(allowedResources).toContain(resource);
    for (const code of this.codes.keys()) expect([...DOCUMENTED, 'SKILL_DISCOVERY']).toContain(code);
    expect(this.resources).not.toContain('outside-only.txt');
  }
}

describe('a second process swaps while load() runs', () => {
  it('a skill folder flipped with a link to an outside folder (the reported attack)', async () => {
    const skills = await Skills.fromLocalDir(root);
    swapper = await startSwapper(root, `
      fs.renameSync('x', 'x.real'); fs.symlinkSync(${JSON.stringify(join(outside, 'x'))}, 'x');
      fs.unlinkSync('x'); fs.renameSync('x.real', 'x');`);
    const seen = new Outcomes();
    await raceFor(() => seen.load(skills), () => seen.count('SKILL_OUTSIDE_ROOT') >= 20);
    await swapper.stop();
    seen.expectConfined(['references/guide.md']);
    // The link state was met by load() itself: it opened the outside folder and refused it.
    expect(seen.count('SKILL_OUTSIDE_ROOT')).toBeGreaterThan(0);
  });

  it('a skill folder that is a link inside the root, atomically re-pointed to an outside folder', async () => {
    mkdirSync(join(root, 'store'));
    renameSync(join(root, 'x'), join(root, 'store', 'x'));
    symlinkSync('store/x', join(root, 'x'));
    const skills = await Skills.fromLocalDir(root);
    swapper = await startSwapper(root, `
      fs.symlinkSync(${JSON.stringify(join(outside, 'x'))}, 'tmp-out'); fs.renameSync('tmp-out', 'x');
      fs.symlinkSync('store/x', 'tmp-in'); fs.renameSync('tmp-in', 'x');`);
    const seen = new Outcomes();
    await raceFor(() => seen.load(skills), () => seen.count('SKILL_OUTSIDE_ROOT') >= 5 && seen.instructions.size > 0);
    await swapper.stop();
    seen.expectConfined(['references/guide.md']);
    expect(seen.count('SKILL_OUTSIDE_ROOT')).toBeGreaterThan(0);
    // The link that stays inside keeps working between the swaps: only the outside state is refused.
    expect(seen.instructions).toEqual(new Set([INSIDE]));
    expect(seen.resources).toEqual(new Set(['references/guide.md']));
  });

  it('SKILL.md atomically replaced by a link to an outside SKILL.md and back', async () => {
    const skills = await Skills.fromLocalDir(root);
    linkSync(join(root, 'x', 'SKILL.md'), join(spare, 'SKILL.keep'));
    swapper = await startSwapper(join(root, 'x'), `
      fs.symlinkSync(${JSON.stringify(join(outside, 'evil.md'))}, 'tmp-link'); fs.renameSync('tmp-link', 'SKILL.md');
      fs.linkSync(${JSON.stringify(join(spare, 'SKILL.keep'))}, 'tmp-file'); fs.renameSync('tmp-file', 'SKILL.md');`);
    const seen = new Outcomes();
    const swapped = (): number => seen.count('SKILL_OUTSIDE_ROOT') + seen.count('SKILL_CHANGED');
    await raceFor(() => seen.load(skills), () => swapped() >= 5);
    await swapper.stop();
    seen.expectConfined(['references/guide.md', 'tmp-file', 'tmp-link']);
    // Either the link was seen and judged (outside), or it appeared between the look and the open (changed).
    expect(swapped()).toBeGreaterThan(0);
  });

  it('SKILL.md atomically replaced by a link to /dev/zero and back: no hang, no endless read', async () => {
    const skills = await Skills.fromLocalDir(root);
    linkSync(join(root, 'x', 'SKILL.md'), join(spare, 'SKILL.keep'));
    swapper = await startSwapper(join(root, 'x'), `
      fs.symlinkSync('/dev/zero', 'tmp-link'); fs.renameSync('tmp-link', 'SKILL.md');
      fs.linkSync(${JSON.stringify(join(spare, 'SKILL.keep'))}, 'tmp-file'); fs.renameSync('tmp-file', 'SKILL.md');`);
    const seen = new Outcomes();
    const swapped = (): number => seen.count('SKILL_OUTSIDE_ROOT') + seen.count('SKILL_CHANGED');
    await raceFor(() => seen.load(skills), () => swapped() >= 5);
    await swapper.stop();
    seen.expectConfined(['references/guide.md', 'tmp-file', 'tmp-link']);
    expect(swapped()).toBeGreaterThan(0);
  });

  it('SKILL.md atomically replaced by a FIFO and back: no hang', async () => {
    const skills = await Skills.fromLocalDir(root);
    linkSync(join(root, 'x', 'SKILL.md'), join(spare, 'SKILL.keep'));
    execFileSync('mkfifo', [join(spare, 'fifo')]);
    swapper = await startSwapper(join(root, 'x'), `
      fs.linkSync(${JSON.stringify(join(spare, 'fifo'))}, 'tmp-fifo'); fs.renameSync('tmp-fifo', 'SKILL.md');
      fs.linkSync(${JSON.stringify(join(spare, 'SKILL.keep'))}, 'tmp-file'); fs.renameSync('tmp-file', 'SKILL.md');`);
    const seen = new Outcomes();
    const fifoSeen = (): number => seen.countMessages(/its SKILL\.md is a FIFO/);
    await raceFor(() => seen.load(skills), () => fifoSeen() >= 5);
    await swapper.stop();
    seen.expectConfined(['references/guide.md', 'tmp-file']);
    expect(fifoSeen()).toBeGreaterThan(0);
  });

  asRoot('SKILL.md atomically replaced by a character device node (/dev/zero\'s numbers) and back: never read', async () => {
    const skills = await Skills.fromLocalDir(root);
    linkSync(join(root, 'x', 'SKILL.md'), join(spare, 'SKILL.keep'));
    execFileSync('mknod', [join(spare, 'zero'), 'c', '1', '5']);
    swapper = await startSwapper(join(root, 'x'), `
      fs.linkSync(${JSON.stringify(join(spare, 'zero'))}, 'tmp-dev'); fs.renameSync('tmp-dev', 'SKILL.md');
      fs.linkSync(${JSON.stringify(join(spare, 'SKILL.keep'))}, 'tmp-file'); fs.renameSync('tmp-file', 'SKILL.md');`);
    const seen = new Outcomes();
    const deviceSeen = (): number => seen.countMessages(/its SKILL\.md is a device/);
    await raceFor(() => seen.load(skills), () => deviceSeen() >= 5);
    await swapper.stop();
    seen.expectConfined(['references/guide.md', 'tmp-file']);
    expect(deviceSeen()).toBeGreaterThan(0);
  });

  it('a resource file atomically replaced by a link to an outside file and back', async () => {
    const skills = await Skills.fromLocalDir(root);
    linkSync(join(root, 'x', 'references', 'guide.md'), join(spare, 'guide.keep'));
    swapper = await startSwapper(join(root, 'x', 'references'), `
      fs.symlinkSync(${JSON.stringify(join(outside, 'secret.txt'))}, 'tmp-link'); fs.renameSync('tmp-link', 'guide.md');
      fs.linkSync(${JSON.stringify(join(spare, 'guide.keep'))}, 'tmp-file'); fs.renameSync('tmp-file', 'guide.md');`);
    const seen = new Outcomes();
    // guide.md always exists (each swap is one rename): a listing without it met the link and left it out.
    let linkSeen = 0;
    await raceFor(async () => {
      const loaded = await seen.load(skills);
      if (loaded !== null && !loaded.resources.includes('references/guide.md')) linkSeen++;
    }, () => linkSeen >= 5);
    await swapper.stop();
    seen.expectConfined(['references/guide.md', 'references/tmp-file']);
    expect([...seen.codes.keys()]).toEqual([]);
    expect(linkSeen).toBeGreaterThan(0);
  });

  it('a resource folder flipped with a link to an outside folder: never listed from outside', async () => {
    const skills = await Skills.fromLocalDir(root);
    swapper = await startSwapper(join(root, 'x'), `
      fs.renameSync('references', 'references.real'); fs.symlinkSync(${JSON.stringify(outside)}, 'references');
      fs.unlinkSync('references'); fs.renameSync('references.real', 'references');`);
    const seen = new Outcomes();
    let without = 0;
    await raceFor(async () => {
      const loaded = await seen.load(skills);
      if (loaded !== null && !loaded.resources.includes('references/guide.md')) without++;
    }, () => without >= 5);
    await swapper.stop();
    seen.expectConfined(['references/guide.md', 'references.real/guide.md']);
    expect([...seen.codes.keys()]).toEqual([]);
    expect(without).toBeGreaterThan(0);
  });

  it('discovery (refresh) during a folder flip never activates the outside skill', async () => {
    writeFileSync(join(outside, 'x', 'SKILL.md'), skillText('x', { description: OUTSIDE, body: OUTSIDE }));
    const skills = await Skills.fromLocalDir(root);
    swapper = await startSwapper(root, `
      fs.renameSync('x', 'x.real'); fs.symlinkSync(${JSON.stringify(join(outside, 'x'))}, 'x');
      fs.unlinkSync('x'); fs.renameSync('x.real', 'x');`);
    const seen = new Outcomes();
    let outsideRefused = 0;
    await raceFor(async () => {
      try {
        await skills.refresh();
      } catch (error) {
        seen.error(error);
        const problems = (error as { problems?: readonly SkillError[] }).problems ?? [];
        if (problems.some((p) => p.code === 'SKILL_OUTSIDE_ROOT')) outsideRefused++;
      }
      expect(skills.get('x')?.description ?? '').not.toContain(OUTSIDE);
      await seen.load(skills);
    }, () => outsideRefused >= 5);
    await swapper.stop();
    seen.expectConfined(['references/guide.md']);
    for (const code of seen.codes.keys()) expect([...DOCUMENTED, 'SKILL_DISCOVERY']).toContain(code);
    expect(outsideRefused).toBeGreaterThan(0);
  });
});

describe('a swap forced between two steps of one load()', () => {
  /** Runs `swap` once, the first time `lstatSync` is asked about a path ending with `suffix`, after it answered. */
  function swapAfterLstat(suffix: string, swap: () => void): { fired: () => boolean } {
    const original = fs.lstatSync;
    let done = false;
    jest.spyOn(fs, 'lstatSync').mockImplementation(((...args: Parameters<typeof fs.lstatSync>) => {
      const result = original(...args);
      if (!done && String(args[0]).endsWith(suffix)) {
        done = true;
        swap();
      }
      return result;
    }) as typeof fs.lstatSync);
    return { fired: () => done };
  }

  it('reads the folder it opened when the folder is swapped for an outside link right after', async () => {
    const skills = await Skills.fromLocalDir(root);
    const hook = swapAfterLstat('/SKILL.md', () => {
      renameSync(join(root, 'x'), join(root, 'x.moved'));
      symlinkSync(join(outside, 'x'), join(root, 'x'));
    });
    const loaded = await skills.load('x');
    expect(hook.fired()).toBe(true);
    expect(loaded.instructions).toBe(INSIDE);
    expect(loaded.resources).toEqual(['references/guide.md']);
  });

  it('refuses a SKILL.md that became a link to the outside between the look and the open', async () => {
    const skills = await Skills.fromLocalDir(root);
    const hook = swapAfterLstat('/SKILL.md', () => {
      renameSync(join(root, 'x', 'SKILL.md'), join(root, 'x', 'old.md'));
      symlinkSync(join(outside, 'evil.md'), join(root, 'x', 'SKILL.md'));
    });
    await expect(skills.load('x')).rejects.toMatchObject({ code: 'SKILL_CHANGED', message: expect.stringContaining('became a symbolic link') });
    expect(hook.fired()).toBe(true);
  });

  it('refuses, without blocking, a SKILL.md that became a FIFO between the look and the open', async () => {
    const skills = await Skills.fromLocalDir(root);
    const hook = swapAfterLstat('/SKILL.md', () => {
      renameSync(join(root, 'x', 'SKILL.md'), join(root, 'x', 'old.md'));
      execFileSync('mkfifo', [join(root, 'x', 'SKILL.md')]);
    });
    await expect(skills.load('x')).rejects.toMatchObject({ code: 'SKILL_NOT_FOUND', message: expect.stringContaining('FIFO') });
    expect(hook.fired()).toBe(true);
  });

  asRoot('refuses, without reading, a SKILL.md that became a /dev/zero device node between the look and the open', async () => {
    const skills = await Skills.fromLocalDir(root);
    const hook = swapAfterLstat('/SKILL.md', () => {
      renameSync(join(root, 'x', 'SKILL.md'), join(root, 'x', 'old.md'));
      execFileSync('mknod', [join(root, 'x', 'SKILL.md'), 'c', '1', '5']);
    });
    await expect(skills.load('x')).rejects.toMatchObject({ code: 'SKILL_NOT_FOUND', message: expect.stringContaining('device') });
    expect(hook.fired()).toBe(true);
  });

  it('never enters a resource folder swapped for an outside link after it was listed', async () => {
    const skills = await Skills.fromLocalDir(root);
    const original = fsp.readdir;
    let fired = false;
    jest.spyOn(fsp, 'readdir').mockImplementation((async (...args: Parameters<typeof fsp.readdir>) => {
      const entries = await original(...args);
      if (!fired) {
        fired = true;
        renameSync(join(root, 'x', 'references'), join(root, 'x', 'moved'));
        symlinkSync(outside, join(root, 'x', 'references'));
      }
      return entries;
    }) as typeof fsp.readdir);
    const loaded = await skills.load('x');
    expect(fired).toBe(true);
    expect(loaded.instructions).toBe(INSIDE);
    expect(loaded.resources).toEqual([]);
  });
});
