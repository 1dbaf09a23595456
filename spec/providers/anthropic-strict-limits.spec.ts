/**
 * Anthropic strict tool use, per-request limits (20 strict tools, 24 optional parameters, 16 parameters with union
 * types across the strict schemas of a request): `anthropicTools(tools, { strict: true })` keeps a request within
 * them by sending the tools that do not fit non-strict, with a logged reason; a tool over a limit on its own is left
 * out of the strict listing (refused at registration when the registry declares the format). The request checker is
 * spec/providers/rule-checkers/anthropic-strict.ts, written from the documented limits.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import type Anthropic from '@anthropic-ai/sdk';
import { anthropicTools, ANTHROPIC_STRICT_LIMITS } from '../../lib/providers/anthropic';
import { ToolDefinitionError, Tools, ToolSchemaFormat } from '../../lib';
import { checkAnthropicStrict, checkAnthropicStrictRequest } from './rule-checkers/anthropic-strict';
import { paramsSchema } from './schema-arbitrary';
import { strictParameterCounts } from '../../lib/providers/anthropic-strict';

const spy = () => ({ warn: jest.fn<void, [string]>(), error: jest.fn<void, [string]>() });
const fields = (n: number, optional: boolean) => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }])),
  required: optional ? [] : Array.from({ length: n }, (_, i) => `f${i}`),
});

describe('Anthropic strict tool use: per-request limits', () => {
  it('exports the documented limits', () => {
    expect(ANTHROPIC_STRICT_LIMITS).toEqual({ tools: 20, optionalParameters: 24, unionParameters: 16 });
  });

  it('sends the 21st strict tool and after non-strict, naming each in a warning', () => {
    const logger = spy();
    const tools = new Tools({ logger });
    for (let i = 0; i < 23; i++) tools.action({ name: `t${i}`, description: 'A tool.', params: fields(1, false) as never }, () => 'ok');
    const list = anthropicTools(tools, { strict: true }) satisfies Anthropic.Tool[];
    expect(list.map((e) => e.strict)).toEqual([...Array<boolean>(20).fill(true), false, false, false]);
    expect(list[20]!.input_schema).toEqual(fields(1, false));
    expect(checkAnthropicStrictRequest(list)).toEqual([]);
    expect(logger.warn.mock.calls.map(([m]) => m)).toEqual(['t20', 't21', 't22'].map((name) => `Tool '${name}' is sent without strict tool use: with it, the request would pass Anthropic's limit of 20 strict tools across the strict tools of a request.`));
  });

  it('counts union parameters (an optional field is sent as nullable) across tools, and keeps later tools that still fit', () => {
    const logger = spy();
    const tools = new Tools({ logger });
    tools.action({ name: 'ten', description: 'A tool.', params: fields(10, true) as never }, () => 'ok');
    tools.action({ name: 'eight', description: 'A tool.', params: fields(8, true) as never }, () => 'ok');
    tools.action({ name: 'six', description: 'A tool.', params: fields(6, true) as never }, () => 'ok');
    const list = anthropicTools(tools, { strict: true });
    expect(list.map((e) => [e.name, e.strict])).toEqual([['ten', true], ['eight', false], ['six', true]]);
    expect(list[1]!.input_schema.required).toEqual([]);
    expect(checkAnthropicStrictRequest(list)).toEqual([]);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toContain('16 parameters with union types');
  });

  it('counts parameters at any depth, definitions included: optional ones and those with union types', () => {
    expect(
      strictParameterCounts({
        type: 'object',
        properties: { a: { type: 'object', properties: { b: { anyOf: [{ type: 'string' }, { type: 'null' }] }, c: { type: 'string' } }, required: ['b'] }, properties: { type: ['string', 'null'] } },
        required: ['a', 'properties'],
        $defs: { D: { type: 'object', properties: { d: { type: 'integer' } } } },
      }),
    ).toEqual({ optional: 2, unions: 2 });
  });

  it('refuses a tool over a limit on its own, naming the path and how to opt out; other formats still list it', () => {
    expect(() => new Tools({ formats: [ToolSchemaFormat.ANTHROPIC_STRICT] }).action({ name: 'wide', description: 'A tool.', params: fields(17, true) as never }, () => 'ok')).toThrow(
      new ToolDefinitionError("tool 'wide': the schema at # has 17 parameters with union types (anyOf or a type list; an optional field is sent as nullable, which is one), over the 16 that Anthropic's strict tool use takes in a whole request. Opt the tool out with { strict: false }, or split it."),
    );
    const logger = spy();
    const tools = new Tools({ logger });
    tools.action({ name: 'wide', description: 'A tool.', params: fields(17, true) as never }, () => 'ok');
    tools.action({ name: 'wide_required', description: 'A tool.', params: fields(17, false) as never }, () => 'ok');
    expect(anthropicTools(tools, { strict: true }).map((e) => [e.name, e.strict])).toEqual([['wide_required', true]]);
    expect(anthropicTools(tools).map((e) => e.name)).toEqual(['wide', 'wide_required']);
  });

  it('a pattern with a word boundary moves into the description', () => {
    const tools = new Tools();
    tools.action({ name: 'p', description: 'A tool.', params: { type: 'object', properties: { w: { type: 'string', pattern: '\\bcat\\b' } }, required: ['w'] } as never }, () => 'ok');
    const [entry] = anthropicTools(tools, { strict: true });
    expect(entry!.input_schema.properties).toEqual({ w: { type: 'string', description: '(matches the pattern \\bcat\\b)' } });
    expect(checkAnthropicStrict(entry)).toEqual([]);
  });

  it('any generated set of tools lists within the per-request limits', () => {
    fc.assert(
      fc.property(fc.array(paramsSchema, { minLength: 1, maxLength: 26 }), (schemas) => {
        const tools = new Tools({ logger: spy() });
        schemas.forEach((params, i) => {
          try {
            tools.action({ name: `t${i}`, description: 'A tool.', params: params as never }, () => 'ok');
          } catch (error) {
            if (!(error instanceof ToolDefinitionError)) throw error;
          }
        });
        const list = anthropicTools(tools, { strict: true });
        expect(checkAnthropicStrictRequest(list)).toEqual([]);
        for (const entry of list) expect(checkAnthropicStrict(entry)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('Anthropic strict tool use: input_examples match the strict schema sent', () => {
  it('an omitted optional field is sent as null, an undeclared field is left out, nested objects and refs too', () => {
    const ajv = new Ajv2020({ strict: false });
    const tools = new Tools({ logger: spy() });
    const Address = { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'] };
    tools.action(
      {
        name: 'ship',
        description: 'Ship.',
        params: { type: 'object', properties: { to: { $ref: '#/$defs/Address' }, note: { type: 'string' }, items: { type: 'array', items: Address }, gift: { anyOf: [Address, { type: 'boolean' }] } }, required: ['to'], $defs: { Address } } as never,
        examples: [{ to: { city: 'Oslo' } }, { to: { city: 'Rome', zip: '00100' }, note: 'fragile', items: [{ city: 'A' }], gift: { city: 'B' }, extra: 1 }] as never,
      },
      () => 'ok',
    );
    const [strict] = anthropicTools(tools, { strict: true });
    expect(strict!.input_examples).toEqual([
      { to: { city: 'Oslo', zip: null }, note: null, items: null, gift: null },
      { to: { city: 'Rome', zip: '00100' }, note: 'fragile', items: [{ city: 'A', zip: null }], gift: { city: 'B', zip: null } },
    ]);
    const validate = ajv.compile(strict!.input_schema);
    for (const example of strict!.input_examples!) expect([validate(example), validate.errors]).toEqual([true, null]);
    // The non-strict listing sends them as written.
    expect(anthropicTools(tools)[0]!.input_examples![0]).toEqual({ to: { city: 'Oslo' } });
  });
});
