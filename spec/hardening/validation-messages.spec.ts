import { Type } from '@sinclair/typebox';
import { Tools } from '../../lib';

const quiet = { warn: jest.fn(), error: jest.fn() };

function registry(): Tools {
  const tools = new Tools({ logger: quiet });
  tools.action({ name: 'add', description: 'Add.', params: Type.Object({ a: Type.Integer(), b: Type.Integer(), tags: Type.Optional(Type.Array(Type.String())) }) }, ({ a, b }) => a + b);
  tools.action({ name: 'build', description: 'Build.', params: Type.Object({ constructor: Type.String(), toString: Type.Optional(Type.String()), valueOf: Type.Optional(Type.Number()) }) }, (p) => p);
  return tools;
}

describe('review: validation messages for values a host can pass but JSON cannot carry', () => {
  it.each([
    ['a bigint', { a: BigInt(1), b: 2 }, 'a: must be integer, got a bigint'],
    ['a function', { a: () => 1, b: 2 }, 'a: must be integer, got a function'],
    ['a symbol', { a: Symbol('s'), b: 2 }, 'a: must be integer, got a symbol'],
    ['NaN', { a: NaN, b: 2 }, 'a: must be integer, got number NaN'],
    ['-Infinity', { a: -Infinity, b: 2 }, 'a: must be integer, got number -Infinity'],
    // eslint-disable-next-line no-sparse-arrays
    ['a hole in a sparse array', { a: 1, b: 2, tags: ['x', , 'y'] }, 'tags[1]: must be string, got nothing'],
  ])('names the offending field for %s instead of failing with an internal error', async (_label, args, line) => {
    const result = await registry().execute('add', args);
    expect(result.ok).toBe(false);
    expect(result.error).toContain(`- ${line}`);
    expect(result.error).not.toMatch(/Internal error/);
  });

  it('does not take fields named like Object.prototype members from the prototype', async () => {
    const tools = registry();
    // Optional fields named toString / valueOf can be left out (they used to be "present" through Object.prototype).
    expect((await tools.execute('build', { constructor: 'x' })).toJSON()).toEqual({ ok: true, result: { constructor: 'x' } });
    expect((await tools.execute('build', '{"constructor":"x"}')).ok).toBe(true);
    // A missing required `constructor` is reported as missing.
    const missing = await tools.execute('build', {});
    expect(missing.error).toBe("Invalid arguments for tool 'build':\n- constructor: is required but missing\nFix these fields and call the tool again.");
  });
});
