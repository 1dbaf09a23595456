/**
 * The read-only oracle by execution (read-only-oracle.ts): commands the analysis claims read-only run for real under
 * strace, and a claim the run disproves fails, unless read-only-oracle-findings.json lists it as a known false claim
 * (a listed command that no longer is one fails too, so the list shrinks as the verdict is fixed). Runs when strace
 * and bwrap work (CI installs them). By default a sample of a few hundred commands; `READ_ONLY_ORACLE=full` runs
 * at least 10,000 (`READ_ONLY_ORACLE_COUNT` to change it; `READ_ONLY_ORACLE_LOG=FILE` appends progress there) and prints the count, the time and every false claim:
 * scripts/read-only-oracle.sh runs that.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READ_ONLY_VERDICT } from '../../../lib/builtins/shell/read-only-verdict';
import { sample } from './oracle-commands';
import { oracle, oracleMissing, runClaims, selectClaims, type FalseClaim } from './read-only-oracle';

const missing = oracleMissing();
if (missing !== undefined) process.stderr.write(`\nSkipping the read-only oracle: ${missing}\n`);

const FULL = process.env.READ_ONLY_ORACLE === 'full';
const KNOWN: readonly string[] = JSON.parse(readFileSync(join(__dirname, 'read-only-oracle-findings.json'), 'utf8')) as string[];

function describeClaim(f: FalseClaim): string {
  return `${f.command}\n${f.violations.slice(0, 3).map((v) => `    ${v.kind}: ${v.syscall}`).join('\n')}`;
}

(missing === undefined ? describe : describe.skip)('the read-only oracle', () => {
  it('catches a write, a program run and a connect that are claimed read-only', async () => {
    const result = await oracle(['touch new.txt', 'rg --pre=touch hello data.txt', 'cat < /dev/tcp/127.0.0.1/9', 'ls -la data.txt sub link', 'git log --oneline', 'sort -S 1 big.txt'], {
      [READ_ONLY_VERDICT]: () => true,
    });
    const kinds = Object.fromEntries(result.falseClaims.map((f) => [f.command, [...new Set(f.violations.map((v) => v.kind))].sort()]));
    expect(kinds).toEqual({
      'touch new.txt': ['write'],
      'rg --pre=touch hello data.txt': ['exec', 'write'],
      'cat < /dev/tcp/127.0.0.1/9': ['network'],
    });
    expect(result.falseClaims.find((f) => f.command === 'touch new.txt')?.violations[0]?.syscall).toMatch(/openat\(AT_FDCWD, "new\.txt", O_WRONLY\|O_CREAT/);
    expect(result.notRun).toEqual([]);
    expect(result.commands).toBe(6);
  }, 300_000);

  it('disproves no read-only claim of the analysis beyond the known false claims', async () => {
    const count = FULL ? Number(process.env.READ_ONLY_ORACLE_COUNT ?? '10000') : 300;
    const selection = await selectClaims(FULL ? count : 0, KNOWN);
    const run = FULL ? selection.claims : [...selection.claims.filter((c) => KNOWN.includes(c.command)), ...sample(selection.claims.filter((c) => !KNOWN.includes(c.command)), count)];
    const result = await runClaims(run, { progressFile: process.env.READ_ONLY_ORACLE_LOG });
    const found = new Set(result.falseClaims.map((f) => f.command));
    const unknown = result.falseClaims.filter((f) => !KNOWN.includes(f.command));
    const fixed = KNOWN.filter((command) => !found.has(command));
    if (FULL) {
      process.stderr.write([
        `read-only oracle: ${result.commands} commands claimed read-only (of ${selection.judged} judged) run in ${(result.elapsedMs / 1000).toFixed(1)} s on ${result.workers} workers`,
        `  (${(result.elapsedMs / Math.max(1, result.commands)).toFixed(1)} ms a command, ${(result.cpuMs / Math.max(1, result.commands)).toFixed(1)} ms of CPU a command)`,
        `  ${result.falseClaims.length} false claims, ${unknown.length} not in read-only-oracle-findings.json, ${fixed.length} listed ones no longer false`,
        ...result.falseClaims.map(describeClaim),
        '',
      ].join('\n'));
    }
    expect(unknown.map(describeClaim)).toEqual([]);
    expect(fixed).toEqual([]);
    expect(result.notRun).toEqual([]);
    expect(result.commands).toBeGreaterThanOrEqual(FULL ? Math.min(count, 10_000) : KNOWN.length + 100);
  }, 3_600_000);
});
