// The file tools through the real permission engine and runToolCalls, on the local disk (links need the host).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT_STATE,
  approvalOf,
  ToolContext,
  Tools,
  runToolCalls,
  type Tool,
} from '../../../lib';
import {
  PermissionBehavior,
  PermissionEngine,
  PermissionMode,
  formatPermissionRule,
  type PermissionDecision,
} from '../../../lib/permissions';
import { LocalWorkspace } from '../../../lib/workspace';
import { fileTools, type FileTools } from '../../../lib/builtins';

let base: string;
let root: string;
let files: FileTools;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-perm-')));
  root = join(base, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'a');
  files = fileTools({ workspace: new LocalWorkspace(root), credentialPaths: { files: ['secrets.json'], directories: ['vault'] } });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function engine(mode: PermissionMode, settings: { allow?: string[]; deny?: string[]; ask?: string[] } = {}, cwd = root): PermissionEngine {
  return new PermissionEngine({ mode, settings, workingDirectories: [root], cwd });
}

async function decide(tool: Tool, args: Record<string, unknown>, e: PermissionEngine): Promise<string> {
  const d: PermissionDecision = await e.check(tool, args);
  return `${d.behavior}/${d.reason.type}${d.bypassImmune ? '/immune' : ''}`;
}

const CREDENTIALS = [
  '.env', '.env.local', 'sub/.ENV.production', './x/../.env', '.envrc', '.ssh/id_rsa', '.SSH/id_ed25519', '.aws/credentials',
  '.config/gcloud/application_default_credentials.json', '.azure/msal_token_cache.json', '.kube/config',
  '.docker/config.json', '.netrc', '.npmrc', '.pypirc', '.git-credentials', 'deep/er/.npmrc',
  'secrets.json', 'vault/key', // user additions
];
const ORDINARY = ['src/a.ts', '.envelope', 'my.env', 'src/env.ts', '.sshd/x', 'environment.md', '.config/other', 'kube/config', 'docker/config.json'];

describe('Read: credential paths ask (not bypass-immune), everything else is read-only', () => {
  it.each(CREDENTIALS)('%s', async (path) => {
    expect(await decide(files.read, { file_path: path }, engine(PermissionMode.DEFAULT))).toBe('ask/tool');
    expect(await decide(files.read, { file_path: path }, engine(PermissionMode.EXPLORE))).toBe('deny/mode');
    expect(await decide(files.read, { file_path: path }, engine(PermissionMode.DONT_ASK))).toBe('deny/tool');
    expect(await decide(files.read, { file_path: path }, engine(PermissionMode.BYPASS))).toBe('allow/mode');
    expect(await decide(files.read, { file_path: path }, engine(PermissionMode.DEFAULT, { allow: ['Read(**)'] }))).toBe('allow/rule');
  });

  it.each(ORDINARY)('%s', async (path) => {
    for (const mode of Object.values(PermissionMode)) {
      expect(await decide(files.read, { file_path: path }, engine(mode))).toBe('allow/read_only');
    }
  });

  it('follows links: a harmless name leading to a credential file, or into a credential folder, asks', async () => {
    mkdirSync(join(root, '.ssh'));
    writeFileSync(join(root, '.ssh', 'id_rsa'), 'KEY');
    writeFileSync(join(root, '.env'), 'SECRET=1');
    symlinkSync('.env', join(root, 'notes.txt'));
    symlinkSync('.ssh', join(root, 'cfg'));
    symlinkSync(join(root, '.ssh', 'id_rsa'), join(root, 'src', 'key.pem'));
    symlinkSync('loop', join(root, 'loop'));
    for (const path of ['notes.txt', 'cfg/id_rsa', 'src/key.pem', 'loop/x']) {
      expect([path, await decide(files.read, { file_path: path }, engine(PermissionMode.DEFAULT))]).toEqual([path, 'ask/tool']);
    }
  });

  it('suggests an allow rule that covers the call', async () => {
    const d = await engine(PermissionMode.DEFAULT).check(files.read, { file_path: '.aws/credentials' });
    expect(d.suggestions.map(formatPermissionRule)).toEqual(['Read(.aws/**)']);
  });
});

describe('Glob: a search aimed at credentials asks', () => {
  it.each([
    [{ pattern: '**/.env*' }], [{ pattern: '.ssh/*' }], [{ pattern: '**/.AWS/**' }], [{ pattern: '*', path: '.ssh' }],
    [{ pattern: '**/credentials', path: '.aws' }], [{ pattern: '**/gcloud/**' }], [{ pattern: '**/secrets.json' }], [{ pattern: '**/.e\\nv' }],
  ])('%j', async (args) => {
    expect(await decide(files.glob, args, engine(PermissionMode.DEFAULT))).toBe('ask/tool');
    expect(await decide(files.glob, args, engine(PermissionMode.BYPASS))).toBe('allow/mode');
  });

  it.each([[{ pattern: '**/*.ts' }], [{ pattern: '*', path: 'src' }], [{ pattern: 'src/environment/*' }]])('%j is read-only', async (args) => {
    expect(await decide(files.glob, args, engine(PermissionMode.EXPLORE))).toBe('allow/read_only');
  });

  it('judges the folder through its links, and fails closed when they cannot be resolved', async () => {
    mkdirSync(join(root, '.aws'));
    symlinkSync('.aws', join(root, 'cloud'));
    symlinkSync('loop', join(root, 'loop'));
    expect(await decide(files.glob, { pattern: '**/credentials', path: 'cloud' }, engine(PermissionMode.DEFAULT))).toBe('ask/tool');
    expect(await decide(files.glob, { pattern: '*', path: 'loop/x' }, engine(PermissionMode.DEFAULT))).toBe('ask/tool');
    expect(files.glob.checkReadOnly({ path: 'src' })).toBe(true);
  });

  it('a project whose own root sits under a credential-like name still globs freely inside', async () => {
    const nested = join(base, '.docker-projects', 'app');
    const tools = fileTools({ workspace: new LocalWorkspace(nested) });
    expect(await decide(tools.glob, { pattern: '**/*.ts' }, engine(PermissionMode.DEFAULT, {}, nested))).toBe('allow/read_only');
    expect(await decide(tools.glob, { pattern: '**/.docker/*' }, engine(PermissionMode.DEFAULT, {}, nested))).toBe('ask/tool');
  });

  it('a path rule judges the folder searched', async () => {
    expect(await decide(files.glob, { pattern: '*' , path: 'src' }, engine(PermissionMode.DEFAULT, { deny: ['Glob(src/**)'] }))).toBe('deny/rule');
    // From the root the rule may reach listed files: without the engine the tool cannot leave them out, so it denies;
    // with it, the call runs and the files are left out (spec/builtins/files/multi-file-rules.spec.ts).
    expect(await decide(files.glob, { pattern: '*' }, engine(PermissionMode.DEFAULT, { deny: ['Glob(src/**)'] }))).toBe('deny/rule');
    const denying = engine(PermissionMode.DEFAULT, { deny: ['Glob(src/**)'] });
    const filtering = fileTools({ workspace: new LocalWorkspace(root), engine: denying });
    expect(await decide(filtering.glob, { pattern: '*' }, denying)).toBe('allow/read_only');
    expect(await decide(filtering.glob, { pattern: '*', path: 'docs' }, denying)).toBe('allow/read_only');
    const d = await engine(PermissionMode.DEFAULT).check(files.glob, { pattern: '*', path: '.ssh' });
    expect(d.suggestions.map(formatPermissionRule)).toEqual(['Glob(.ssh/**)']);
  });
});

const DANGEROUS = [
  '.bashrc', '.zshrc', '.profile', '.gitconfig', '.gitmodules', '.git/config', '.git/hooks/pre-commit', '.vscode/settings.json',
  '.idea/workspace.xml', '.ssh/authorized_keys', '.ssh/config', '.env', '.env.production', '.npmrc', '.aws/credentials',
  '.kube/config', 'sub/.BASHRC', 'src/../.bashrc', 'secrets.json',
];

describe('Write and Edit: dangerous and credential paths ask, bypass-immune', () => {
  it.each(DANGEROUS)('%s', async (path) => {
    for (const tool of [files.write, files.edit]) {
      const args = tool === files.write ? { file_path: path, content: 'x' } : { file_path: path, old_string: 'a', new_string: 'b' };
      expect(await decide(tool, args, engine(PermissionMode.DEFAULT, { allow: [`${tool.name}(**)`, tool.name] }))).toBe('ask/tool/immune');
      expect(await decide(tool, args, engine(PermissionMode.ACCEPT_EDITS))).toBe('ask/tool/immune');
      expect(await decide(tool, args, engine(PermissionMode.DONT_ASK, { allow: [tool.name] }))).toBe('deny/tool');
    }
  });

  it('a link with a harmless name leading to a start-up file is dangerous', async () => {
    writeFileSync(join(root, '.bashrc'), '');
    symlinkSync('.bashrc', join(root, 'notes.sh'));
    expect(await decide(files.write, { file_path: 'notes.sh', content: 'x' }, engine(PermissionMode.ACCEPT_EDITS))).toBe('ask/tool/immune');
  });
});

describe('Write and Edit: modes, working directories and path rules', () => {
  const write = (path: string) => ({ file_path: path, content: 'x' });

  it('ACCEPT_EDITS allows inside a working directory only; DEFAULT asks; EXPLORE denies', async () => {
    expect(await decide(files.write, write('src/new.ts'), engine(PermissionMode.ACCEPT_EDITS))).toBe('allow/tool');
    expect(await decide(files.edit, { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }, engine(PermissionMode.ACCEPT_EDITS))).toBe('allow/tool');
    expect(await decide(files.write, write('src/new.ts'), engine(PermissionMode.DEFAULT))).toBe('ask/default');
    expect(await decide(files.write, write('src/new.ts'), engine(PermissionMode.EXPLORE))).toBe('deny/mode');
    const elsewhere = new PermissionEngine({ mode: PermissionMode.ACCEPT_EDITS, workingDirectories: [join(base, 'other')], cwd: root });
    expect(await decide(files.write, write('src/new.ts'), elsewhere)).toBe('ask/default');
    // The sibling-prefix trap: <root>-evil is not inside <root>.
    const sibling = new PermissionEngine({ mode: PermissionMode.ACCEPT_EDITS, workingDirectories: [`${root}/sr`], cwd: root });
    expect(await decide(files.write, write('src/new.ts'), sibling)).toBe('ask/default');
  });

  it('ACCEPT_EDITS does not allow a write through a link that leads out of the working directory', async () => {
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(base, 'outside'), join(root, 'out'));
    expect(await decide(files.write, write('out/x.ts'), engine(PermissionMode.ACCEPT_EDITS))).toBe('ask/default');
  });

  it('rules match the canonical absolute path; relative patterns resolve against the context cwd', async () => {
    expect(await decide(files.write, write('src/x.ts'), engine(PermissionMode.DEFAULT, { allow: ['Write(src/**)'] }))).toBe('allow/rule');
    expect(await decide(files.write, write('./src/../src/x.ts'), engine(PermissionMode.DEFAULT, { allow: ['Write(src/**)'] }))).toBe('allow/rule');
    expect(await decide(files.write, write(`${root}/src/x.ts`), engine(PermissionMode.DEFAULT, { allow: [`Write(${root}/src/**)`] }))).toBe('allow/rule');
    expect(await decide(files.write, write('docs/x.md'), engine(PermissionMode.DEFAULT, { allow: ['Write(src/**)'] }))).toBe('ask/default');
    expect(await decide(files.write, write('src/../docs/x.md'), engine(PermissionMode.DEFAULT, { allow: ['Write(src/**)'] }))).toBe('ask/default');
    // cwd elsewhere: `src/**` now means <cwd>/src, which the tool's root-relative path is not.
    const cwd = join(base, 'elsewhere');
    expect(await decide(files.write, write('src/x.ts'), engine(PermissionMode.DEFAULT, { allow: ['Write(src/**)'] }, cwd))).toBe('ask/default');
    expect(await decide(files.write, write('src/x.ts'), engine(PermissionMode.DEFAULT, { allow: ['Write(../project/src/**)'] }, cwd))).toBe('allow/rule');
    expect(await decide(files.read, { file_path: 'src/a.ts' }, engine(PermissionMode.DEFAULT, { deny: ['Read(src/**)'] }))).toBe('deny/rule');
    expect(await decide(files.edit, { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }, engine(PermissionMode.DEFAULT, { ask: ['Edit(**/*.ts)'] }))).toBe('ask/rule');
  });

  it('a deny rule catches a path that reaches the denied folder through a link; an allow rule does not cover a link out', async () => {
    mkdirSync(join(root, 'secret'));
    writeFileSync(join(root, 'secret', 'k'), 'k');
    symlinkSync('../secret', join(root, 'src', 'alias'));
    expect(await decide(files.read, { file_path: 'src/alias/k' }, engine(PermissionMode.DEFAULT, { deny: ['Read(secret/**)'] }))).toBe('deny/rule');
    expect(await decide(files.write, write('src/alias/k'), engine(PermissionMode.DEFAULT, { allow: ['Write(src/**)'] }))).toBe('ask/default');
  });

  it('suggests the folder rule, escaped', async () => {
    const d = await engine(PermissionMode.DEFAULT).check(files.write, write('app/[id]/page.ts'));
    expect(d.suggestions.map(formatPermissionRule)).toEqual(['Write(app/\\[id\\]/**)']);
    expect(files.write.generateSuggestions({}, undefined)).toEqual([]);
    expect(files.write.matchRule('**', {}, engine(PermissionMode.DEFAULT).context, PermissionBehavior.DENY)).toBe(false);
  });
});

describe('runToolCalls with the engine', () => {
  it('reads run together, a credential read and an unapproved write wait, then the approved write lands', async () => {
    writeFileSync(join(root, '.env'), 'SECRET=1');
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(files.read, files.write, files.edit, files.glob);
    const e = engine(PermissionMode.DEFAULT, { allow: ['Edit(src/**)'] });
    const calls = [
      { id: 'r1', name: 'Read', args: { file_path: 'src/a.ts' } },
      { id: 'g1', name: 'Glob', args: { pattern: '**/*.ts' } },
      { id: 'e1', name: 'Edit', args: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } },
      { id: 'r2', name: 'Read', args: { file_path: '.env' } },
      { id: 'w1', name: 'Write', args: { file_path: 'docs/x.md', content: 'y' } },
    ];
    const first = await runToolCalls(tools, calls, { engine: e });
    expect(first.ran.map((r) => [r.call.id, r.result.ok, r.decision?.reason.type])).toEqual([
      ['r1', true, 'read_only'], ['g1', true, 'read_only'], ['e1', true, 'rule'],
    ]);
    expect(first.waiting.map((w) => [w.call.id, w.reason])).toEqual([['r2', 'approval'], ['w1', 'queued']]);
    const second = await runToolCalls(tools, first.waiting.map((w) => w.call), { engine: e, approved: [approvalOf(tools.get('Read')!, calls[3]!), approvalOf(tools.get('Write')!, calls[4]!)] });
    expect(second.ran.map((r) => [r.call.id, r.result.ok])).toEqual([['r2', true], ['w1', true]]);
    expect(second.ran[0]!.result.result).toBe('     1\tSECRET=1');
    expect(await new LocalWorkspace(root).readFile('docs/x.md')).toBe('y');
    expect(await new LocalWorkspace(root).readFile('src/a.ts')).toBe('b');
  });
});
