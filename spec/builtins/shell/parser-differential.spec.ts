/**
 * The parser differential by execution (see differential.ts): under bash and under dash, every program the shell
 * executed for a tricky spelling is one the analysis reported, or the analysis said it cannot analyse the command.
 * Runs when strace works (CI installs it); `SHELL_DIFFERENTIAL=full` runs every seed in every frame (about 2,900
 * runs, several minutes), else a sample of three frames. scripts/shell-differential.sh runs the full corpus.
 */
import { corpus, differential, straceMissing } from './differential';

const missing = straceMissing();
if (missing !== undefined) process.stderr.write(`\nSkipping the shell differential: ${missing}\n`);

(missing === undefined ? describe : describe.skip)('the analysis against what bash and dash execute', () => {
  it('never reports fewer programs than run', async () => {
    const commands = process.env.SHELL_DIFFERENTIAL === 'full' ? corpus() : corpus([0, 8, 9]);
    const { misses, runs, unanalysable } = await differential(commands);
    if (process.env.SHELL_DIFFERENTIAL !== undefined) process.stderr.write(`shell differential: ${runs} runs compared, ${unanalysable} unanalysable (asked)\n`);
    expect(misses).toEqual([]);
    expect(runs).toBeGreaterThan(commands.length / 2);
  }, 1_200_000);
});
