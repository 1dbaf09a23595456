import { expectWithinGenerousBound } from '../support/generous-bound';

describe('expectWithinGenerousBound refuses a bound that load could reach, before running the work', () => {
  it.each([
    ['below ten times the busy figure', { withoutItMs: 60_000, busyMs: 2_000, limitMs: 19_999 }, /limitMs >= 10 x busyMs \(20000 ms\); got 19999 ms/],
    ['not below the time without the kill', { withoutItMs: 20_000, busyMs: 1_000, limitMs: 20_000 }, /cannot tell a kill from none/],
  ])('%s', async (_name, bound, message) => {
    const work = jest.fn(async () => 'done');
    await expect(expectWithinGenerousBound(bound, work)).rejects.toThrow(message);
    expect(work).not.toHaveBeenCalled();
  });

  it('passes the outcome of the work through', async () => {
    const bound = { withoutItMs: Infinity, busyMs: 100, limitMs: 10_000 };
    await expect(expectWithinGenerousBound(bound, async () => 'done')).resolves.toBe('done');
    await expect(expectWithinGenerousBound(bound, async () => Promise.reject(new Error('failed as it should')))).rejects.toThrow('failed as it should');
  });
});
