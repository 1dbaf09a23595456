import { Type } from '@sinclair/typebox';
import { Tools } from '../../lib';
import { checksFieldsOnly, compileNullStripper } from '../../lib/schema/null-stripping';

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

describe('a flat schema: the stripper looks at its optional fields only, and JSON text is not scanned for null', () => {
  const Flat = Type.Object({ a: Type.Integer(), note: Type.Optional(Type.String()), tag: Type.Optional(Type.Union([Type.String(), Type.Null()])) });

  it('is told apart from a stripper that walks into nested values', () => {
    expect(checksFieldsOnly(compileNullStripper(Flat as never, 'flat'))).toBe(true);
    expect(checksFieldsOnly(compileNullStripper(Type.Object({ in: Type.Object({ x: Type.Optional(Type.String()) }) }) as never, 'nested'))).toBe(false);
    expect(checksFieldsOnly(compileNullStripper(Type.Object({ x: Type.Optional(Type.String()) }, { allOf: [] } as never) as never, 'allOf'))).toBe(false);
  });

  it('answers JSON text and objects as the full stripper would', () => {
    const { tool: t } = tool(Flat);
    expect(t.parseArgs('{"a":1,"note":null}')).toEqual({ ok: true, params: { a: 1 } });
    expect(t.parseArgs({ a: 1, note: null })).toEqual({ ok: true, params: { a: 1 } });
    expect(t.parseArgs('{"a":1,"note":"null","tag":null}')).toEqual({ ok: true, params: { a: 1, note: 'null', tag: null } });
    expect(t.parseArgs('{"a":1}')).toEqual({ ok: true, params: { a: 1 } });
    const required = t.parseArgs('{"a":null,"note":null}');
    expect(required.ok).toBe(false);
    expect(required.ok ? '' : required.error).toMatch(/a: must be integer, got null/);
  });

  it('removes only an own null: one inherited from a polluted prototype leaves the value as it is', () => {
    const strip = compileNullStripper(Flat as never, 'flat');
    const proto = Object.prototype as Record<string, unknown>;
    proto.note = null;
    try {
      const value = { a: 1 };
      expect(strip(value)).toBe(value);
    } finally {
      delete proto.note;
    }
  });
});
