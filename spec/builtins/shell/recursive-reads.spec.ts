/**
 * Recursive reads that reach a credential file without naming it (`grep -r x .`, `rg x`, `grep -r x src` over
 * `src/config/.env`, a link to a folder of secrets, `git grep --untracked`), through the permission engine with the
 * real Bash tool; and the searches that stay read-only: no recursion, a folder without credentials, `diff -r` of clean
 * folders. The walk's bound fails closed.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PermissionBehavior, type PermissionDecision, PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { bashTool, MAX_RECURSIVE_ENTRIES } from '../../../lib/builtins';
import { tempDir } from '../../sandbox/helpers';
import { ContractSandbox } from './contract-sandbox';

const { ALLOW, ASK } = PermissionBehavior;

let dir: ReturnType<typeof tempDir>;
let repo: string;
let clean: string;
let big: string;
beforeAll(() => {
  dir = tempDir('agenttoolkit-recursive-reads-');
  repo = join(dir.path, 'repo');
  mkdirSync(join(repo, 'src', 'config'), { recursive: true });
  mkdirSync(join(repo, 'docs'), { recursive: true });
  mkdirSync(join(repo, 'vault', 'inner'), { recursive: true });
  writeFileSync(join(repo, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(repo, 'src', 'config', '.env'), 'TOKEN=secret\n');
  writeFileSync(join(repo, 'docs', 'a.md'), '# a\n');
  writeFileSync(join(repo, 'vault', 'inner', '.npmrc'), '//registry/:_authToken=x\n');
  symlinkSync('vault', join(repo, 'notes'));
  clean = join(dir.path, 'clean');
  mkdirSync(join(clean, 'a'), { recursive: true });
  mkdirSync(join(clean, 'b'), { recursive: true });
  writeFileSync(join(clean, 'a', 'x.txt'), 'x\n');
  writeFileSync(join(clean, 'b', 'x.txt'), 'y\n');
  symlinkSync('..', join(clean, 'a', 'up')); // a cycle: the walk visits each folder once
  big = join(dir.path, 'big');
  mkdirSync(big);
  for (let i = 0; i <= MAX_RECURSIVE_ENTRIES; i++) writeFileSync(join(big, `f${i}`), '');
});
afterAll(() => dir.remove());

async function decision(command: string, cwd = repo): Promise<PermissionDecision> {
  const bash = bashTool({ sandbox: new ContractSandbox({ shells: ['posix', 'bash'], readOnly: true }, cwd) });
  const engine = new PermissionEngine({ mode: PermissionMode.DEFAULT, cwd, workingDirectories: [cwd], settings: {} });
  return engine.check(bash, { command });
}

/** The other credential file a walk of the whole repository may reach first. */
const OTHER = '(notes|vault)/inner/\\.npmrc';

describe('a recursive read that reaches a credential path asks, naming it', () => {
  it.each([
    ['grep -r TOKEN .', 'src/config/.env'],
    ['grep -R TOKEN src', 'src/config/.env'],
    ['grep --recursive TOKEN src/config', 'src/config/.env'],
    ['grep --dereference-recursive TOKEN src', 'src/config/.env'],
    ['grep -d recurse TOKEN src', 'src/config/.env'],
    ['grep --directories=recurse TOKEN src', 'src/config/.env'],
    ['grep -r TOKEN', 'src/config/.env'],
    ['egrep -rn TOKEN', 'src/config/.env'],
    ['grep -ri -e TOKEN', 'src/config/.env'],
    ['rg TOKEN', 'src/config/.env'],
    ['rg -uu TOKEN src', 'src/config/.env'],
    ['ag TOKEN src', 'src/config/.env'],
    ['grep -R authToken notes', 'notes/inner/.npmrc'],
    ['grep -r authToken vault/*', 'vault/inner/.npmrc'],
    ['git grep --untracked TOKEN', 'src/config/.env'],
    ['git grep --no-index TOKEN', 'src/config/.env'],
    ['git -C . grep --untracked TOKEN', 'src/config/.env'],
    ['git --no-pager grep --untr TOKEN', 'src/config/.env'],
    ['git grep --no-ind TOKEN', 'src/config/.env'],
    ['diff -r src docs', 'src/config/.env'],
    ['cat docs/a.md; grep -r TOKEN src', 'src/config/.env'],
  ])('%s', async (command, path) => {
    const d = await decision(command);
    expect(d.behavior).toBe(ASK);
    expect(d.message).toMatch(new RegExp(`reads (${path}|${OTHER}), which may be a credential file`));
  });

  it('counts a home folder as the shell expands it', async () => {
    const d = await decision('grep -r x ~/');
    expect(d.behavior).toBe(ASK);
    expect(d.message).toContain(homedir());
  });

  it('fails closed past the walk bound, and says so', async () => {
    const d = await decision('grep -r x .', big);
    expect(d.behavior).toBe(ASK);
    expect(d.message).toContain(`more than ${MAX_RECURSIVE_ENTRIES} files under .`);
  });

  it('treats a run-time option word as possibly recursive', async () => {
    expect((await decision('grep $FLAGS TOKEN src')).behavior).toBe(ASK);
  });
});

describe('searches that reach no credential path stay read-only', () => {
  it.each([
    ['grep TOKEN src/a.ts', 'repo'],
    ['grep TOKEN src', 'repo'], // without -r grep reads no folder
    ['grep -d skip TOKEN src', 'repo'],
    ['grep -r export docs', 'repo'],
    ['ag -n TOKEN', 'repo'],
    ['rg TOKEN a b', 'clean'],
    ['grep -r x', 'clean'],
    ['diff -r a b', 'clean'],
    ['git grep TOKEN', 'clean'],
    ['grep -r x missing-folder', 'clean'],
  ])('%s', async (command, cwd) => {
    const d = await decision(command, cwd === 'repo' ? repo : clean);
    expect([d.behavior, d.message]).toEqual([ALLOW, 'The command only reads.']);
  });
});
