// Start-up and automation files: every entry of the dangerous-path list, with variants (case, `./`, nested folders,
// `..`, links), is a bypass-immune ask for Write, Edit and a Bash redirection, in every mode, on the local disk.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '../../lib';
import { DANGEROUS_PATHS, isDangerousPath, PermissionEngine, PermissionMode, type PermissionDecision } from '../../lib/permissions';
import { bashTool, fileTools, type FileTools } from '../../lib/builtins';
import { SandboxPolicy, UnsafeLocalSandbox } from '../../lib/sandbox';
import { LocalWorkspace } from '../../lib/workspace';

let base: string;
let root: string;
let files: FileTools;
const bash = bashTool({ sandbox: new UnsafeLocalSandbox(new SandboxPolicy()) });

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'startup-files-')));
  root = join(base, 'project');
  mkdirSync(root, { recursive: true });
  files = fileTools({ workspace: new LocalWorkspace(root) });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const engine = (mode: PermissionMode, allow: string[] = []) => new PermissionEngine({ mode, settings: { allow }, workingDirectories: [root], cwd: root });

async function decide(tool: Tool, args: Record<string, unknown>, e: PermissionEngine): Promise<string> {
  const d: PermissionDecision = await e.check(tool, args);
  return `${d.behavior}${d.bypassImmune ? '/immune' : ''}`;
}

/** A path inside each entry: the file itself, or a file in the folder. */
const inside = DANGEROUS_PATHS.map((e) => (e.kind === 'file' ? e.path : `${e.path}/x`));

const NAMED_BY_THE_ISSUE = [
  '.config/git/config', '.husky/pre-commit', '.github/workflows/ci.yml', '.bash_login', '.bash_logout', '.zshenv',
  '.zlogin', '.cshrc', '.config/fish/config.fish', '.config/fish/conf.d/a.fish', '.vimrc', '.config/nvim/init.lua',
  '.config/autostart/x.desktop', '.config/systemd/user/evil.service', '.pam_environment', '.gitconfig',
];
const VARIANTS = [
  './.husky/pre-commit', 'sub/.husky/pre-commit', 'packages/app/.github/workflows/release.yaml', '.HUSKY/pre-commit',
  '.GitHub/Workflows/ci.yml', '.Config/Git/config', 'src/../.zshenv', './x/./../.config/nvim/lua/plugins.lua',
  'home/u/.local/share/systemd/user/t.timer', '.ZLOGIN', '.Vimrc', '.vim/plugin/evil.vim', '.emacs.d/init.el',
];

describe('the list names, for each entry, what reads it and its manual', () => {
  it.each(DANGEROUS_PATHS.map((e) => [e.path, e] as const))('%s', (_, entry) => {
    expect(entry.reason.length).toBeGreaterThan(10);
    expect(entry.readBy).not.toBe('');
    expect(entry.source).toMatch(/^https:\/\//);
    expect(isDangerousPath(entry.kind === 'file' ? entry.path : `${entry.path}/x`)).toBe(true);
  });

  it('ordinary names near the entries stay ordinary', () => {
    for (const path of ['src/husky.ts', '.github/CODEOWNERS', '.github/ISSUE_TEMPLATE/bug.md', '.config/other', 'vimrc.md',
      '.zshenv.bak', 'docs/fish.md', '.config/gitx/config', 'my.gitconfig', 'bashrc-notes/readme.md', '.vimrc.md']) {
      expect([path, isDangerousPath(path)]).toEqual([path, false]);
    }
  });
});

describe('Write, Edit and Bash redirections ask, bypass-immune, in every mode but BYPASS', () => {
  const cases = [...new Set([...inside, ...NAMED_BY_THE_ISSUE, ...VARIANTS])];
  it.each(cases)('%s', async (path) => {
    const calls: Array<[Tool, Record<string, unknown>]> = [
      [files.write, { file_path: path, content: 'x' }],
      [files.edit, { file_path: path, old_string: 'a', new_string: 'b' }],
      [bash, { command: `echo x > '${path}'` }],
      [bash, { command: `printf x >> ${path}` }],
    ];
    for (const [tool, args] of calls) {
      const label = `${tool.name} ${JSON.stringify(args)}`;
      expect([label, await decide(tool, args, engine(PermissionMode.DEFAULT, [tool.name, `${tool.name}(**)`]))]).toEqual([label, 'ask/immune']);
      expect([label, await decide(tool, args, engine(PermissionMode.ACCEPT_EDITS, [tool.name]))]).toEqual([label, 'ask/immune']);
      expect([label, await decide(tool, args, engine(PermissionMode.DONT_ASK, [tool.name]))]).toEqual([label, 'deny']);
      expect([label, await decide(tool, args, engine(PermissionMode.EXPLORE))]).toEqual([label, 'deny']);
      // BYPASS ignores every ask, the bypass-immune one included (see docs/permissions.md).
      expect([label, await decide(tool, args, engine(PermissionMode.BYPASS))]).toEqual([label, 'allow']);
    }
  });

  it('a link with a harmless name that leads to a start-up file or into a hook folder asks', async () => {
    mkdirSync(join(root, '.husky'), { recursive: true });
    mkdirSync(join(root, '.config', 'fish'), { recursive: true });
    writeFileSync(join(root, '.husky', 'pre-commit'), '');
    writeFileSync(join(root, '.zshenv'), '');
    symlinkSync('.husky', join(root, 'hooks'));
    symlinkSync('.zshenv', join(root, 'notes.txt'));
    symlinkSync(join(root, '.config', 'fish'), join(root, 'shell-config'));
    for (const path of ['hooks/pre-commit', 'notes.txt', 'shell-config/config.fish']) {
      for (const [tool, args] of [[files.write, { file_path: path, content: 'x' }], [bash, { command: `echo x > ${path}` }]] as const) {
        expect([path, tool.name, await decide(tool, args, engine(PermissionMode.ACCEPT_EDITS, [tool.name]))]).toEqual([path, tool.name, 'ask/immune']);
      }
    }
  });

  it('an ordinary file in a working directory is still allowed in ACCEPT_EDITS', async () => {
    expect(await decide(files.write, { file_path: 'src/app.ts', content: 'x' }, engine(PermissionMode.ACCEPT_EDITS))).toBe('allow');
    expect(await decide(files.write, { file_path: '.github/CODEOWNERS', content: 'x' }, engine(PermissionMode.ACCEPT_EDITS))).toBe('allow');
  });
});
