// agenttoolkit/typebox from its TypeScript source (which re-exports @sinclair/typebox; the published build bundles
// TypeBox into the entry's one file instead, proven by spec/package/published-package.spec.ts): its `Type` builds
// schemas this library takes as params, typed by the root's `Static`, and TypeBox's own checks accept them.
import { Value } from '@sinclair/typebox/value';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ToolSchemaFormat, Tools, type Static } from '../../lib';
import { Type, type TObject, type TSchema } from '../../lib/typebox';

const Params = Type.Object({ city: Type.String({ minLength: 1 }), days: Type.Optional(Type.Integer({ minimum: 1, default: 3 })) });

describe('agenttoolkit/typebox', () => {
  it('builds params a tool takes, typed by Static, with defaults applied and invalid arguments refused', async () => {
    const tools = new Tools();
    tools.action({ name: 'forecast', description: 'Forecast.', params: Params }, (params: Static<typeof Params>) => `${params.city}:${params.days ?? 0}`);
    expect((await tools.execute('forecast', { city: 'Oslo' })).result).toBe('Oslo:3');
    const bad = await tools.execute('forecast', { city: '', days: 0 });
    expect([bad.ok, bad.error]).toEqual([false, expect.stringContaining('- days: must be >= 1')]);
    expect(tools.getSchema(ToolSchemaFormat.OPENAI)[0]).toMatchObject({ function: { parameters: { required: ['city'] } } });
  });

  it("builds schemas TypeBox's own value checker and compiler read", () => {
    const schema: TObject = Params;
    const field: TSchema = Params.properties.city;
    expect([Value.Check(schema, { city: 'Oslo' }), Value.Check(schema, { city: 'Oslo', days: 0 }), Value.Check(field, 1)]).toEqual([true, false, false]);
    expect(TypeCompiler.Compile(schema).Check({ city: 'Rome', days: 2 })).toBe(true);
  });
});
