import * as chokidar from 'chokidar';
import { chokidarApi, loadChokidar } from '../../lib/skills/watcher';
import { SkillWatchError } from '../../lib/skills';

describe('loading chokidar', () => {
  it('takes its API from the module itself or from its default export', () => {
    expect(chokidarApi(chokidar).watch).toBe(chokidar.watch);
    expect(chokidarApi({ default: chokidar }).watch).toBe(chokidar.watch);
    expect(chokidarApi({ watch: 'not a function', default: chokidar }).watch).toBe(chokidar.watch);
  });

  it.each([undefined, null, {}, { default: null }, { default: { watch: 1 } }, 'chokidar'])('refuses %p, which is not chokidar', (loaded) => {
    expect(() => chokidarApi(loaded)).toThrow(SkillWatchError);
  });

  it('loads the installed chokidar (through require where import() is unavailable, as in this runner)', async () => {
    expect((await loadChokidar()).watch).toBe(chokidar.watch);
  });
});
