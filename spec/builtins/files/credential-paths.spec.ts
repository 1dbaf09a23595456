import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinToolError, ReadTool, CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES, fileTools, isCredentialPath, isCredentialPathResolved } from '../../../lib/builtins';
import { WorkspacePaths } from '../../../lib/builtins/files/workspace-paths';
import { LocalWorkspace, type Workspace } from '../../../lib/workspace';

describe('isCredentialPath (as written)', () => {
  it.each([
    '.env', '/home/u/.env', '.env.local', 'a/.env.production', '.ENV', '.Env.Local', 'C:\\Users\\u\\.env', '.envrc',
    '/home/u/.ssh/id_rsa', '.ssh', '.ssh/', '.ssh/known_hosts', 'x/.SSH/config', '/root/.netrc', '.npmrc', '.pypirc',
    '.git-credentials', '/home/u/.aws/credentials', '.aws/config', '/home/u/.config/gcloud/credentials.db',
    '.config/gcloud', '.azure/accessTokens.json', '.kube/config', '.docker/config.json', '.gnupg/private-keys-v1.d/x',
    './a/../.env',
  ])('%s is a credential path', (path) => expect(isCredentialPath(path)).toBe(true));

  it.each([
    '', '.', 'src/env.ts', 'my.env', '.envelope', 'docs/.environment', '.env-example/x.ts', '.sshd/config',
    'ssh/id_rsa', 'aws/credentials', '.config/other', 'kube/config', '.kube/config.bak', 'docker/config.json', 'gcloud/x',
    'credentials', 'config',
  ])('%s is not', (path) => expect(isCredentialPath(path)).toBe(false));

  it('takes user additions, as suffixes and folders', () => {
    const options = { files: ['secrets.json', 'deploy/key.pem'], directories: ['vault'] };
    expect(isCredentialPath('a/secrets.json', options)).toBe(true);
    expect(isCredentialPath('x/deploy/key.pem', options)).toBe(true);
    expect(isCredentialPath('key.pem', options)).toBe(false);
    expect(isCredentialPath('vault/any/thing', options)).toBe(true);
    expect(isCredentialPath('vaults/x', options)).toBe(false);
    expect(isCredentialPath('x', { files: [''], directories: [''] })).toBe(false);
  });

  it('exposes frozen lists', () => {
    expect(Object.isFrozen(CREDENTIAL_FILES) && Object.isFrozen(CREDENTIAL_DIRECTORIES)).toBe(true);
  });
});

describe('isCredentialPathResolved (links followed)', () => {
  let dir: string;
  beforeEach(() => { dir = realpathSync(mkdtempSync(join(tmpdir(), 'cred-'))); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sees through file links, folder links, link chains and `..` after a link; fails closed on loops', () => {
    mkdirSync(join(dir, '.aws'));
    writeFileSync(join(dir, '.aws', 'credentials'), 'k');
    mkdirSync(join(dir, 'deep', 'sub'), { recursive: true });
    symlinkSync('.aws/credentials', join(dir, 'notes.txt'));
    symlinkSync('notes.txt', join(dir, 'chain.txt'));
    symlinkSync('.aws', join(dir, 'cloud'));
    symlinkSync(join(dir, '.aws'), join(dir, 'deep', 'abs'));
    symlinkSync('x', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'x'));
    for (const path of ['notes.txt', 'chain.txt', 'cloud/credentials', 'deep/abs/credentials', 'loop-a', join(dir, 'x')]) {
      expect([path, isCredentialPathResolved(path, dir)]).toEqual([path, true]);
    }
    expect(isCredentialPathResolved('deep/sub/file.txt', dir)).toBe(false);
    expect(isCredentialPathResolved('missing/new.txt', dir)).toBe(false);
  });
});

describe('file tool options', () => {
  it('needs an absolute root: from the workspace or given', () => {
    const bare = { readFile: jest.fn() } as unknown as Workspace;
    expect(() => fileTools({ workspace: bare })).toThrow(BuiltinToolError);
    expect(() => fileTools({ workspace: bare, root: 'relative/root' })).toThrow(/absolute root/);
    expect(() => fileTools({ workspace: bare, root: '/a\0b' })).toThrow(expect.objectContaining({ code: 'INVALID_BUILTIN_OPTION' }));
    expect(() => fileTools({ workspace: { root: 42 } as unknown as Workspace })).toThrow(/got number/);
    const paths = new WorkspacePaths(bare, '/srv/app/');
    expect(paths.root).toBe('/srv/app');
    expect(new WorkspacePaths(bare, '/').absolute('a')).toBe('/a');
    expect(paths.forWorkspace('/srv/app')).toBe('.');
    expect(paths.display('/srv/app')).toBe('.');
    expect(paths.forWorkspace('/etc/x')).toBe('/etc/x');
    expect(paths.display('../x')).toBe('/srv/x');
  });

  it('keeps each tool its built-in name in fileTools, and takes a name when built alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'names-'));
    try {
      const workspace = new LocalWorkspace(dir);
      const tools = fileTools({ workspace });
      expect([tools.read.name, tools.write.name, tools.edit.name, tools.glob.name]).toEqual(['Read', 'Write', 'Edit', 'Glob']);
      expect(new ReadTool({ workspace, name: 'read_file' }).name).toBe('read_file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
