import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const runAll = (...steps: string[]) => spawnSync(join(ROOT, 'scripts', 'run-all.sh'), steps, { encoding: 'utf8' });

describe('npm test runs every step, and fails at the end if one failed', () => {
  it('a failed step does not stop the next ones; the run fails naming it', () => {
    const run = runAll('echo one; exit 3', 'echo two', 'echo three >&2; false');
    expect(run.stdout).toBe('one\ntwo\n');
    expect(run.stderr).toBe("three\nnpm test: these steps failed:\n  echo one; exit 3\n  echo three >&2; false\n");
    expect(run.status).toBe(1);
  });

  it('passes when every step passes', () => {
    expect(runAll('true', 'echo ok')).toMatchObject({ status: 0, stdout: 'ok\n', stderr: '' });
  });

  it('is what the test script runs its steps with', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.test).toMatch(/^scripts\/run-all\.sh ('[^']+' )+'[^']+'$/);
    expect(scripts.test).toContain("'jest --coverage'");
  });
});
