/**
 * The `Host` and `Origin` checks of SDK 1.x endpoints hold to SDK v2's `validateHostHeader` and
 * `validateOriginHeader` on a table of legitimate headers and attacks: the same verdict, the same message.
 */
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { checkHostHeader, checkOriginHeader } from '../../../lib/mcp/server/header-checks';

const LOCAL = ['localhost', '127.0.0.1', '[::1]'];
const verdict = (result: { ok: boolean; message?: string }) => (result.ok ? { ok: true } : { ok: false, message: result.message });

describe('the Host and Origin checks of SDK 1.x endpoints', () => {
  it.each([
    ['localhost:3000', LOCAL], ['127.0.0.1', LOCAL], ['[::1]:8080', LOCAL], ['LOCALHOST:1', LOCAL],
    ['evil.example', LOCAL], ['127.0.0.1.evil.example:80', LOCAL], ['localhost.evil', LOCAL], ['::1', LOCAL],
    ['localhost:3000@evil.example', LOCAL], ['evil.example#@localhost', LOCAL], ['local host', LOCAL], ['', LOCAL],
    [undefined, LOCAL], ['mcp.internal:443', ['mcp.internal']], ['0x7f.1', LOCAL], ['2130706433', LOCAL],
  ] as const)('Host %p against %p: as SDK v2 judges it', (header, allowed) => {
    expect(verdict(checkHostHeader(header, allowed))).toEqual(verdict(validateHostHeader(header, [...allowed])));
  });

  it.each([
    [undefined, LOCAL], ['', LOCAL], ['http://localhost:3000', LOCAL], ['https://127.0.0.1', LOCAL], ['http://[::1]:1', LOCAL],
    ['https://evil.example', LOCAL], ['http://localhost.evil.example', LOCAL], ['null', LOCAL], ['not a url', LOCAL],
    ['file:///etc/passwd', LOCAL], ['http://user:pw@evil.example', LOCAL], ['http://localhost@evil.example', LOCAL],
    ['chrome-extension://abcdef', LOCAL], ['chrome-extension://abcdef', ['abcdef']], ['moz-extension://1234', ['moz-extension://*']],
    ['https://evil.example', ['https://*']], ['http://evil.example', ['http://*']], ['HTTPS://APP.EXAMPLE', ['app.example']],
  ] as const)('Origin %p against %p: as SDK v2 judges it', (header, allowed) => {
    expect(verdict(checkOriginHeader(header, allowed))).toEqual(verdict(validateOriginHeader(header, [...allowed])));
  });

  it('refuses what it must: a foreign site, an opaque origin, a missing Host', () => {
    expect(checkOriginHeader('https://evil.example', LOCAL)).toEqual({ ok: false, message: 'Invalid Origin: evil.example' });
    expect(checkOriginHeader('null', LOCAL)).toEqual({ ok: false, message: 'Invalid Origin header: null' });
    expect(checkHostHeader(undefined, LOCAL)).toEqual({ ok: false, message: 'Missing Host header' });
    expect(checkHostHeader('local host', LOCAL)).toEqual({ ok: false, message: 'Invalid Host header: local host' });
  });
});
