import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fingerprintModule from '../../lib/skills/fingerprint';
import { SkillWatchError, Skills } from '../../lib/skills';
import { cleanup, recordingLogger, skillText, tempDir, writeSkill } from './helpers';

afterEach(cleanup);

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Skills.watch (real chokidar)', () => {
  let skills: Skills | undefined;
  afterEach(async () => {
    await skills?.close();
    skills = undefined;
  });

  it('picks up added and edited skills by itself, without polling', async () => {
    const root = tempDir();
    const file = writeSkill(root, 'first');
    skills = await Skills.fromLocalDir(root);
    await skills.watch({ debounceMs: 20 });
    expect(skills.watching).toBe(true);
    writeSkill(root, 'second');
    await eventually(() => skills!.get('second') !== undefined);
    writeFileSync(file, skillText('first', { description: 'edited while watched' }));
    await eventually(() => skills!.get('first')!.description === 'edited while watched');
    expect(skills.revision).toBeGreaterThanOrEqual(2);
  });

  it('answers refreshIfChanged() without touching the disk while no event came', async () => {
    const root = tempDir();
    writeSkill(root, 'quiet');
    skills = await Skills.fromLocalDir(root);
    await skills.watch();
    const fingerprint = jest.spyOn(fingerprintModule, 'fingerprintSkills');
    try {
      await skills.refreshIfChanged(); // the first check after watch() starts reads the disk once
      expect(fingerprint).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 5; i++) expect(await skills.refreshIfChanged()).toEqual({ revision: 0, added: [], updated: [], removed: [] });
      expect(fingerprint).toHaveBeenCalledTimes(1);
      await skills.close();
      expect(skills.watching).toBe(false);
      await skills.refreshIfChanged();
      expect(fingerprint).toHaveBeenCalledTimes(2);
    } finally {
      fingerprint.mockRestore();
    }
  });

  it('logs a bad edit, keeps the previous version active, and keeps answering with that error', async () => {
    const root = tempDir();
    const file = writeSkill(root, 'target');
    const logger = recordingLogger();
    skills = await Skills.fromLocalDir(root, { logger });
    await skills.watch({ debounceMs: 20 });
    await skills.watch(); // a second call changes nothing
    writeFileSync(file, '---\nname: target\n---\n');
    await eventually(() => logger.messages.length > 0);
    expect(logger.messages[0]).toContain('Skills refresh failed: SkillDiscoveryError');
    expect(logger.messages[0]).toContain(file.replace(root, ''));
    expect(skills.get('target')!.description).toContain('target');
    await expect(skills.refreshIfChanged()).rejects.toThrow('Skill discovery failed with 1 problem');
    mkdirSync(join(root, 'empty-folder')); // an event that leaves the broken state as it is: not logged again
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(logger.messages).toHaveLength(1);
  });

  it('starts one watcher for concurrent watch() calls, and close() waits for a start in progress', async () => {
    const root = tempDir();
    skills = await Skills.fromLocalDir(root);
    const chokidar = jest.requireActual<typeof import('chokidar')>('chokidar');
    const spy = jest.spyOn(chokidar, 'watch');
    try {
      const starts = [skills.watch(), skills.watch()];
      const closing = skills.close();
      await Promise.all([...starts, closing]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(skills.watching).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('reports watcher errors to the logger', async () => {
    const root = tempDir();
    const logger = recordingLogger();
    skills = await Skills.fromLocalDir(root, { logger });
    const chokidar = jest.requireActual<typeof import('chokidar')>('chokidar');
    const realWatch = chokidar.watch;
    let emitError: ((error: Error) => void) | undefined;
    const spy = jest.spyOn(chokidar, 'watch').mockImplementation((paths, options) => {
      const watcher = realWatch(paths, options);
      emitError = (error) => void watcher.emit('error', error);
      return watcher;
    });
    try {
      await skills.watch();
      emitError!(new Error('EMFILE: too many open files'));
      expect(logger.messages).toEqual(['Skills watcher error: Error: EMFILE: too many open files']);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('chokidar loading', () => {
  afterEach(() => jest.resetModules());

  it('is not loaded by importing agenttoolkit/skills or by discovery, only by watch()', async () => {
    const root = tempDir();
    writeSkill(root, 'lazy');
    let loads = 0;
    jest.doMock('chokidar', () => {
      loads++;
      return jest.requireActual('chokidar');
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module registry after jest.doMock
    const isolated = require('../../lib/skills') as typeof import('../../lib/skills');
    const skills = await isolated.Skills.fromLocalDir(root);
    await skills.refresh();
    await skills.load('lazy');
    expect(loads).toBe(0);
    await skills.watch();
    expect(loads).toBe(1);
    await skills.close();
  });

  it('throws SkillWatchError with an install hint when chokidar is missing', async () => {
    jest.doMock('chokidar', () => {
      throw new Error("Cannot find module 'chokidar'");
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module registry after jest.doMock
    const isolated = require('../../lib/skills') as typeof import('../../lib/skills');
    const skills = await isolated.Skills.fromLocalDir(tempDir());
    const error = await skills.watch().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(isolated.SkillWatchError);
    expect(error).not.toBeInstanceOf(SkillWatchError); // a fresh module instance, proving the isolation
    expect((error as SkillWatchError).code).toBe('SKILL_WATCH_UNAVAILABLE');
    expect((error as Error).message).toContain('npm install chokidar');
    expect(skills.watching).toBe(false);
  });
});
