/** Output redirections judged as writes, on a real folder: write rules, dangerous paths, links, dynamic targets. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionBehavior, PermissionContext, parsePermissionSettings } from '../../../lib/permissions';
import { analyzeCommand, judgeRedirectWrites } from '../../../lib/builtins';

const { ALLOW, ASK, DENY, PASSTHROUGH } = PermissionBehavior;
type Settings = { readonly allow?: readonly string[]; readonly deny?: readonly string[]; readonly ask?: readonly string[] };

describe('judgeRedirectWrites', () => {
  let dir: string;
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'redirects-')));
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'secret'));
    symlinkSync(join(dir, '.git', 'config'), join(dir, 'notes.txt'));
    symlinkSync(join(dir, 'secret'), join(dir, 'public'));
    symlinkSync('loop', join(dir, 'loop'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const context = (settings: Settings = {}) => new PermissionContext({ cwd: dir, rules: parsePermissionSettings(settings, 'test') });
  const judge = async (command: string, settings?: Settings, writeTool?: string) =>
    judgeRedirectWrites(await analyzeCommand(command), context(settings), writeTool === undefined ? {} : { writeTool });

  it.each([
    ['echo x > .env', { deny: ['Write(.env)'] }, DENY, false],
    ['echo x >> secret/a', { deny: ['Write(secret/**)'] }, DENY, false],
    ['echo x > public/a', { deny: ['Write(secret/**)'] }, DENY, false],
    ['echo x 2> secret/err', { deny: ['Write(/**/secret/**)'] }, DENY, false],
    ['echo x &> secret/a', { deny: ['Write'] }, DENY, false],
    ['echo x > loop/a', { deny: ['Write(/nowhere/**)'] }, DENY, false],
    ['echo x > ok.txt', { deny: ['Write(secret/**)'] }, PASSTHROUGH, false],
    ['echo x > ~/.bashrc', {}, ASK, true],
    ['echo x > .git/config', {}, ASK, true],
    ['echo x > notes.txt', {}, ASK, true],
    ['echo x > .env', { ask: ['Write(.env)'] }, ASK, true],
    ['echo x > "$F"', {}, ASK, true],
    ['echo x > out-$(id)', {}, ASK, true],
    ['echo x > plan.md', { ask: ['Write(*.md)'] }, ASK, false],
    ['echo x > plan.md', { allow: ['Write(*.md)'] }, PASSTHROUGH, false],
    ['echo x > /dev/null 2>&1', { deny: ['Write'] }, PASSTHROUGH, false],
    ['echo x >&2', { deny: ['Write'] }, PASSTHROUGH, false],
    ['cat < secret/a', { deny: ['Write'] }, PASSTHROUGH, false],
    ['echo x > a.txt', { deny: ['Edit(a.txt)'] }, PASSTHROUGH, false],
  ] as const)('%j with %j: %s', async (command, settings, behavior, immune) => {
    const decision = await judge(command, settings);
    expect(decision.behavior).toBe(behavior);
    expect(decision.bypassImmune).toBe(immune);
  });

  it('judges with the rules of the tool it is given, and names the rule and the target', async () => {
    const decision = await judge('ls > out.txt', { deny: ['Edit(out.txt)'] }, 'Edit');
    expect(decision.behavior).toBe(DENY);
    expect(decision.message).toBe('The permission rule Edit(out.txt) denies writing out.txt, which the command redirects its output to.');
    expect(decision.behavior).not.toBe(ALLOW);
  });
});
