// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');

function noProc(path: unknown): void {
  if (String(path).startsWith('/proc/')) throw Object.assign(new Error('ENOENT: no /proc here'), { code: 'ENOENT' });
}

/**
 * Loads a module as it runs where `/proc/self/fd` cannot be read (macOS, BSD, a Linux without /proc): `readlink` of
 * any `/proc/...` path fails with ENOENT. This is a fault the Linux test host cannot cause for real, so it is faked.
 * Call it in `beforeEach` with a `require` of the module under test (loaded afresh, in isolation);
 * `jest.restoreAllMocks()` in `afterEach` undoes it.
 */
export function loadWithoutProc<T>(load: () => T): T {
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
  let loaded: T | undefined;
  jest.isolateModules(() => {
    loaded = load();
  });
  return loaded!;
}
