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

  it('loads dockerode only when a Docker client is built, and says what to install when it is missing', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const docker = require('../../lib/sandbox/docker') as typeof import('../../lib/sandbox/docker');
    expect(() => docker.dockerClient(undefined)).toThrow(expect.objectContaining({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('npm install dockerode') }));
  });
});
