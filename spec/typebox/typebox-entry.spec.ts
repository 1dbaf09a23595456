// agenttoolkit/typebox: TypeBox 1.x's `Type`. The runtime under test here is a second copy of TypeBox, bundled from
// lib/typebox/index.ts by esbuild as `npm run build` bundles it (the published file itself is proven in
// spec/package/published-package.spec.ts), so every check below crosses two copies: ours and the user's own `typebox`.
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { Type as TheirType, type Static as TypeBoxStatic } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { ToolSchemaFormat, Tools, type Static } from '../../lib';
import type * as Entry from '../../lib/typebox';
import * as entrySource from '../../lib/typebox';

/** The entry's module, bundled into one script and evaluated: a copy of TypeBox that is not the test's `typebox`. */
function bundledEntry(): typeof Entry {
  const [output] = buildSync({ entryPoints: [join(__dirname, '..', '..', 'lib', 'typebox', 'index.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'error' }).outputFiles;
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', output!.text)(module, module.exports);
  return module.exports as unknown as typeof Entry;
}

const { Type } = bundledEntry();
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(value: T): T => value;

const Params = Type.Object({ city: Type.String({ minLength: 1 }), days: Type.Optional(Type.Integer({ minimum: 1, default: 3 })) });
const TheirParams = TheirType.Object({ city: TheirType.String({ minLength: 1 }), days: TheirType.Optional(TheirType.Integer({ minimum: 1, default: 3 })) });

describe('agenttoolkit/typebox (TypeBox 1.x)', () => {
  it('is, as source (what the bundle is built from), the `typebox` package\'s own `Type` and nothing else at run time', () => {
    expect(entrySource.Type).toBe(TheirType);
    expect(Object.keys(entrySource).filter((name) => name !== '__esModule')).toEqual(['Type']);
  });

  it('is a copy of TypeBox of its own, not the test\'s `typebox`', () => {
    expect(Type).not.toBe(TheirType);
    expect(Type.Object).not.toBe(TheirType.Object);
  });

  it("marks schemas as TypeBox 1.x does: non-enumerable `~kind`, `~optional` properties, the same JSON as the user's copy", () => {
    const days = Params.properties.days;
    expect([Object.getOwnPropertyDescriptor(Params, '~kind'), Object.getOwnPropertyDescriptor(days, '~optional')]).toEqual([
      { value: 'Object', enumerable: false, writable: true, configurable: true },
      { value: true, enumerable: false, writable: true, configurable: true },
    ]);
    expect(Object.getOwnPropertySymbols(Params)).toEqual([]);
    expect(JSON.stringify(Params)).toBe(JSON.stringify(TheirParams));
    expect(Params).toEqual(TheirParams);
  });

  it("builds schemas the user's own TypeBox 1.x checks: Compile and Value.Check", () => {
    const cases: [unknown, boolean][] = [[{ city: 'Oslo' }, true], [{ city: 'Oslo', days: 2 }, true], [{ city: 'Oslo', days: 0 }, false], [{ city: '' }, false], [{ days: 2 }, false]];
    const compiled = Compile(Params);
    for (const [value, valid] of cases) expect([value, Value.Check(Params, value), compiled.Check(value)]).toEqual([value, valid, valid]);
    expect(Value.Check(Params.properties.city, 1)).toBe(false);
    expect(Value.Default(Params, { city: 'Oslo' })).toEqual({ city: 'Oslo', days: 3 });
  });

  it("composes both ways with the user's copy: Object, Array, Union, Intersect, Evaluate, Partial", () => {
    const Theirs = TheirType.Object({ trip: Params, tags: TheirType.Array(Params.properties.city) });
    expect([Value.Check(Theirs, { trip: { city: 'Oslo' }, tags: ['a'] }), Value.Check(Theirs, { trip: { city: '' }, tags: [] }), Value.Check(Theirs, { trip: { city: 'Oslo' }, tags: [''] })]).toEqual([true, false, false]);
    const Extra = TheirType.Object({ units: TheirType.Union([TheirType.Literal('metric'), TheirType.Literal('imperial')]) });
    for (const Builder of [Type, TheirType]) {
      const merged = Builder.Evaluate(Builder.Intersect([Params, Extra]));
      expect(merged).toMatchObject({ type: 'object', required: ['city', 'units'] });
      expect(Object.keys(merged.properties).sort()).toEqual(['city', 'days', 'units']);
      expect([Compile(merged).Check({ city: 'Oslo', units: 'metric' }), Compile(merged).Check({ city: 'Oslo', units: 'si' }), Compile(merged).Check({ units: 'metric' })]).toEqual([true, false, false]);
      const partial = Builder.Partial(Params);
      expect([Value.Check(partial, {}), Value.Check(partial, { days: 0 })]).toEqual([true, false]);
    }
    const Ours = Type.Object({ their: Extra, ours: Type.Array(TheirType.Integer({ minimum: 0 })) });
    expect([Compile(Ours).Check({ their: { units: 'metric' }, ours: [1] }), Compile(Ours).Check({ their: { units: 'metric' }, ours: [-1] })]).toEqual([true, false]);
    assertType<Equal<TypeBoxStatic<typeof Ours>, { their: { units: 'metric' | 'imperial' }; ours: number[] }>>(true);
  });

  it('builds params a tool takes, typed as TypeBox and the library type them, with defaults applied and invalid arguments refused', async () => {
    const tools = new Tools();
    tools.action({ name: 'forecast', description: 'Forecast.', params: Params }, (params) => {
      assertType<Equal<typeof params, { city: string; days?: number }>>(true);
      return `${params.city}:${params.days ?? 0}`;
    });
    assertType<Equal<Static<typeof Params>, TypeBoxStatic<typeof Params>>>(true);
    // `Type` is TypeBox's namespace, types included, as `typebox` has it: `Type.Static<typeof schema>`.
    assertType<Equal<Entry.Type.Static<typeof Params>, { city: string; days?: number }>>(true);
    assertType<Equal<TypeBoxStatic<typeof Params>, TypeBoxStatic<typeof TheirParams>>>(true);
    expect((await tools.execute('forecast', { city: 'Oslo' })).result).toBe('Oslo:3');
    const bad = await tools.execute('forecast', { city: '', days: 0 });
    expect([bad.ok, bad.error]).toEqual([false, expect.stringContaining('- days: must be >= 1')]);
  });

  it("mixes schemas of both copies, and schemas made of both, in one registry, each exposed as the same JSON Schema", async () => {
    const Units = Type.Union([Type.Literal('metric'), Type.Literal('imperial')]);
    const Mixed = TheirType.Object({ place: Params, units: TheirType.Optional(Units) });
    const tools = new Tools();
    tools.action({ name: 'ours', description: 'Ours.', params: Params }, (params: TypeBoxStatic<typeof Params>) => params.days ?? 0);
    tools.action({ name: 'theirs', description: 'Theirs.', params: TheirParams }, (params: Static<typeof TheirParams>) => params.days ?? 0);
    tools.action({ name: 'mixed', description: 'Mixed.', params: Mixed }, (params) => {
      assertType<Equal<typeof params, { place: { city: string; days?: number }; units?: 'metric' | 'imperial' }>>(true);
      return `${params.place.city}:${params.place.days ?? 0}:${params.units ?? 'none'}`;
    });
    const results = await Promise.all([tools.execute('ours', { city: 'Oslo' }), tools.execute('theirs', { city: 'Oslo' }), tools.execute('mixed', { place: { city: 'Rome' }, units: 'metric' }), tools.execute('mixed', { place: { city: 'Rome' }, units: 'si' }), tools.execute('ours', { city: 'Oslo', days: 'two' })]);
    expect(results.map((r) => [r.ok, r.ok ? r.result : expect.any(String)])).toEqual([[true, 3], [true, 3], [true, 'Rome:3:metric'], [false, expect.any(String)], [false, expect.any(String)]]);
    const [ours, theirs, mixed] = tools.getSchema(ToolSchemaFormat.OPENAI) as { function: { parameters: Record<string, unknown> } }[];
    expect(ours!.function.parameters).toEqual(theirs!.function.parameters);
    expect(ours!.function.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, default: 3 } }, required: ['city'] });
    expect(mixed!.function.parameters).toMatchObject({ properties: { place: { required: ['city'] }, units: { anyOf: [{ const: 'metric' }, { const: 'imperial' }] } }, required: ['place'] });
  });
});
