import type Docker from 'dockerode';
import { quoted, SandboxError } from '../errors';

/**
 * Loads dockerode on first use: it is an optional peer dependency (4 or 5, both CommonJS, so `require` loads either),
 * so importing `agenttoolkit/sandbox/docker` without it installed fails only when a sandbox is built, and with a
 * message saying what to install.
 * @throws SandboxError `ENGINE_UNAVAILABLE` when dockerode cannot be loaded.
 */
export function loadDockerode(): typeof Docker {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
    return require('dockerode') as typeof Docker;
  } catch (error) {
    throw new SandboxError('ENGINE_UNAVAILABLE', "DockerSandbox needs the optional peer dependency 'dockerode': npm install dockerode (and @types/dockerode for its types).", { cause: error });
  }
}

/**
 * Where the Docker engine is: a ready `Docker` client, dockerode's connection options (socket path, or a remote
 * engine's `host`/`port`/`protocol` with TLS `ca`/`cert`/`key`), or a `DOCKER_HOST`-style URL
 * (`unix:///var/run/docker.sock`, `tcp://host:2376`, `https://host:2376`). Default: dockerode's own default, read
 * from the host process's environment (`DOCKER_HOST`, `DOCKER_TLS_VERIFY`, `DOCKER_CERT_PATH`, else
 * `/var/run/docker.sock`); a sandbox's policy or call environment never reaches it.
 */
export type DockerConnection = Docker | Docker.DockerOptions | string;

/**
 * Builds the dockerode client for a {@link DockerConnection}. Pointing the same sandbox code at a remote engine is
 * a matter of passing its host and TLS files here.
 *
 * @throws SandboxError `OPTIONS_INVALID` for a URL with an unsupported scheme (only `unix:`, `tcp:`, `http:` and
 *   `https:`); `ENGINE_UNAVAILABLE` when dockerode is not installed.
 */
export function dockerClient(connection: DockerConnection | undefined): Docker {
  const Docker = loadDockerode();
  if (connection instanceof Docker) return connection;
  if (typeof connection === 'string') return new Docker(dockerOptionsFromUrl(connection));
  return new Docker(connection);
}

/**
 * Parses a `DOCKER_HOST`-style URL into dockerode options. `tcp:` means plain HTTP, as in the Docker CLI without
 * TLS; use `https:` (and pass `ca`/`cert`/`key` through options) for a TLS-protected remote engine.
 *
 * @throws SandboxError `OPTIONS_INVALID` for another scheme or a malformed URL.
 */
export function dockerOptionsFromUrl(url: string): Docker.DockerOptions {
  if (url.startsWith('unix://')) return { socketPath: url.slice('unix://'.length) };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new SandboxError('OPTIONS_INVALID', `Docker host ${quoted(url)} is not a URL: use unix:///path/docker.sock, tcp://host:port or https://host:port.`, { cause });
  }
  const protocol = ({ 'tcp:': 'http', 'http:': 'http', 'https:': 'https' } as const)[parsed.protocol as 'tcp:' | 'http:' | 'https:'];
  if (protocol === undefined) throw new SandboxError('OPTIONS_INVALID', `Unsupported Docker host ${quoted(url)}: use unix://, tcp://, http:// or https://.`);
  return { protocol, host: parsed.hostname, port: parsed.port === '' ? (protocol === 'https' ? 2376 : 2375) : Number(parsed.port) };
}
