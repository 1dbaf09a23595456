import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandMatchesRule, commandRule, loadBashParser } from '../../lib/builtins';
import { formatPermissionRule, isDangerousPath, isInsideWorkingDirectories, PermissionBehavior, PermissionContext, pathMatchesRule, pathRule, realPathOf } from '../../lib/permissions';

describe('isDangerousPath', () => {
  it.each([
    '/home/a/.bashrc',
    '.gitconfig',
    '/home/a/.ssh/config',
    'C:\\Users\\a\\.ssh\\authorized_keys',
    '/p/.env',
    '/p/.env.local',
    '/p/.envrc',
    '/p/.git/hooks/pre-commit',
    '/p/.vscode/settings.json',
    '/p/.idea',
    '/home/a/.SSH/Config',
    '/p/.npmrc',
  ])('flags %s', (path) => expect(isDangerousPath(path)).toBe(true));

  it.each(['/p/src/main.ts', '/p/config', '/p/.environment', '/p/my.bashrc.bak', '', '/', '/p/.github/CODEOWNERS', './'])('does not flag %j', (path) => {
    expect(isDangerousPath(path)).toBe(false);
  });

  it('takes extra files and directories', () => {
    expect(isDangerousPath('/p/.secrets', { files: ['.secrets'] })).toBe(true);
    expect(isDangerousPath('/p/.credentials/aws', { directories: ['.credentials'] })).toBe(true);
    expect(isDangerousPath('/p/deploy/prod/key', { directories: ['deploy/prod'] })).toBe(true);
    expect(isDangerousPath('/p/deploy/key', { directories: ['deploy/prod'] })).toBe(false);
    expect(new PermissionContext({ dangerousPaths: { files: ['.secrets'] } }).isDangerousPath('a/.secrets')).toBe(true);
  });
});

describe('working directories', () => {
  const root = mkdtempSync(join(tmpdir(), 'perm-'));
  const work = join(root, 'work');
  const outside = join(root, 'outside');
  mkdirSync(work);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret'), 'x');
  symlinkSync(outside, join(work, 'link'));

  it('resolves symlinks on both sides', () => {
    expect(isInsideWorkingDirectories(join(work, 'a.txt'), [work])).toBe(true);
    expect(isInsideWorkingDirectories('new/dir/file.txt', [work])).toBe(true);
    expect(isInsideWorkingDirectories(work, [work])).toBe(true);
    expect(isInsideWorkingDirectories(join(work, 'link', 'secret'), [work])).toBe(false);
    expect(isInsideWorkingDirectories(join(work, '..', 'outside', 'x'), [work])).toBe(false);
    expect(isInsideWorkingDirectories(join(work, 'link', 'secret'), [work, outside])).toBe(true);
    expect(isInsideWorkingDirectories(join(work, '..foo'), [work])).toBe(true);
    expect(isInsideWorkingDirectories(join(work, 'a'), [])).toBe(false);
    expect(new PermissionContext({ workingDirectories: [join(work, 'link')] }).isInsideWorkingDirectory(join(outside, 'secret'))).toBe(true);
  });

  it('keeps the missing tail of a path that does not exist', () => {
    expect(realPathOf(join(work, 'link', 'new', 'file'))).toBe(join(realPathOf(outside), 'new', 'file'));
    expect(realPathOf('/definitely-missing-root-dir/x')).toBe('/definitely-missing-root-dir/x');
  });
});

describe('rule matchers', () => {
  const cwd = '/project';
  it.each([
    ['src/**', '/project/src/main.ts', true],
    ['src/**', 'src/a/b.ts', true],
    ['src/**', '/project/lib/main.ts', false],
    ['src/**', '/elsewhere/src/main.ts', false],
    ['src/**', 'src/../.ssh/id_rsa', false],
    ['*.py', '/project/src/x.py', true],
    ['*.py', '/elsewhere/x.py', false],
    ['config.json', '/project/config.json', true],
    ['config.json', '/project/other.json', false],
    ['/etc/**', '/etc/hosts', true],
    ['/etc/**', '/p/etc/hosts', false],
    ['**/.env*', '/project/.env.local', true],
    ['**/.env*', '/project/a/b/.env', true],
    ['/**/.env', '/etc/.env', true],
  ])('path rule %s covers %s: %s', (pattern, path, expected) => expect(pathMatchesRule(pattern, path, { cwd, caseInsensitive: false })).toBe(expected));

  it.each([
    ['npm run:*', 'npm run build', true],
    ['npm run:*', 'npm run', true],
    ['npm run:*', 'npm install', false],
    ['git commit:*', 'git commit -m "fix"', true],
    ['git commit:*', 'git commit-tree x', false],
    ['rm:*', 'rm -rf /tmp/x', true],
    ['rm:*', 'ls', false],
    ['git status', 'git status', true],
    ['git status', 'rm -rf x; git status', false],
    ['docker * ps', 'docker compose ps', true],
    ['docker * ps', 'docker compose ps -a', false],
    ["echo '(a)'*", 'echo "(a)" b', true],
    ["echo '(a)'*", 'echo "(a)b"', true],
    ["echo '(a)' *", 'echo "(a)" b c', true],
    ["echo '(a)*'", 'echo "(a)*"', true],
    ["echo '(a)*'", 'echo "(a)b"', false],
  ])('command rule %s covers %s: %s', async (pattern, command, expected) => expect(await commandMatchesRule(pattern, command)).toBe(expected));

  it('suggests rules', async () => {
    await loadBashParser();
    const path = pathRule('file_path');
    expect(path.generateSuggestions({ file_path: join(process.cwd(), 'src', 'main.py') }, 'Edit').map(formatPermissionRule)).toEqual(['Edit(src/**)']);
    expect(path.generateSuggestions({ file_path: 'README.md' }, 'Edit').map(formatPermissionRule)).toEqual(['Edit(./README.md)']);
    expect(path.generateSuggestions({ file_path: '/elsewhere/x/y.txt' }, 'Edit').map(formatPermissionRule)).toEqual(['Edit(/elsewhere/x/**)']);
    expect(path.generateSuggestions({ file_path: '' }, 'Edit')).toEqual([]);
    expect(path.matchRule('**', { file_path: 3 }, new PermissionContext(), PermissionBehavior.DENY)).toBe(false);
    const command = commandRule('command');
    expect(command.generateSuggestions({ command: 'git commit -m "fix bug"' }, 'Bash').map(formatPermissionRule)).toEqual(['Bash(git commit:*)']);
    expect(command.generateSuggestions({ command: 'make' }, 'Bash').map(formatPermissionRule)).toEqual(['Bash(make)']);
    expect(command.generateSuggestions({ command: '  ' }, 'Bash')).toEqual([]);
    await expect(command.matchRule('ls:*', {}, new PermissionContext(), PermissionBehavior.DENY)).resolves.toBe(false);
  });
});
