import { BindMount, SandboxPolicy } from '../../../lib/sandbox';
import { containerPathOf, planContainerMounts } from '../../../lib/sandbox/docker/container-mounts';

describe('planContainerMounts', () => {
  it('puts the workspace at /workspace and other paths under /mnt, explicit mounts last', () => {
    const policy = SandboxPolicy.forWorkspace('/ws', { readablePaths: ['/data'], writablePaths: ['/ws/out', '/cache'] });
    const mounts = planContainerMounts(policy, [BindMount.readWrite('/o', '/output')]);
    expect(mounts).toEqual([
      { source: '/ws', target: '/workspace', readOnly: true },
      { source: '/data', target: '/mnt/data', readOnly: true },
      { source: '/ws/out', target: '/workspace/out', readOnly: false },
      { source: '/cache', target: '/mnt/cache', readOnly: false },
      { source: '/o', target: '/output', readOnly: false },
    ]);
  });

  it('skips paths already covered with the same or a stronger mode, keeps stronger nested ones', () => {
    const policy = SandboxPolicy.forWorkspace('/ws', { writable: true, readablePaths: ['/ws/docs', '/r', '/r/sub'], writablePaths: ['/r/sub/w'] });
    expect(planContainerMounts(policy, [])).toEqual([
      { source: '/ws', target: '/workspace', readOnly: false },
      { source: '/r', target: '/mnt/r', readOnly: true },
      { source: '/r/sub/w', target: '/mnt/r/sub/w', readOnly: false },
    ]);
  });

  it('binds a working directory inside a readable path at /workspace too', () => {
    const policy = new SandboxPolicy({ workingDirectory: '/home/u/proj', readablePaths: ['/home/u'] });
    const mounts = planContainerMounts(policy, []);
    expect(mounts).toEqual([
      { source: '/home/u/proj', target: '/workspace', readOnly: true },
      { source: '/home/u', target: '/mnt/home/u', readOnly: true },
    ]);
    expect(containerPathOf('/home/u/proj/src', mounts)).toBe('/workspace/src');
    expect(containerPathOf('/home/u/other', mounts)).toBe('/mnt/home/u/other');
  });

  it('refuses an explicit mount on a generated or repeated target', () => {
    const policy = SandboxPolicy.forWorkspace('/ws');
    expect(() => planContainerMounts(policy, [BindMount.readOnly('/x', '/workspace')])).toThrow(expect.objectContaining({ code: 'MOUNT_INVALID' }));
    expect(() => planContainerMounts(policy, [BindMount.readOnly('/x', '/a'), BindMount.readOnly('/y', '/a')])).toThrow(/used twice/);
  });

  it('maps host paths through the deepest mount, or refuses', () => {
    const mounts = planContainerMounts(new SandboxPolicy(), [BindMount.readOnly('/a', '/in'), BindMount.readWrite('/a/b', '/deep')]);
    expect(containerPathOf('/a/b/c', mounts)).toBe('/deep/c');
    expect(containerPathOf('/a/x', mounts)).toBe('/in/x');
    expect(() => containerPathOf('/elsewhere', mounts)).toThrow(expect.objectContaining({ code: 'CWD_INVALID' }));
  });
});
