/**
 * Grep benchmark: the `Grep` tool over a generated tree of 50,000 files against the same ripgrep binary run directly,
 * both to completion. Like is compared with like: the direct run gets the very arguments Grep passes, `--sort=path`
 * included (stable pages; it makes ripgrep walk on one thread), so the ratio is what the tool adds (its checks, the
 * launch through Node with an empty environment, the answer's formatting). A second row shows plain `rg -l needle`
 * (unsorted, on every thread) for reference only.
 *
 * The tree: 1,000 folders (50 x 20) of 50 files of a few lines each; one file in 50 holds the word searched.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AGENT_STATE, ToolContext, Tools } from '../lib';
import { GrepTool, ripgrepPath } from '../lib/builtins';
import { credentialExclusions, VCS_FOLDERS } from '../lib/builtins/files/grep-exclusions';
import { LocalWorkspace } from '../lib/workspace';
import { measureOnce, printTable } from './harness';

const run = promisify(execFile);
const RUNS = process.env.BENCH_QUICK === '1' ? 3 : 9;

function generateTree(root: string): number {
  let count = 0;
  for (let a = 0; a < 50; a++) {
    for (let b = 0; b < 20; b++) {
      const folder = join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(folder, { recursive: true });
      for (let f = 0; f < 50; f++) {
        const body = `export const value${f} = ${f};\nfunction helper() { return value${f} * 2; }\n`;
        writeFileSync(join(folder, `file${f}.ts`), f === 7 ? `${body}// needle here\n` : body);
        count++;
      }
    }
  }
  return count;
}

/** Median ms of each operation, the two taking turns run after run (this machine is shared). */
async function alternate(operations: ReadonlyArray<() => Promise<unknown>>): Promise<number[]> {
  const times: number[][] = operations.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    for (const [i, operation] of operations.entries()) times[i]!.push(await measureOnce(operation, 1));
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!);
}

/** Runs the Grep benchmark and prints one table. */
export default async function (): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'agenttoolkit-bench-grep-'));
  try {
    const root = join(base, 'tree');
    const files = generateTree(root);
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(new GrepTool({ workspace: new LocalWorkspace(root) }));
    const rg = ripgrepPath();
    const ours = async () => {
      const result = await tools.execute('Grep', { pattern: 'needle', head_limit: 5000 });
      if (!result.ok) throw new Error(String(result.error));
      return result;
    };
    // The arguments GrepTool passes for { pattern: 'needle' } in files_with_matches mode.
    const same = ['--no-config', '--hidden', '--color=never', '--no-heading', '--with-filename', '--sort=path', '--max-columns=500', '--max-columns-preview',
      '--files-with-matches', ...VCS_FOLDERS.map((folder) => `--glob=!${folder}`), ...credentialExclusions(root), '--regexp=needle', '--', '.'];
    const options = { cwd: root, env: {}, maxBuffer: 64 * 1024 * 1024 };
    const direct = () => run(rg, same, options);
    // A path is given: with none, ripgrep would search its standard input, which execFile leaves open.
    const unsorted = () => run(rg, ['-l', 'needle', '.'], options);
    const found = (await ours()).result as string;
    if (!found.startsWith(`Found ${files / 50} files`)) throw new Error(`unexpected Grep answer: ${found.slice(0, 80)}`);
    if ((await direct()).stdout.split('\n').length !== files / 50 + 1) throw new Error('the direct run found another set of files');
    const [grepMs, rgMs, unsortedMs] = await alternate([ours, direct, unsorted]);
    printTable('Grep (ripgrep through the tool)', ['operation', 'agenttoolkit (median)', 'rg directly (median)', 'ratio', 'target'], [
      [`Grep 'needle', ${files} files, ${files / 50} matches; rg with Grep's arguments (--sort=path, one thread)`, `${grepMs!.toFixed(1)} ms`, `${rgMs!.toFixed(1)} ms`, `${(grepMs! / rgMs!).toFixed(2)}x`, '<= 1.3x'],
      ['for reference: plain rg -l needle . (unsorted, every thread)', '', `${unsortedMs!.toFixed(1)} ms`, `${(grepMs! / unsortedMs!).toFixed(2)}x`, 'none'],
    ]);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
