/**
 * Skills benchmarks (issue 6): discovery of 1,000 generated skills (target < 300 ms), `refreshIfChanged()` with
 * nothing changed over 1,000 skills (target < 20 ms without a watcher, < 0.1 ms with one), and `load()` of one skill.
 * Skills are generated under os.tmpdir() and removed afterwards.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Skills } from '../lib/skills';
import { formatNs, measure, measureOnce, printTable } from './harness';

const COUNT = 1000;

function generate(root: string): void {
  for (let i = 0; i < COUNT; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    const dir = join(root, name);
    mkdirSync(join(dir, 'references'), { recursive: true });
    const body = `# ${name}\n\n${'Follow these steps carefully. '.repeat(40)}\n`;
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Does task ${i}. Use it when task ${i} comes up.\nlicense: MIT\nmetadata:\n  version: "1.0"\n---\n${body}`);
    writeFileSync(join(dir, 'references', 'guide.md'), 'guide');
  }
}

export default async function (): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'agenttoolkit-skills-bench-'));
  try {
    generate(root);
    const discoveryMs = await measureOnce(() => Skills.fromLocalDir(root));
    const skills = await Skills.fromLocalDir(root);
    const unwatched = await measure('refreshIfChanged, no watcher', () => skills.refreshIfChanged(), { batches: 10, batchMs: 50 });
    const load = await measure('load(one skill)', () => skills.load('skill-0500'));
    const prompt = await measure('renderPrompt (1,000 skills)', () => skills.renderPrompt());
    await skills.watch();
    await skills.refreshIfChanged(); // the first check after watch() reads the disk once
    const watched = await measure('refreshIfChanged, watcher', () => skills.refreshIfChanged());
    await skills.close();
    const status = (ns: number, targetMs: number) => (ns / 1e6 < targetMs ? `yes (< ${targetMs} ms)` : `NO (target < ${targetMs} ms)`);
    printTable(`Skills (${COUNT} generated skills)`, ['operation', 'median', 'within target'], [
      ['discovery: Skills.fromLocalDir', formatNs(discoveryMs * 1e6), status(discoveryMs * 1e6, 300)],
      ['refreshIfChanged, nothing changed, no watcher', formatNs(unwatched.medianNs), status(unwatched.medianNs, 20)],
      ['refreshIfChanged, nothing changed, watcher', formatNs(watched.medianNs), status(watched.medianNs, 0.1)],
      ['load(one skill)', formatNs(load.medianNs), '-'],
      ['renderPrompt', formatNs(prompt.medianNs), '-'],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
