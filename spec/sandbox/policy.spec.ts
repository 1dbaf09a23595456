import { resolve } from 'node:path';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, SandboxError, SandboxPolicy } from '../../lib/sandbox';

describe('SandboxPolicy', () => {
  it('has the documented defaults: no paths, no network, empty environment, 60 s timeout, 1 MiB output, no resource limits', () => {
    const policy = new SandboxPolicy();
    expect(policy).toMatchObject({ workingDirectory: undefined, readablePaths: [], writablePaths: [], enableNetworkAccess: false, environment: {} });
    expect(policy.limits).toEqual({ timeoutMs: DEFAULT_TIMEOUT_MS, maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES });
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(1024 * 1024);
  });

  it('resolves and de-duplicates paths, and adds the working directory to the readable paths unless inside one', () => {
    const policy = new SandboxPolicy({ workingDirectory: 'work', readablePaths: ['data', './data', '/r'], writablePaths: ['/w', '/w/'] });
    expect(policy.workingDirectory).toBe(resolve('work'));
    expect(policy.readablePaths).toEqual([resolve('data'), '/r', resolve('work')]);
    expect(policy.writablePaths).toEqual(['/w']);
    expect(new SandboxPolicy({ workingDirectory: '/r/sub', readablePaths: ['/r'] }).readablePaths).toEqual(['/r']);
  });

  it('keeps explicit limits and is immutable', () => {
    const policy = new SandboxPolicy({ limits: { timeoutMs: 5, maxOutputBytes: 10, memoryBytes: 1 << 20, pids: 8, cpus: 0.5 }, environment: { A: '1' } });
    expect(policy.limits).toEqual({ timeoutMs: 5, maxOutputBytes: 10, memoryBytes: 1 << 20, pids: 8, cpus: 0.5 });
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.limits)).toBe(true);
    expect(Object.isFrozen(policy.environment)).toBe(true);
    expect(Object.isFrozen(policy.readablePaths)).toBe(true);
  });

  it.each([
    ['timeoutMs', 0],
    ['timeoutMs', -1],
    ['timeoutMs', 1.5],
    ['maxOutputBytes', Number.NaN],
    ['memoryBytes', 0],
    ['pids', Number.POSITIVE_INFINITY],
    ['cpus', 0],
  ])('refuses a non-positive or malformed %s (%p)', (name, value) => {
    expect(() => new SandboxPolicy({ limits: { [name]: value } })).toThrow(expect.objectContaining({ code: 'POLICY_INVALID', message: expect.stringContaining(name) }));
  });

  it('accepts fractional cpus', () => {
    expect(new SandboxPolicy({ limits: { cpus: 1.5 } }).limits.cpus).toBe(1.5);
  });

  it.each([
    [{ '': 'x' }, 'invalid variable name'],
    [{ 'A=B': 'x' }, 'invalid variable name'],
    [{ 'A\0': 'x' }, 'invalid variable name'],
    [{ A: 'x\0y' }, 'value of "A"'],
  ])('refuses environment %p', (environment, message) => {
    const error = captureError(() => new SandboxPolicy({ environment }));
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ code: 'POLICY_INVALID', message: expect.stringContaining(message) });
    expect(error.message).not.toContain('x\0y');
  });

  it('refuses empty paths', () => {
    expect(() => new SandboxPolicy({ readablePaths: [''] })).toThrow(expect.objectContaining({ code: 'POLICY_INVALID' }));
    expect(() => new SandboxPolicy({ workingDirectory: 'a\0b' })).toThrow(expect.objectContaining({ code: 'POLICY_INVALID' }));
  });

  describe('forWorkspace', () => {
    it('makes the root the working directory, readable, and writable only when asked', () => {
      const readOnly = SandboxPolicy.forWorkspace('/srv/ws');
      expect(readOnly).toMatchObject({ workingDirectory: '/srv/ws', readablePaths: ['/srv/ws'], writablePaths: [], enableNetworkAccess: false });
      const writable = SandboxPolicy.forWorkspace('/srv/ws', { writable: true, enableNetworkAccess: true, writablePaths: ['/out'], limits: { pids: 3 } });
      expect(writable).toMatchObject({ writablePaths: ['/srv/ws', '/out'], enableNetworkAccess: true });
      expect(writable.limits.pids).toBe(3);
    });
  });

  it('tells whether a path is inside its readable or writable paths', () => {
    const policy = new SandboxPolicy({ readablePaths: ['/r'], writablePaths: ['/w/'] });
    expect(policy.allows('/r')).toBe(true);
    expect(policy.allows('/r/x')).toBe(true);
    expect(policy.allows('/w/x')).toBe(true);
    expect(policy.allows('/rx')).toBe(false);
  });
});

function captureError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}
