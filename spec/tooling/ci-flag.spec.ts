import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { isCI } from '../../scripts/ci-flag';

const ROOT = join(__dirname, '..', '..');

describe('the CI flag is parsed, not merely tested for presence', () => {
  // An unset CI is covered below, through a child process with no CI in its environment.
  it.each(['', '0', 'false', 'FALSE', 'False', 'no', 'off', ' false '])('CI=%p is not CI', (value) => {
    expect(isCI(value)).toBe(false);
  });

  it.each(['1', 'true', 'TRUE', 'yes', 'on', 'github-actions'])('CI=%p is CI', (value) => {
    expect(isCI(value)).toBe(true);
  });
});

describe('jest.config.js gates coverage per folder of lib/ only in CI', () => {
  function thresholds(ci: string | undefined): Record<string, unknown> {
    const env: NodeJS.ProcessEnv = { ...process.env };
    if (ci === undefined) delete env.CI;
    else env.CI = ci;
    const out = execFileSync(process.execPath, ['-e', "process.stdout.write(JSON.stringify(require('./jest.config.js').coverageThreshold))"], { cwd: ROOT, env });
    return JSON.parse(out.toString()) as Record<string, unknown>;
  }

  it.each([undefined, '', '0', 'false'])('CI=%p: the global gate only', (ci) => {
    expect(thresholds(ci)).toEqual({ global: { branches: 90 } });
  });

  it('CI=true: every folder of lib/, nested ones too, and each file directly in lib/', () => {
    const gates = thresholds('true');
    expect(gates.global).toEqual({ branches: 90 });
    for (const key of ['./lib/sandbox/', './lib/sandbox/docker/', './lib/workspace/local/', './lib/providers/', './lib/text/', './lib/fs/', './lib/tools.ts']) {
      expect(gates[key]).toEqual({ branches: 90 });
    }
    expect(gates['./lib/']).toBeUndefined();
  });
});
