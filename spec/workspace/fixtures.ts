import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A scratch folder holding `root/` (the workspace) and `outside/` (with a secret), removed by `cleanup`. */
export interface Sandbox {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  /** Writes a file under `base` (creating folders); returns its absolute path. */
  put(relative: string, content?: string): string;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'agenttoolkit-ws-')));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  return {
    base,
    root,
    outside,
    put(relative, content = '') {
      const path = join(base, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
