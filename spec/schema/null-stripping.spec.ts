import { Type } from '@sinclair/typebox';
import { Tools } from '../../lib';

function tool(params: object, approval?: (params: never) => boolean) {
  const tools = new Tools();
  const seen: unknown[] = [];
  const t = tools.action({ name: 't', description: 'T.', params: params as never, requiresApproval: approval ?? false, strict: false }, (p) => (seen.push(p), 'ok'));
  return { tools, tool: t, seen };
}

describe('the nulls of omitted fields become absent fields before validation, defaults and approval', () => {
  it('strips nulls of optional non-nullable fields, keeps nulls a field accepts, and leaves required fields to validation', async () => {
    const { tools, seen } = tool(Type.Object({ req: Type.String(), opt: Type.Optional(Type.String()), nul: Type.Optional(Type.Union([Type.String(), Type.Null()])), any: Type.Optional(Type.Any()) }));
    expect((await tools.execute('t', { req: 'a', opt: null, nul: null, any: null })).ok).toBe(true);
    expect(seen).toEqual([{ req: 'a', nul: null, any: null }]);
    const missing = await tools.execute('t', { req: null });
    expect(missing.error).toMatch(/req: must be string, got null/);
  });

  it('applies the default after stripping, so a null for a defaulted field gives the default', () => {
    const { tool: t } = tool(Type.Object({ limit: Type.Integer({ default: 5 }), mode: Type.Optional(Type.String({ default: 'fast' })) }));
    expect(t.parseArgs('{"limit":null,"mode":null}')).toEqual({ ok: true, params: { limit: 5, mode: 'fast' } });
  });

  it('lets the approval predicate see the stripped, defaulted params', () => {
    const predicate = jest.fn((params: { force?: boolean; level: number }) => params.force === undefined && params.level === 1);
    const { tool: t } = tool(Type.Object({ force: Type.Optional(Type.Boolean()), level: Type.Integer({ default: 1 }) }), predicate as never);
    expect(t.needsApproval({ force: null, level: null })).toBe(true);
    expect(predicate).toHaveBeenCalledWith({ level: 1 });
    expect(t.formatStatus({ force: null })).toBe('Running t...');
  });

  it('follows nested objects, arrays, allOf parts, discriminated unions and recursive refs', () => {
    const Node = Type.Recursive((This) => Type.Object({ name: Type.String(), note: Type.Optional(Type.String()), kids: Type.Array(This) }));
    const params = Type.Object({
      list: Type.Array(Type.Object({ a: Type.Optional(Type.Number()) })),
      both: Type.Intersect([Type.Object({ x: Type.String() }), Type.Object({ y: Type.Optional(Type.String()) })]),
      shape: Type.Union([
        Type.Object({ kind: Type.Literal('a'), p: Type.Optional(Type.String()) }),
        Type.Object({ kind: Type.Literal('b'), q: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
      ]),
      pick: Type.Optional(Type.Union([Type.Integer(), Type.Object({ r: Type.Optional(Type.Number()) })])),
      tree: Node,
    });
    const { tool: t } = tool(params);
    const parsed = t.parseArgs({
      list: [{ a: null }, { a: 1 }],
      both: { x: 'x', y: null },
      shape: { kind: 'b', q: null },
      pick: { r: null },
      tree: { name: 'r', note: null, kids: [{ name: 'k', note: null, kids: [] }] },
    });
    expect(parsed).toEqual({
      ok: true,
      params: { list: [{}, { a: 1 }], both: { x: 'x' }, shape: { kind: 'b', q: null }, pick: {}, tree: { name: 'r', kids: [{ name: 'k', kids: [] }] } },
    });
    expect(t.parseArgs({ list: [], both: { x: 'x' }, shape: { kind: 'a', p: null }, pick: 3, tree: { name: 'r', kids: [] } })).toMatchObject({ ok: true, params: { shape: { kind: 'a' }, pick: 3 } });
  });

  it('follows $defs references and enum discriminators, and never changes the caller object', () => {
    const params = Type.Unsafe({
      type: 'object',
      $defs: { Opt: { type: 'object', properties: { v: { type: 'string' } } } },
      properties: {
        o: { $ref: '#/$defs/Opt' },
        e: { oneOf: [{ type: 'object', properties: { t: { enum: ['x', 'y'] }, w: { type: 'string' } }, required: ['t'] }, { type: 'object', properties: { t: { enum: ['z'] } }, required: ['t'] }] },
        n: { enum: ['a', null] },
      },
    });
    const { tool: t } = tool(params);
    const args = { o: { v: null }, e: { t: 'y', w: null }, n: null };
    expect(t.parseArgs(args)).toEqual({ ok: true, params: { o: {}, e: { t: 'y' }, n: null } });
    expect(args).toEqual({ o: { v: null }, e: { t: 'y', w: null }, n: null });
  });
});
