import { Type } from '@sinclair/typebox';
import { executeToolCall, Tools } from '../../lib';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });

describe('review: execute never rejects for arguments a host can pass', () => {
  function registry(): Tools {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'cfg', description: 'Configure.', params: Type.Object({ opts: Type.Optional(Type.Object({ depth: Type.Integer({ default: 1 }) })) }) }, (p) => p);
    return tools;
  }

  it.each([
    ['a getter that throws', { get opts(): unknown { throw new Error('getter'); } }],
    ['a Proxy whose traps throw', new Proxy({}, { ownKeys: () => { throw new Error('trap'); } })],
    ['a cycle where defaults need a copy', (() => { const o: Record<string, unknown> = {}; o.opts = { depth: 2, self: o }; return o; })()],
  ])('fails %s with a message for the model, not an internal error', async (_label, args) => {
    const result = await registry().execute('cfg', args);
    expect(result.error).toBe("Arguments for tool 'cfg' could not be read as JSON data. Send the arguments as one JSON object.");
  });
});

describe('review: the approval step never rejects and fails closed', () => {
  function payments(predicate: (p: { amount: number }) => boolean): Tools {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'pay', description: 'Pay.', requiresApproval: predicate, params: Type.Object({ amount: Type.Number() }) }, ({ amount }) => `paid ${amount}`);
    return tools;
  }

  it('asks for approval when the predicate throws, and declines without an approval step', async () => {
    const tools = payments(() => { throw new Error('predicate bug'); });
    expect(tools.get('pay')!.needsApproval({ amount: 1 })).toBe(true);
    const approve = jest.fn(() => false);
    expect((await executeToolCall(tools, { id: '1', name: 'pay', args: { amount: 1 } }, { approve })).error).toMatch(/declined/);
    expect(approve).toHaveBeenCalledTimes(1);
    expect((await executeToolCall(tools, { id: '1', name: 'pay', args: '{"amount":1}' })).error).toMatch(/was not run: it needs approval and no approval step is configured/);
  });

  it('resolves to a failed result for unreadable or non-JSON arguments', async () => {
    const tools = payments((p) => p.amount > 10);
    const getter = await executeToolCall(tools, { id: '1', name: 'pay', args: { get amount(): number { throw new Error('x'); } } }, { approve: () => true });
    expect(getter.error).toMatch(/could not be read as JSON data/);
    const bigint = await executeToolCall(tools, { id: '1', name: 'pay', args: { amount: BigInt(100) } }, { approve: () => true });
    expect(bigint.error).toMatch(/amount: must be number, got a bigint/);
  });

  it('fails closed when the availability check throws', async () => {
    const tools = new Tools({ logger: quiet() });
    const ran = jest.fn();
    tools.action({ name: 'flaky', description: 'Flaky.', requiresApproval: true, availableWhen: { test: () => { throw new Error('ctx'); } } as never }, ran);
    const result = await executeToolCall(tools, { id: '1', name: 'flaky', args: {} });
    expect(result.error).toMatch(/was not run: it needs approval and no approval step is configured/);
    expect(ran).not.toHaveBeenCalled();
  });
});

describe('review: the approval check and the run see the same arguments', () => {
  function payments(ran: jest.Mock): Tools {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'pay', description: 'Pay.', requiresApproval: (p: { amount: number }) => p.amount > 10, params: Type.Object({ amount: Type.Number() }) }, ({ amount }) => ran(amount));
    return tools;
  }

  it('reads a getter once, so a small amount cannot be checked and a large one run', async () => {
    const ran = jest.fn();
    let reads = 0;
    const args = { get amount(): number { return ++reads === 1 ? 1 : 1_000_000; } };
    await executeToolCall(payments(ran), { id: '1', name: 'pay', args });
    expect(ran).toHaveBeenCalledWith(1);
  });

  it('runs what was checked even when the approval step changes the call', async () => {
    const ran = jest.fn();
    const call = { id: '1', name: 'pay', args: { amount: 50 } };
    const approve = (_tool: unknown, seen: { args: unknown }) => {
      (seen.args as { amount: number }).amount = 1_000_000;
      return true;
    };
    await executeToolCall(payments(ran), call, { approve });
    expect(ran).toHaveBeenCalledWith(50);
  });
});
