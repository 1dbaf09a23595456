/**
 * Crafted inputs from the model, timed: the speed the specs used to assert with a wall clock and now prove by counting
 * the work (spec/permissions/match-cost, spec/builtins/shell/match-cost, spec/permissions/wording-attacks,
 * spec/hardening/adversarial-inputs, spec/skills/resource-bounds). Each figure is the median of a few runs of one
 * whole call; the targets are the ceilings those specs held, well above the figures on a quiet machine, so a miss
 * means a regression (an exponential match, a quadratic trim, a schema walk per item), not a slow host.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tools, runToolCalls } from '../lib';
import { pathMatchesRule, pathRule, PermissionBehavior, PermissionEngine } from '../lib/permissions';
import { commandMatchesRule } from '../lib/builtins';
import { Skills } from '../lib/skills';
import { MAX_SKILL_FOLDERS } from '../lib/skills/resources';
import { formatMs, measureOnce, printTable, verdict } from './harness';

const quiet = { warn: () => undefined, error: () => undefined };

/** A wide skill: one resource after four times as many empty folders as the walk opens. */
function wideSkill(): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'agenttoolkit-adversarial-bench-'));
  const dir = join(root, 'wide');
  mkdirSync(join(dir, 'a-wide'), { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: wide\ndescription: A wide skill. Use it in the benchmark.\n---\nBody.\n');
  for (let i = 0; i < MAX_SKILL_FOLDERS * 4; i++) mkdirSync(join(dir, 'a-wide', `e${i}`));
  writeFileSync(join(dir, 'z-last.txt'), 'x');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export default async function run(): Promise<void> {
  const rows: Array<[string, number, number]> = [];
  const time = async (name: string, targetMs: number, fn: () => unknown) => rows.push([name, await measureOnce(fn), targetMs]);

  const nearMiss = `${'/a'.repeat(2000)}/y`;
  await time('path rule `/**/**/**/**/**/**/**/**/**/x`, 4,001-character near miss', 2000, () => pathMatchesRule('/**/**/**/**/**/**/**/**/**/x', nearMiss, { cwd: '/' }));
  await time('path rule `/*a*a*a*a*a*b`, 20,001-character near miss, any case', 2000, () => pathMatchesRule('/*a*a*a*a*a*b', `/${'a'.repeat(20000)}`, { cwd: '/', caseInsensitive: true }));
  const engine = new PermissionEngine({ cwd: '/tmp', settings: { deny: ['read(**/a/**/a/**/a/**/a/**/b)'] } });
  const files = new Tools({ logger: quiet });
  files.action({ name: 'read', description: 'Reads a file.', params: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } as never, permissions: pathRule('path') }, () => 'read');
  const reader = files.get('read')!;
  await time('engine.check, deny rule with 4 globstars, 4,000-name path', 1500, () => engine.check(reader, { path: 'a/'.repeat(4000) + 'b' }));
  // A different command each run: the analysis of a command is cached.
  let n = 0;
  await time('command rule `* a * a * a * a * b`, 100,000-character near miss', 5000, () => commandMatchesRule('* a * a * a * a * b', ' a'.repeat(50000 + ++n)));
  await time('command rule `a*` (deny), 100,000-character near miss', 5000, () => commandMatchesRule('a*', 'b '.repeat(50000 + ++n), PermissionBehavior.DENY));
  await time('command rule `* * * * * * z`, 20,000-word near miss (deny)', 5000, () => commandMatchesRule('* * * * * * z', ' a'.repeat(20000 + ++n), PermissionBehavior.DENY));
  const denying = new PermissionEngine({ cwd: '/tmp', settings: { deny: ['read(/secret/**)'] } });
  await time('runToolCalls denial echoing a 300,000-dot path', 1500, () => runToolCalls(files, [{ id: 'c', name: 'read', args: { path: `${'.'.repeat(300000)}\0` } }], { engine: denying }));

  const branches = Array.from({ length: 60 }, (_, i) => ({ type: 'object', properties: { [`k${i}`]: { type: 'number' } } }));
  const union = new Tools({ logger: quiet });
  union.action({ name: 'a', description: 'd', strict: false, params: { type: 'object', properties: { xs: { type: 'array', items: { anyOf: branches } } } } as never }, (p: { xs: unknown[] }) => p.xs[59]);
  const text = JSON.stringify({ xs: Array.from({ length: 50_000 }, (_, i) => ({ [`k${i % 60}`]: i, junk: 1 })) });
  await time('execute, 1 MB of arguments against a 60-branch union', 4000, () => union.execute('a', text));

  const wide = wideSkill();
  try {
    const skills = await Skills.fromLocalDir(wide.root);
    await time(`Skills.load of a skill with ${MAX_SKILL_FOLDERS * 4} empty folders`, 2000, () => skills.load('wide'));
  } finally {
    wide.remove();
  }

  printTable('Crafted inputs (median of whole calls)', ['input', 'median', 'target', 'met'], rows.map(([name, ms, target]) => [name, formatMs(ms), `< ${formatMs(target)}`, verdict(ms < target)]));
}
