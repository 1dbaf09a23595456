import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** A lock older than this is from a run that died: taken over. */
const STALE_LOCK_MS = 15 * 60_000;

/**
 * Packs the package as users get it (`npm pack`, whose prepack rebuilds dist/) into `destination`, one spec at a
 * time: jest runs the spec files of spec/package/ in parallel workers, and two prepacks at once would delete and
 * rebuild the same dist/ under each other. The lock is a folder in the temp dir named after this checkout, so other
 * checkouts on the machine pack freely.
 *
 * @param destination - an existing folder; receives the tarball.
 * @returns the tarball's file name (inside `destination`).
 * @throws when `npm pack` fails (its output in the message).
 */
export function packTarball(destination: string): string {
  const lock = join(tmpdir(), `agenttoolkit-pack-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    execFileSync('npm', ['pack', '--pack-destination', destination, '--loglevel=error'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  const tarball = readdirSync(destination).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${destination}`);
  return tarball;
}
