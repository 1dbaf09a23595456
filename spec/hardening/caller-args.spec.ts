import { Type } from '@sinclair/typebox';
import { Tools } from '../../lib';

function registry(): Tools {
  const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
  const Box = Type.Object({ list: Type.Array(Type.String()), label: Type.Optional(Type.String()) });
  const mutate = (p: { box: { list: string[]; label?: string } }) => {
    p.box.list.push('changed by the tool');
    p.box.label = 'set by the tool';
    return p.box.list.length;
  };
  tools.action({ name: 'plain', description: 'No defaults.', params: Type.Object({ box: Box }) }, mutate);
  tools.action({ name: 'defaults', description: 'With defaults.', params: Type.Object({ box: Box, n: Type.Number({ default: 1 }) }) }, mutate);
  return tools;
}

describe("review: the caller's arguments are never changed", () => {
  it.each(['plain', 'defaults'])('keeps nested objects intact when the tool (%s) changes its params', async (name) => {
    const args = { box: { list: ['a'], label: null as string | null } };
    const snapshot = JSON.stringify(args);
    const result = await registry().execute(name, args);
    expect(result.toJSON()).toEqual({ ok: true, result: 2 });
    expect(JSON.stringify(args)).toBe(snapshot);
  });

  it('gives every call its own copy, so one call cannot leak into the next', async () => {
    const tools = registry();
    const args = { box: { list: [] as string[] } };
    expect((await tools.execute('plain', args)).result).toBe(1);
    expect((await tools.execute('plain', args)).result).toBe(1);
  });
});
