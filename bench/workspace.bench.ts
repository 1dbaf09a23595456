/**
 * Workspace benchmark (issue 4): LocalWorkspace.glob over a generated tree of 50,000 files against tinyglobby
 * called directly, and LocalWorkspace.readFile of a 1 MiB file against fs.promises.readFile, in one run.
 *
 * The tree: 1,000 folders (50 x 20, two levels) of 50 files each; a fifth of the files end in `.ts` (the rest in
 * `.js`, `.json`, `.md`, `.tsx`), so `**\/*.ts` matches 10,000 of them. A second tree where all 50,000 files are
 * `.ts` shows the worst case: LocalWorkspace describes every match (lstat, for size and mtime), tinyglobby only
 * returns names, so the ratio grows with the number of matches. The row "tinyglobby + lstat" produces what
 * LocalWorkspace returns, for comparison.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { LocalWorkspace } from '../lib/workspace';
import { formatNs, measure, measureOnce, printTable } from './harness';

const FOLDERS_A = 50;
const FOLDERS_B = 20;
const FILES_PER_FOLDER = 50;
const MIXED = ['ts', 'js', 'json', 'md', 'tsx'];

function generateTree(root: string, extensions: readonly string[]): number {
  let count = 0;
  for (let a = 0; a < FOLDERS_A; a++) {
    for (let b = 0; b < FOLDERS_B; b++) {
      const folder = join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(folder, { recursive: true });
      for (let f = 0; f < FILES_PER_FOLDER; f++) {
        writeFileSync(join(folder, `file${f}.${extensions[f % extensions.length]}`), '');
        count++;
      }
    }
  }
  return count;
}

const RUNS = process.env.BENCH_QUICK === '1' ? 3 : 9;

/**
 * Median ms of each one-shot operation, the operations taking turns run after run so that a change in machine
 * load hits all of them alike (this machine is shared).
 */
async function alternate(operations: readonly [() => unknown, () => unknown, () => unknown]): Promise<[number, number, number]> {
  const times: number[][] = operations.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, operation] of operations.entries()) times[i]!.push(await measureOnce(operation, 1));
  }
  const median = (t: number[]): number => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!;
  return [median(times[0]!), median(times[1]!), median(times[2]!)];
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const ratio = (ours: number, theirs: number): string => `${(ours / theirs).toFixed(2)}x`;

async function globRows(base: string, label: string, extensions: readonly string[]): Promise<string[][]> {
  const root = join(base, label);
  const files = generateTree(root, extensions);
  const workspace = new LocalWorkspace(root);
  const matches = (await glob('**/*.ts', { cwd: root })).length;
  if ((await workspace.glob('**/*.ts')).length !== matches) throw new Error('LocalWorkspace.glob and tinyglobby disagree');
  const [direct, directWithStats, ours] = await alternate([
    () => glob('**/*.ts', { cwd: root }),
    async () => {
      const found = await glob('**/*.ts', { cwd: root });
      await Promise.all(found.map((p) => lstat(join(root, p))));
    },
    () => workspace.glob('**/*.ts'),
  ]);
  const what = `glob('**/*.ts'), ${files} files, ${matches} matches`;
  return [
    [what, ms(ours), `tinyglobby ${ms(direct)}`, ratio(ours, direct), '<= 1.5x'],
    [what, ms(ours), `tinyglobby + lstat ${ms(directWithStats)}`, ratio(ours, directWithStats), '-'],
  ];
}

/** Runs the workspace benchmarks and prints one table. */
export default async function (): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'agenttoolkit-bench-ws-'));
  try {
    const rows = [...await globRows(base, 'mixed', MIXED), ...await globRows(base, 'all-ts', ['ts'])];

    // A pattern that makes a backtracking glob matcher (picomatch) take about 40 s on one 60-character name; the
    // workspace's matcher is linear in the name.
    const crafted = join(base, 'crafted');
    mkdirSync(crafted, { recursive: true });
    for (let i = 0; i < 100; i++) writeFileSync(join(crafted, `${'a'.repeat(58)}${String(i).padStart(2, '0')}`), '');
    const craftedWs = new LocalWorkspace(crafted);
    const craftedRun = await measure('LocalWorkspace.glob crafted', () => craftedWs.glob('*a*a*a*a*a*a*a*a*b'));
    rows.push(['glob(\'*a*a*a*a*a*a*a*a*b\'), 100 names of 60 characters', formatNs(craftedRun.medianNs), 'picomatch: about 40 s per name (not run)', '-', '< 50 ms']);

    const root = join(base, 'read');
    const workspace = new LocalWorkspace(root);
    const path = join(root, 'one-mib.txt');
    writeFileSync(path, 'x'.repeat(1024 * 1024));
    const readText = await measure('LocalWorkspace.readFile', () => workspace.readFile('one-mib.txt'));
    const nodeText = await measure('fs.promises.readFile utf8', () => readFile(path, 'utf8'));
    const readBytes = await measure('LocalWorkspace.readBytes', () => workspace.readBytes('one-mib.txt'));
    const nodeBytes = await measure('fs.promises.readFile', () => readFile(path));
    rows.push(
      ['readFile, 1 MiB text', formatNs(readText.medianNs), `fs.promises.readFile(utf8) ${formatNs(nodeText.medianNs)}`,
        ratio(readText.medianNs, nodeText.medianNs), '<= 1.3x'],
      ['readBytes, 1 MiB', formatNs(readBytes.medianNs), `fs.promises.readFile ${formatNs(nodeBytes.medianNs)}`,
        ratio(readBytes.medianNs, nodeBytes.medianNs), '-'],
    );
    printTable('Workspace (LocalWorkspace, confinement included)', ['operation', 'agenttoolkit (median)', 'direct (median)', 'ratio', 'target'], rows);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
