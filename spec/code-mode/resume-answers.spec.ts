/**
 * Resuming a paused run with one answer per waiting call (keyed by the ids `start` reported), and runs that pause
 * again or stop after a resume. Attacks: forged per-call answers (unknown ids, ids of another run or round, answers of
 * other shapes, inherited and proxied keys), replays of a ledger after a second pause, a changed id in the ledger.
 */
import { CodeMode, MAX_DENIAL_REASON_CHARS, type CodeModeApproval, type CodeModeCallEvent, type CodeModeOutcome } from '../../lib/code-mode';
import { registry } from './support';

jest.setTimeout(120_000);

const KEY = 'k'.repeat(32);

function setup(approve: () => CodeModeApproval | Promise<CodeModeApproval> = () => 'later', limits = {}) {
  const { tools, calls } = registry();
  tools.action({ name: 'wipe', description: 'Wipe a target.', params: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] }, requiresApproval: true }, ({ target }) => {
    calls.push(`wipe ${String(target)}`);
    return `wiped ${String(target)}`;
  });
  return { tools, calls, codeMode: new CodeMode(tools, { approve, ledgerKey: KEY, limits }) };
}

function pendingOf(outcome: CodeModeOutcome): Extract<CodeModeOutcome, { status: 'pending-approval' }> {
  if (outcome.status !== 'pending-approval') throw new Error(`expected a paused run, got ${JSON.stringify(outcome.result)}`);
  return outcome;
}

/** An approval step that answers 'later' after a while, so that calls made together all ask before the run pauses. */
const slowLater = () => new Promise<CodeModeApproval>((resolve) => setTimeout(() => resolve('later'), 50));

/** Two waiting calls at once, after one that runs. */
const TWO = 'const sum = await tools.add({ a: 1, b: 2 });\nconst out = await Promise.all(["a", "b"].map((target) => tools.wipe({ target }).catch((e) => "refused: " + e.message)));\nreturn [sum, ...out];';

describe('which calls wait together', () => {
  it.each([1, 2, 5])('pauses with all %i calls of one turn waiting, with an approve that answers at once', async (count) => {
    const { calls, codeMode } = setup(() => 'later');
    const targets = JSON.stringify(Array.from({ length: count }, (_, at) => `t${at}`));
    const paused = pendingOf(await codeMode.start(`return Promise.all(${targets}.map((target) => tools.wipe({ target })));`));
    expect(paused.calls.map((call) => call.args)).toEqual(JSON.parse(targets).map((target: string) => ({ target })));
    expect(calls).toEqual([]);
  });

  it('makes a call that follows an awaited one on resume, as a second round', async () => {
    const { codeMode } = setup(() => 'later');
    const code = 'const a = await tools.wipe({ target: "a" });\nconst b = await tools.wipe({ target: "b" });\nreturn [a, b];';
    const first = pendingOf(await codeMode.start(code));
    expect(first.calls.map((call) => call.args)).toEqual([{ target: 'a' }]);
    const second = pendingOf(await codeMode.start(code, { resume: { ledger: first.ledger, approved: true } }));
    expect(second.calls.map((call) => call.args)).toEqual([{ target: 'b' }]);
  });
});

describe('per-call answers', () => {
  it('approves one waiting call and declines the other with a reason the program sees; the declined one does not run', async () => {
    const { calls, codeMode } = setup(slowLater);
    const paused = pendingOf(await codeMode.start(TWO));
    const [a, b] = paused.calls.map((call) => call.id) as [string, string];
    expect(paused.calls.map((call) => call.args)).toEqual([{ target: 'a' }, { target: 'b' }]);
    const events: CodeModeCallEvent[] = [];
    const resumed = await codeMode.start(TWO, { resume: { ledger: paused.ledger, approved: { [a]: true, [b]: { approved: false, reason: 'b is production' } } }, onCall: (event) => events.push(event) });
    const [sum, wipedA, wipedB] = JSON.parse(String(resumed.result.result)) as [number, string, string];
    expect([sum, wipedA]).toEqual([3, 'wiped a']);
    expect(wipedB).toMatch(/^refused: The user declined to run tool 'wipe' \(b is production/);
    expect(calls).toEqual(['add 1 2', 'wipe a']);
    // The resumed calls keep the ids the host answered them under.
    expect(events).toEqual(expect.arrayContaining([{ tool: 'wipe', callId: a, status: 'ok' }, { tool: 'wipe', callId: b, status: 'failed' }]));
  });

  it.each([
    ['false', false],
    ['{ approved: false } without a reason', { approved: false }],
    ['{ approved: true } and false', { approved: true }],
  ])('takes %s', async (_, answerB) => {
    const { calls, codeMode } = setup(slowLater);
    const paused = pendingOf(await codeMode.start(TWO));
    const [a, b] = paused.calls.map((call) => call.id) as [string, string];
    const resumed = await codeMode.start(TWO, { resume: { ledger: paused.ledger, approved: { [a]: false, [b]: answerB } } });
    const out = JSON.parse(String(resumed.result.result)) as [number, string, string];
    expect(out[1]).toMatch(/^refused: The user declined to run tool 'wipe'\. /);
    expect(calls).toEqual(typeof answerB === 'object' && answerB.approved ? ['add 1 2', 'wipe b'] : ['add 1 2']);
  });

  it.each([
    ['false', false],
    ['a per-call denial', 'per-call'],
  ])('a call declined on resume (%s) does not run even when it no longer needs approval then', async (_, how) => {
    const { tools, calls } = registry();
    let asks = true;
    tools.action({ name: 'wipe', description: 'Wipe.', params: { type: 'object', properties: {} }, requiresApproval: () => asks }, () => (calls.push('wipe'), 'wiped'));
    const codeMode = new CodeMode(tools, { approve: () => 'later', ledgerKey: KEY });
    const code = 'return await tools.wipe({})';
    const paused = pendingOf(await codeMode.start(code));
    asks = false;
    const approved = how === 'per-call' ? { [paused.calls[0]!.id]: false } : false;
    const resumed = await codeMode.start(code, { resume: { ledger: paused.ledger, approved } });
    expect(resumed.result.error).toMatch(/The user declined to run tool 'wipe'/);
    expect(calls).toEqual([]);
  });
});

describe('a resumed run that pauses again or stops', () => {
  const ROUNDS = 'const one = await tools.wipe({ target: "a" });\nconst sum = await tools.add({ a: 2, b: 2 });\nconst two = await tools.wipe({ target: "b" });\nreturn [one, sum, two];';

  it('two rounds of approvals: each pause issues a new ledger of every call so far; nothing runs twice', async () => {
    const { calls, codeMode } = setup();
    const first = pendingOf(await codeMode.start(ROUNDS));
    const second = pendingOf(await codeMode.start(ROUNDS, { resume: { ledger: first.ledger, approved: { [first.calls[0]!.id]: true } } }));
    expect(second.calls).toEqual([{ id: expect.stringMatching(/^wipe-\d+-3$/), name: 'wipe', args: { target: 'b' } }]);
    expect(second.calls[0]!.id).not.toBe(first.calls[0]!.id);
    expect(second.ledger).not.toBe(first.ledger);
    expect(calls).toEqual(['wipe a', 'add 2 2']);
    const done = await codeMode.start(ROUNDS, { resume: { ledger: second.ledger, approved: { [second.calls[0]!.id]: true } } });
    expect(JSON.parse(String(done.result.result))).toEqual(['wiped a', 4, 'wiped b']);
    expect(calls).toEqual(['wipe a', 'add 2 2', 'wipe b']);
  });

  it('refuses the first ledger reused after the second pause, and the id of round one as an answer in round two; the second ledger still resumes', async () => {
    const { calls, codeMode } = setup();
    const first = pendingOf(await codeMode.start(ROUNDS));
    const second = pendingOf(await codeMode.start(ROUNDS, { resume: { ledger: first.ledger, approved: true } }));
    const again = await codeMode.start(ROUNDS, { resume: { ledger: first.ledger, approved: true } });
    expect(again).toEqual({ status: 'finished', result: expect.objectContaining({ ok: false, error: expect.stringMatching(/ledger was used already/) }) });
    const oldIds = await codeMode.start(ROUNDS, { resume: { ledger: second.ledger, approved: { [first.calls[0]!.id]: true } } });
    expect(oldIds.result.error).toMatch(/^The program was not resumed: resume\.approved answers "wipe-\d+-1", which this ledger does not wait for.*it waits for "wipe-\d+-3" \(tools\.wipe\)/);
    expect(calls).toEqual(['wipe a', 'add 2 2']);
    const declined = await codeMode.start(ROUNDS, { resume: { ledger: second.ledger, approved: { [second.calls[0]!.id]: false } } });
    expect(declined.result.error).toMatch(/The user declined to run tool 'wipe'/);
    expect(calls).toEqual(['wipe a', 'add 2 2']);
  });

  it('a resumed run that times out gives no ledger, its ledger stays used, and the program can be started anew', async () => {
    const { calls, codeMode } = setup(() => 'later', { timeoutMs: 1500 });
    const code = 'await tools.wipe({ target: "a" });\nwhile (true) {}';
    const first = pendingOf(await codeMode.start(code));
    const stopped = await codeMode.start(code, { resume: { ledger: first.ledger, approved: true } });
    expect(stopped).toEqual({ status: 'finished', result: expect.objectContaining({ ok: false, error: expect.stringMatching(/time limit/) }) });
    expect(calls).toEqual(['wipe a']);
    expect((await codeMode.start(code, { resume: { ledger: first.ledger, approved: true } })).result.error).toMatch(/used already/);
    const anew = pendingOf(await codeMode.start(code));
    expect(anew.calls).toHaveLength(1);
    expect(calls).toEqual(['wipe a']);
  });
});

describe('attacks on per-call answers', () => {
  const PROGRAM = 'const sum = await tools.add({ a: 1, b: 2 });\nreturn [sum, await tools.wipe({ target: "db" }).catch((e) => "refused: " + e.message)];';

  async function paused() {
    const made = setup();
    const outcome = pendingOf(await made.codeMode.start(PROGRAM));
    return { ...made, ledger: outcome.ledger, id: outcome.calls[0]!.id };
  }

  const throwing = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
  it.each<[string, (id: string) => unknown, RegExp]>([
    ['an unknown id beside the right one', (id) => ({ [id]: true, 'wipe-999-2': true }), /answers "wipe-999-2", which this ledger does not wait for/],
    ['no answer at all', () => ({}), /has no answer for "wipe-\d+-2" \(tools\.wipe\)/],
    ['the id in another case', (id) => ({ [id.toUpperCase()]: true }), /does not wait for/],
    ['an own __proto__ key (from JSON)', (id) => JSON.parse(`{"__proto__": true, ${JSON.stringify(id)}: true}`), /answers "__proto__"/],
    ['an answer inherited from a prototype', (id) => Object.create({ [id]: true }), /has no answer for/],
    ['the text "true"', (id) => ({ [id]: 'true' }), /\]\s*is a string: answer true, false, or \{ approved: false/],
    ['the number 1', (id) => ({ [id]: 1 }), /is a number/],
    ['null', (id) => ({ [id]: null }), /is null/],
    ['undefined', (id) => ({ [id]: undefined }), /is undefined/],
    ['an array', (id) => ({ [id]: [true] }), /is an array/],
    ['{ approved: "yes" }', (id) => ({ [id]: { approved: 'yes' } }), /is an object of another shape/],
    ['an approval with a reason', (id) => ({ [id]: { approved: true, reason: 'x' } }), /is an object of another shape/],
    ['a reason that is not a string', (id) => ({ [id]: { approved: false, reason: 5 } }), /another shape/],
    ['a reason past the limit', (id) => ({ [id]: { approved: false, reason: 'x'.repeat(MAX_DENIAL_REASON_CHARS + 1) } }), /another shape/],
    ['an extra key in the answer', (id) => ({ [id]: { approved: true, run: 'rm -rf' } }), /another shape/],
    ['approved as the text "true"', () => 'true', /^The program was not resumed: resume\.approved is a string: pass true or false for all of them, or one answer per call keyed by its id: \{ "wipe-\d+-2": true \}/],
    ['approved as null', () => null, /resume\.approved is null/],
    ['approved as an array of ids', (id) => [id], /resume\.approved is an array/],
    ['a proxy whose keys throw', () => throwing, /resume\.approved could not be read \(trap\)/],
    ['a getter that throws', (id) => Object.defineProperty({}, id, { enumerable: true, get: () => { throw new Error('getter'); } }), /could not be read \(getter\)/],
  ])('refuses %s: nothing runs, and the ledger still resumes with the right answer', async (_, forge, message) => {
    const { calls, codeMode, ledger, id } = await paused();
    const refused = await codeMode.start(PROGRAM, { resume: { ledger, approved: forge(id) as never } });
    expect(refused.status).toBe('finished');
    expect(refused.result.error).toMatch(/^The program was not resumed: resume\.approved/);
    expect(refused.result.error).toMatch(message);
    expect(refused.result.error).toMatch(/Nothing ran, and this attempt did not use the ledger up/);
    expect(calls).toEqual(['add 1 2']);
    const resumed = await codeMode.start(PROGRAM, { resume: { ledger, approved: { [id]: true } } });
    expect(JSON.parse(String(resumed.result.result))).toEqual([3, 'wiped db']);
    expect(calls).toEqual(['add 1 2', 'wipe db']);
  });

  it('refuses the ids of another run of the same program; each run resumes with its own', async () => {
    const { calls, codeMode } = setup();
    const one = pendingOf(await codeMode.start(PROGRAM));
    const two = pendingOf(await codeMode.start(PROGRAM));
    expect(one.calls[0]!.id).not.toBe(two.calls[0]!.id);
    const crossed = await codeMode.start(PROGRAM, { resume: { ledger: one.ledger, approved: { [two.calls[0]!.id]: true } } });
    expect(crossed.result.error).toMatch(/which this ledger does not wait for/);
    expect(calls).toEqual(['add 1 2', 'add 1 2']);
    expect((await codeMode.start(PROGRAM, { resume: { ledger: one.ledger, approved: { [one.calls[0]!.id]: true } } })).result.ok).toBe(true);
    expect((await codeMode.start(PROGRAM, { resume: { ledger: two.ledger, approved: { [two.calls[0]!.id]: false } } })).result.ok).toBe(true);
    expect(calls).toEqual(['add 1 2', 'add 1 2', 'wipe db']);
  });

  it('refuses per-call answers resumed a second time: the approved call runs once', async () => {
    const { calls, codeMode, ledger, id } = await paused();
    expect((await codeMode.start(PROGRAM, { resume: { ledger, approved: { [id]: true } } })).result.ok).toBe(true);
    const replay = await codeMode.start(PROGRAM, { resume: { ledger, approved: { [id]: true } } });
    expect(replay.result.error).toMatch(/used already/);
    expect(calls).toEqual(['add 1 2', 'wipe db']);
  });

  it('refuses a ledger whose waiting call got another id (the signature no longer holds)', async () => {
    const { calls, codeMode, ledger } = await paused();
    const [body, mac] = ledger.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { calls: Array<{ id?: string }> };
    payload.calls[1]!.id = 'mine';
    const changed = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    const refused = await codeMode.start(PROGRAM, { resume: { ledger: changed, approved: { mine: true } } });
    expect(refused.result.error).toMatch(/not one this host signed/);
    expect(calls).toEqual(['add 1 2']);
  });
});
