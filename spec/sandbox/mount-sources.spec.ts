import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BindMount, BubblewrapSandbox, SandboxPolicy } from '../../lib/sandbox';
import { pinMountSources } from '../../lib/sandbox/mount-plan';
import { describeWithEngine, tempDir } from './helpers';

/**
 * A launcher resolves every mount source on the host at each launch. Demonstrated before the fix: with a writable
 * workspace and `BindMount.readOnly('<ws>/cfg', '/config')`, call 1 replaced `cfg` with a link to a host folder,
 * and call 2 read that folder's secret at `/config`. The same with a readable path two levels inside a writable one
 * (rename the folder on its way, plant a link), where bwrap's mount point only protects the last component.
 */
describeWithEngine('bwrap', 'BubblewrapSandbox: a command cannot steer what the next launch binds', () => {
  let dir: ReturnType<typeof tempDir>;
  let ws: string;
  let secret: string;
  beforeEach(() => {
    dir = tempDir();
    ws = join(dir.path, 'ws');
    secret = join(dir.path, 'secret');
    mkdirSync(ws);
    mkdirSync(secret);
    writeFileSync(join(secret, 'key'), 'TOPSECRET');
  });
  afterEach(() => dir.remove());

  /** Runs `first` (the attack's set-up), then `second`; returns both outcomes. Nothing may read the secret. */
  const twoCalls = async (sandbox: BubblewrapSandbox, first: string, second: string): Promise<PromiseSettledResult<string>[]> => {
    const outcomes = [];
    for (const command of [first, second]) {
      outcomes.push(
        await sandbox.execute(command).then(
          (r) => ({ status: 'fulfilled' as const, value: r.stdout + r.stderr }),
          (e: unknown) => ({ status: 'rejected' as const, reason: e }),
        ),
      );
    }
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') expect(outcome.value).not.toContain('TOPSECRET');
    return outcomes;
  };

  it('refuses a BindMount whose source lies inside a writable path, before any command runs (demonstrated attack)', async () => {
    mkdirSync(join(ws, 'cfg'));
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(ws, { writable: true }), { mounts: [BindMount.readOnly(join(ws, 'cfg'), '/config')] });
    const outcomes = await twoCalls(sandbox, `rm -rf cfg && ln -s ${secret} cfg && touch planted`, 'cat /config/key');
    expect(outcomes).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ code: 'MOUNT_INVALID', message: expect.stringContaining('inside the writable path') }) },
      { status: 'rejected', reason: expect.objectContaining({ code: 'MOUNT_INVALID' }) },
    ]);
    expect(existsSync(join(ws, 'planted'))).toBe(false);
  });

  it('refuses a readable path two levels inside a writable one (rename the folder on its way, plant a link)', async () => {
    mkdirSync(join(ws, 'a', 'b'), { recursive: true });
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(ws, { writable: true, readablePaths: [join(ws, 'a', 'b')] }));
    const outcomes = await twoCalls(sandbox, `mv a a2 && mkdir a && ln -s /tmp a/b`, `ls ${join(ws, 'a', 'b')}`);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(existsSync(join(ws, 'a2'))).toBe(false);
  });

  it('refuses a path spelled outside every writable path whose real path lies inside one', async () => {
    mkdirSync(join(ws, 'inner'));
    symlinkSync(join(ws, 'inner'), join(dir.path, 'alias'));
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(ws, { writable: true, readablePaths: [join(dir.path, 'alias')] }));
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'MOUNT_INVALID' });
  });

  it('refuses a source that an earlier session already replaced with a link to a host folder', async () => {
    symlinkSync(secret, join(ws, 'cfg'));
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(ws, { writable: true }), { mounts: [BindMount.readOnly(join(ws, 'cfg'), '/config')] });
    await expect(sandbox.execute('cat /config/key')).rejects.toMatchObject({ code: 'MOUNT_INVALID' });
  });

  it('still accepts a writable path inside a writable one (redundant: dropped) and a read-only one beside it', async () => {
    mkdirSync(join(ws, 'out'));
    const data = join(dir.path, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'd.txt'), 'data');
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(ws, { writable: true, writablePaths: [join(ws, 'out')], readablePaths: [data] }));
    const result = await sandbox.execute(`echo hi > out/x && cat ${data}/d.txt && touch ${data}/no 2>/dev/null || echo read-only`);
    expect(result.stdout).toBe('dataread-only\n');
    expect(readFileSync(join(ws, 'out', 'x'), 'utf8')).toBe('hi\n');
  });

  it('binds a linked source by its real path, so later changes to the link do not reach the sandbox', async () => {
    const [one, two] = [join(dir.path, 'one'), join(dir.path, 'two')];
    mkdirSync(one);
    mkdirSync(two);
    writeFileSync(join(one, 'f'), 'one');
    writeFileSync(join(two, 'f'), 'two');
    const link = join(dir.path, 'link');
    symlinkSync(one, link);
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(ws, { readablePaths: [link] }));
    expect((await sandbox.execute(`cat ${link}/f`)).stdout).toBe('one');
    expect(pinMountSources([{ source: link, target: link, readOnly: true }])).toEqual([{ source: one, target: link, readOnly: true }]);
  });
});

describe('pinMountSources', () => {
  it('refuses a source it cannot resolve (a link loop)', () => {
    const dir = tempDir();
    try {
      symlinkSync(join(dir.path, 'loop'), join(dir.path, 'loop'));
      expect(() => pinMountSources([{ source: join(dir.path, 'loop'), target: '/x', readOnly: true }])).toThrow(expect.objectContaining({ code: 'MOUNT_INVALID' }));
    } finally {
      dir.remove();
    }
  });
});
