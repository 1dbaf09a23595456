// dockerode is an optional peer dependency: `agenttoolkit/sandbox` must work where it is not installed.
jest.mock('dockerode', () => {
  throw new Error('dockerode must be loaded only by agenttoolkit/sandbox/docker');
});

describe('agenttoolkit/sandbox entry', () => {
  it('exports the port, policy and local backends without loading dockerode', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const sandbox = require('../../lib/sandbox') as object;
    expect(Object.keys(sandbox).sort()).toEqual(['BindMount', 'BubblewrapSandbox', 'DEFAULT_MAX_OUTPUT_BYTES', 'DEFAULT_TIMEOUT_MS', 'SandboxError', 'SandboxPolicy', 'UnsafeLocalSandbox']);
  });

  it('leaves dockerode to the agenttoolkit/sandbox/docker entry', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(() => require('../../lib/sandbox/docker')).toThrow(/only by agenttoolkit\/sandbox\/docker/);
  });
});
