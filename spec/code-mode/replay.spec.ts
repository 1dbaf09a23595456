/**
 * Late approvals: a nested call whose approval `approve` answers 'later' pauses the run with a signed ledger; the
 * same program resumed with it gets the recorded answers (those calls do not run again) and runs or declines the
 * waiting call. Attacks: a changed, cut, forged or foreign ledger, one resumed twice or expired, and a program that
 * does not repeat its recorded calls.
 */
import { createHash, createHmac } from 'node:crypto';
import { CoreError, FunctionTool } from '../../lib';
import { CodeMode, MemoryUsedLedgers, type CodeModeApproval, type CodeModeOutcome } from '../../lib/code-mode';
import { PermissionEngine } from '../../lib/permissions';
import { registry } from './support';

jest.setTimeout(120_000);

const KEY = 'k'.repeat(32);

function setup(approve: () => CodeModeApproval = () => 'later', extra: Partial<ConstructorParameters<typeof CodeMode>[1]> = {}) {
  const { tools, calls } = registry();
  tools.action({ name: 'wipe', description: 'Wipe a target.', params: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] }, requiresApproval: true }, ({ target }) => {
    calls.push(`wipe ${String(target)}`);
    return `wiped ${String(target)}`;
  });
  const codeMode = new CodeMode(tools, { approve, ledgerKey: KEY, ...extra });
  return { tools, calls, codeMode };
}

function pendingOf(outcome: CodeModeOutcome): Extract<CodeModeOutcome, { status: 'pending-approval' }> {
  if (outcome.status !== 'pending-approval') throw new Error(`expected a paused run, got ${JSON.stringify(outcome.result)}`);
  return outcome;
}

const PROGRAM = 'const sum = await tools.add({ a: 1, b: 2 });\nconst wiped = await tools.wipe({ target: "db" }).catch((e) => "refused: " + e.message);\nreturn [sum, wiped];';

/** A ledger re-encoded with `change` applied to its payload, the signature kept (or made with `key`). */
function reencoded(ledger: string, change: (payload: Record<string, unknown>) => void, key?: string): string {
  const [body, mac] = ledger.split('.') as [string, string];
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(payload);
  const next = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${next}.${key === undefined ? mac : createHmac('sha256', key).update(next).digest('base64url')}`;
}

describe('CodeMode late approvals: pause, ledger, resume', () => {
  it('pauses at a call whose approval comes later; resumed approved, the earlier call is not run again and the waiting one runs', async () => {
    const { calls, codeMode } = setup();
    const paused = pendingOf(await codeMode.start(PROGRAM));
    expect(calls).toEqual(['add 1 2']);
    expect(paused.calls).toEqual([{ id: expect.stringMatching(/^wipe-\d+-2$/), name: 'wipe', args: { target: 'db' } }]);
    expect(paused.result).toEqual(expect.objectContaining({ ok: false, error: expect.stringContaining('tools.wipe waits for an approval') }));
    const resumed = await codeMode.start(PROGRAM, { resume: { ledger: paused.ledger, approved: true } });
    expect(resumed.status).toBe('finished');
    expect(JSON.parse(String(resumed.result.result))).toEqual([3, 'wiped db']);
    expect(calls).toEqual(['add 1 2', 'wipe db']);
  });

  it('resumed declined, the program sees the declined call and nothing of it runs', async () => {
    const { calls, codeMode } = setup();
    const paused = pendingOf(await codeMode.start(PROGRAM));
    const resumed = await codeMode.start(PROGRAM, { resume: { ledger: paused.ledger, approved: false } });
    const [sum, wiped] = JSON.parse(String(resumed.result.result)) as [number, string];
    expect(sum).toBe(3);
    expect(wiped).toMatch(/^refused: .*declined/i);
    expect(calls).toEqual(['add 1 2']);
  });

  it('records the calls made before it pauses (a call made after is held: it runs on resume); none runs twice, and a second late approval pauses again', async () => {
    const { calls, codeMode } = setup();
    const code = 'const [x, w, y] = await Promise.all([tools.add({ a: 1, b: 1 }), tools.wipe({ target: "a" }), tools.add({ a: 2, b: 2 })]);\nconst w2 = await tools.wipe({ target: "b" });\nreturn [x, w, y, w2];';
    const first = pendingOf(await codeMode.start(code));
    expect(calls).toContain('add 1 1');
    expect(calls.filter((call) => call.startsWith('wipe'))).toEqual([]);
    const second = pendingOf(await codeMode.start(code, { resume: { ledger: first.ledger, approved: true } }));
    expect(second.calls.map((call) => call.args)).toEqual([{ target: 'b' }]);
    expect(calls.filter((call) => call.startsWith('wipe'))).toEqual(['wipe a']);
    const done = await codeMode.start(code, { resume: { ledger: second.ledger, approved: true } });
    expect(JSON.parse(String(done.result.result))).toEqual([2, 'wiped a', 4, 'wiped b']);
    expect([...calls].sort()).toEqual(['add 1 1', 'add 2 2', 'wipe a', 'wipe b']);
  });

  it('run and run_code cannot pause: a later answer fails the run and that call does not run', async () => {
    const { tools, calls, codeMode } = setup();
    const result = await codeMode.run('return await tools.wipe({ target: "db" })');
    expect(result).toEqual(expect.objectContaining({ ok: false, error: expect.stringMatching(/tools\.wipe waits for an approval/) }));
    tools.register(codeMode.tool());
    expect(await tools.execute('run_code', { code: 'return await tools.wipe({ target: "db" })' })).toEqual(expect.objectContaining({ ok: false }));
    expect(calls).toEqual([]);
  });

  it.each([
    ['its time limit', (_: AbortController) => undefined, /time limit/],
    ['the outer signal', (outer: AbortController) => setTimeout(() => outer.abort(), 300), /cancelled/],
  ])('gives no ledger when the run ends by %s while a call before the pause is still running', async (_, stop, why) => {
    const { tools, calls } = registry();
    tools.action({ name: 'wipe', description: 'Wipe.', params: { type: 'object', properties: {} }, requiresApproval: true }, () => calls.push('wipe'));
    tools.action({ name: 'slow', description: 'Waits for its abort.', params: { type: 'object', properties: {} } }, (_params, _deps, invocation) => new Promise((resolve) => invocation.signal.addEventListener('abort', () => resolve('stopped'))));
    const codeMode = new CodeMode(tools, { approve: () => 'later', ledgerKey: KEY, limits: { timeoutMs: 1000 } });
    const outer = new AbortController();
    stop(outer);
    const outcome = await codeMode.start('return await Promise.all([tools.slow({}), tools.wipe({})])', { signal: outer.signal });
    expect(outcome.status).toBe('finished');
    expect(outcome.result.error).toMatch(why);
    expect(calls).toEqual([]);
  });

  it('pauses an ASK of a permissions engine answered later, and runs it approved on resume', async () => {
    const { tools, calls } = registry();
    tools.register(new FunctionTool(({ target }) => (calls.push(`wipe ${String(target)}`), 'ok'), { name: 'wipe', description: 'Wipe.', params: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] } }));
    const codeMode = new CodeMode(tools, { permissions: new PermissionEngine(), approve: () => 'later', ledgerKey: KEY });
    const code = 'return await tools.wipe({ target: "x" })';
    const paused = pendingOf(await codeMode.start(code));
    expect(calls).toEqual([]);
    expect((await codeMode.start(code, { resume: { ledger: paused.ledger, approved: true } })).result.result).toBe('ok');
    expect(calls).toEqual(['wipe x']);
  });
});

describe('attacks on the ledger', () => {
  async function paused() {
    const made = setup();
    return { ...made, ledger: pendingOf(await made.codeMode.start(PROGRAM)).ledger };
  }

  it.each([
    ['a changed recorded answer', (ledger: string) => reencoded(ledger, (p) => ((p.calls as Array<{ answer?: unknown }>)[0]!.answer = { ok: true, value: '999' }))],
    ['the waiting call changed to another target', (ledger: string) => reencoded(ledger, (p) => ((p.calls as Array<{ args: string }>)[1]!.args = 'x'))],
    ['a later expiry', (ledger: string) => reencoded(ledger, (p) => (p.exp = Number(p.exp) + 1e9))],
    ['one flipped character of the signature', (ledger: string) => ledger.slice(0, -1) + (ledger.endsWith('A') ? 'B' : 'A')],
    ['a cut ledger', (ledger: string) => ledger.slice(0, ledger.indexOf('.'))],
    ['an extra part', (ledger: string) => `${ledger}.x`],
    ['a ledger signed with another key', (ledger: string) => reencoded(ledger, () => undefined, 'o'.repeat(32))],
    ['a payload that is not JSON, signed', () => { const body = Buffer.from('not json').toString('base64url'); return `${body}.${createHmac('sha256', KEY).update(body).digest('base64url')}`; }],
    ['a signed payload of another shape', () => { const body = Buffer.from(JSON.stringify({ v: 2, calls: [] })).toString('base64url'); return `${body}.${createHmac('sha256', KEY).update(body).digest('base64url')}`; }],
    ['not a string', () => 42 as unknown as string],
  ])('refuses %s: nothing runs', async (_, tamper) => {
    const { calls, codeMode, ledger } = await paused();
    const result = await codeMode.start(PROGRAM, { resume: { ledger: tamper(ledger), approved: true } });
    expect(result.status).toBe('finished');
    expect(result.result.error).toMatch(/^The program was not resumed: its ledger is not one this host signed/);
    expect(calls).toEqual(['add 1 2']);
  });

  it.each([
    ['another program (one character more)', PROGRAM + ' ', {}],
    ['the same program under another tool name', PROGRAM, { name: 'run_other' }],
  ])('refuses a ledger made for %s: nothing runs', async (_, code, options) => {
    const { calls, tools, ledger } = await paused();
    const other = new CodeMode(tools, { approve: () => 'later', ledgerKey: KEY, ...options });
    const result = await other.start(code, { resume: { ledger, approved: true } });
    expect(result.result.error).toMatch(/made for another program/);
    expect(calls).toEqual(['add 1 2']);
  });

  it('refuses a ledger resumed a second time: the approved call runs once', async () => {
    const { calls, codeMode, ledger } = await paused();
    expect((await codeMode.start(PROGRAM, { resume: { ledger, approved: true } })).result.ok).toBe(true);
    const again = await codeMode.start(PROGRAM, { resume: { ledger, approved: true } });
    expect(again.result.error).toMatch(/used already/);
    expect(calls).toEqual(['add 1 2', 'wipe db']);
  });

  it('refuses an expired ledger', async () => {
    const { calls, codeMode, ledger } = await paused();
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 601_000);
    try {
      expect((await codeMode.start(PROGRAM, { resume: { ledger, approved: true } })).result.error).toMatch(/expired/);
    } finally {
      clock.mockRestore();
    }
    expect(calls).toEqual(['add 1 2']);
  });

  it('fails a replay whose program makes another call than recorded (arguments from Math.random): the calls from there on do not run', async () => {
    const { calls, codeMode } = setup();
    const code = 'const a = await tools.add({ a: Math.random(), b: 0 });\nreturn await tools.wipe({ target: "db" });';
    const ledger = pendingOf(await codeMode.start(code)).ledger;
    expect(calls).toHaveLength(1);
    const result = await codeMode.start(code, { resume: { ledger, approved: true } });
    expect(result.result.error).toMatch(/^The program was stopped: it did not repeat its recorded tool calls \(call 1: it called tools.add there/);
    expect(calls).toHaveLength(1);
  });

  it('fails a replay that calls another tool where the record has one, and one that ends before its recorded calls', async () => {
    const { calls, codeMode } = setup();
    const code = 'if (Math.random() < 2) return await tools.wipe({ target: "db" });';
    // Ledgers this host signed (same key) for these programs, recording a call to add.
    const other = await codeMode.start(code, { resume: { ledger: forgedFor(code, [{ name: 'add', args: 'x', answer: { ok: true, value: '1' } }]), approved: true } });
    expect(other.result.error).toMatch(/call 1: it called tools.wipe there/);
    const shorter = 'return 1';
    const ended = await codeMode.start(shorter, { resume: { ledger: forgedFor(shorter, [{ name: 'add', args: 'x', answer: { ok: true, value: '1' } }]), approved: true } });
    expect(ended.result.error).toMatch(/call 1: it ended before making it/);
    expect(calls).toEqual([]);
  });
});

describe('ledger options', () => {
  it('refuses a short key and a ttl that is not a positive number', () => {
    const { tools } = registry();
    expect(() => new CodeMode(tools, { ledgerKey: 'short' })).toThrow(CoreError);
    expect(() => new CodeMode(tools, { ledgerKey: new Uint8Array(8) })).toThrow(/at least 32 bytes/);
    expect(() => new CodeMode(tools, { ledgerTtlSeconds: 0 })).toThrow(/ledgerTtlSeconds/);
    expect(() => new CodeMode(tools, { ledgerTtlSeconds: Number.NaN })).toThrow(/ledgerTtlSeconds/);
    expect(new CodeMode(tools, { ledgerKey: new Uint8Array(32), ledgerTtlSeconds: 5 }).limits.timeoutMs).toBeGreaterThan(0);
  });

  it('MemoryUsedLedgers claims an id once, and forgets it after its expiry', () => {
    const used = new MemoryUsedLedgers();
    const now = Date.now();
    expect(used.claim('a', now + 1000)).toBe(true);
    expect(used.claim('a', now + 1000)).toBe(false);
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 2000);
    try {
      expect(used.claim('b', now + 5000)).toBe(true);
      expect(used.claim('a', now + 5000)).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });

  it('takes a shared store of used ledgers', async () => {
    const claimed: string[] = [];
    const { codeMode } = setup(() => 'later', { usedLedgers: { claim: (id) => (claimed.push(id), true) } });
    const ledger = pendingOf(await codeMode.start(PROGRAM)).ledger;
    await codeMode.start(PROGRAM, { resume: { ledger, approved: false } });
    expect(claimed).toHaveLength(1);
  });
});

/** A ledger signed with KEY for `code`, recording `entries`. */
function forgedFor(code: string, entries: unknown[]): string {
  const payload = { v: 1, id: `for-${code}`, code: createHash('sha256').update(code).digest('base64url'), tool: 'run_code', calls: entries, exp: Date.now() + 60_000 };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', KEY).update(body).digest('base64url')}`;
}
