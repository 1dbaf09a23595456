import Docker from 'dockerode';
import { SandboxPolicy } from '../../../lib/sandbox';
import { DockerSandbox, dockerClient, dockerOptionsFromUrl } from '../../../lib/sandbox/docker';
import { tempDir } from '../helpers';

describe('Docker connection', () => {
  it('parses DOCKER_HOST-style URLs', () => {
    expect(dockerOptionsFromUrl('unix:///run/d.sock')).toEqual({ socketPath: '/run/d.sock' });
    expect(dockerOptionsFromUrl('tcp://engine.example:2375')).toEqual({ protocol: 'http', host: 'engine.example', port: 2375 });
    expect(dockerOptionsFromUrl('tcp://engine.example')).toEqual({ protocol: 'http', host: 'engine.example', port: 2375 });
    expect(dockerOptionsFromUrl('https://engine.example')).toEqual({ protocol: 'https', host: 'engine.example', port: 2376 });
    expect(() => dockerOptionsFromUrl('ftp://x')).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
    expect(() => dockerOptionsFromUrl('not a url')).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
  });

  it('accepts a client, options, a URL, or nothing', () => {
    const client = new Docker({ socketPath: '/x.sock' });
    expect(dockerClient(client)).toBe(client);
    expect(socketOf(dockerClient({ socketPath: '/y.sock' }))).toBe('/y.sock');
    expect(socketOf(dockerClient('unix:///z.sock'))).toBe('/z.sock');
    expect(dockerClient(undefined)).toBeInstanceOf(Docker);
  });

  it('reports an engine that does not answer as ENGINE_UNAVAILABLE, with how to fix it', async () => {
    // A real unreachable engine: a socket path where nothing listens.
    const dir = tempDir();
    try {
      await using sandbox = new DockerSandbox('any:image', new SandboxPolicy(), { connection: `unix://${dir.path}/none.sock` });
      await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('start dockerd') });
    } finally {
      dir.remove();
    }
  });

  it('fails fast on a missing inherited variable, before touching the engine', () => {
    delete process.env.AGENTTOOLKIT_NOT_SET;
    expect(() => new DockerSandbox('img', new SandboxPolicy(), { inheritEnvironment: ['AGENTTOOLKIT_NOT_SET'], connection: 'unix:///nowhere.sock' })).toThrow(expect.objectContaining({ code: 'ENVIRONMENT_MISSING' }));
  });
});

/** docker-modem keeps the socket path it will dial; its typings do not declare it. */
function socketOf(client: Docker): string {
  return (client.modem as unknown as { socketPath: string }).socketPath;
}
