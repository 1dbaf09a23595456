import type { HeaderVerdict } from './http-front';

/** The hostname of `url`, or undefined when it does not parse or names none. */
function hostnameOf(url: string): { hostname: string; scheme: string } | undefined {
  try {
    const parsed = new URL(url);
    return parsed.hostname === '' ? undefined : { hostname: parsed.hostname, scheme: parsed.protocol };
  } catch {
    return undefined;
  }
}

/**
 * @internal The `Host` check of an SDK 1.x endpoint (SDK 1.x ships it only as Express middleware), by the rules of
 * SDK v2's `validateHostHeader`, which a spec holds it to: the header's hostname, port ignored, must be one of
 * `allowed` (IPv6 in brackets, `[::1]`); a missing or unparsable header is refused.
 */
export function checkHostHeader(header: string | undefined, allowed: readonly string[]): HeaderVerdict {
  if (header === undefined || header === '') return { ok: false, message: 'Missing Host header' };
  const parsed = hostnameOf(`http://${header}`);
  if (parsed === undefined) return { ok: false, message: `Invalid Host header: ${header}` };
  return allowed.includes(parsed.hostname) ? { ok: true } : { ok: false, message: `Invalid Host: ${parsed.hostname}` };
}

/**
 * @internal The `Origin` check of an SDK 1.x endpoint (SDK 1.x has none), by the rules of SDK v2's
 * `validateOriginHeader`, which a spec holds it to. The MCP specification requires servers to validate `Origin`
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning):
 * - no `Origin` (a client that is not a browser) passes;
 * - one that does not parse to a hostname, the literal `null` of opaque browser contexts included, is refused;
 * - otherwise its hostname, port and scheme ignored, must be one of `allowed`; an entry `<scheme>://*` allows every
 *   origin of a scheme other than `http:` and `https:` (browser extensions).
 */
export function checkOriginHeader(header: string | undefined, allowed: readonly string[]): HeaderVerdict {
  if (header === undefined || header === '') return { ok: true };
  const parsed = hostnameOf(header);
  if (parsed === undefined) return { ok: false, message: `Invalid Origin header: ${header}` };
  const web = parsed.scheme === 'http:' || parsed.scheme === 'https:';
  if (!web && allowed.includes(`${parsed.scheme}//*`)) return { ok: true };
  return allowed.includes(parsed.hostname) ? { ok: true } : { ok: false, message: `Invalid Origin: ${parsed.hostname}` };
}
