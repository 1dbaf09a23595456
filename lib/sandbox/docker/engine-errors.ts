import { quoted, SandboxError } from '../errors';

/**
 * Turns a dockerode failure into a {@link SandboxError}: unreachable engine or missing image -> `ENGINE_UNAVAILABLE`,
 * anything else -> `ENGINE_FAILED`, keeping the engine's error as `cause`.
 *
 * @param doing - what was attempted, for the message ("create the container").
 */
export function engineError(cause: unknown, doing: string, image: string): SandboxError {
  const error = cause as { code?: string; statusCode?: number; message?: string };
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT' || error.code === 'EACCES' || error.code === 'ENOTFOUND') {
    return new SandboxError('ENGINE_UNAVAILABLE', `Docker engine unreachable while trying to ${doing} (${error.code}); start dockerd or check the connection options.`, { cause });
  }
  if (error.statusCode === 404 && /image/i.test(error.message ?? '')) {
    return new SandboxError('ENGINE_UNAVAILABLE', `Docker image ${quoted(image)} is not available on the engine; pull or build it first.`, { cause });
  }
  return new SandboxError('ENGINE_FAILED', `Docker engine failed to ${doing}: ${quoted(error.message ?? String(cause), 500)}`, { cause });
}

/** True for the engine's "already stopped / already gone" answers, which need no action. */
export function isGone(cause: unknown): boolean {
  const status = (cause as { statusCode?: number }).statusCode;
  return status === 404 || status === 304 || status === 409;
}
