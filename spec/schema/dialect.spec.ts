// JSON Schema 2020-12 end to end: every keyword of the specification's vocabularies registers, validates a good value
// and refuses a bad one, and each provider format lists the tool or leaves it out with a reason naming the path.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Type } from '@sinclair/typebox';
import { ToolDefinitionError, ToolSchemaFormat, Tools } from '../../lib';
import type { ToolFormat } from '../../lib/tool/tool-format';
import { toPrefixItems, dialectOf } from '../../lib/schema/dialect';

type Case = [keyword: string, params: object, good: unknown, bad: unknown];
const obj = (properties: object, extra: object = {}) => ({ type: 'object', properties, ...extra });
const field = (schema: object) => obj({ v: schema }, { required: ['v'] });

// https://json-schema.org/draft/2020-12/json-schema-core and json-schema-validation: core, applicator, unevaluated,
// validation, format-annotation, content and meta-data vocabularies.
const CASES: Case[] = [
  ['$defs + $ref', { ...field({ $ref: '#/$defs/pos' }), $defs: { pos: { type: 'integer', minimum: 1 } } }, { v: 1 }, { v: 0 }],
  ['$anchor', { ...field({ $ref: '#pos' }), $defs: { pos: { $anchor: 'pos', type: 'integer', minimum: 1 } } }, { v: 2 }, { v: -1 }],
  ['$dynamicRef + $dynamicAnchor', { ...field({ $ref: '#/$defs/tree' }), $defs: { tree: { $dynamicAnchor: 'node', type: 'object', properties: { kids: { type: 'array', items: { $dynamicRef: '#node' } } } } } }, { v: { kids: [{ kids: [] }] } }, { v: { kids: [1] } }],
  ['$comment', field({ type: 'string', $comment: 'internal note' }), { v: 'a' }, { v: 1 }],
  ['allOf', field({ allOf: [{ type: 'integer' }, { minimum: 2 }] }), { v: 2 }, { v: 1 }],
  ['anyOf', field({ anyOf: [{ type: 'integer' }, { type: 'string' }] }), { v: 'a' }, { v: true }],
  ['oneOf', field({ oneOf: [{ type: 'integer' }, { type: 'number', minimum: 10 }] }), { v: 1.5 + 10 }, { v: 11 }],
  ['not', field({ type: 'string', not: { const: 'root' } }), { v: 'alice' }, { v: 'root' }],
  ['if/then/else', field({ type: 'integer', if: { minimum: 10 }, then: { multipleOf: 10 }, else: { maximum: 5 } }), { v: 20 }, { v: 7 }],
  ['dependentSchemas', field({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, dependentSchemas: { a: { required: ['b'] } } }), { v: { a: 'x', b: 'y' } }, { v: { a: 'x' } }],
  ['prefixItems', field({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false }), { v: ['a', 1] }, { v: ['a', 'b'] }],
  ['items', field({ type: 'array', items: { type: 'integer' } }), { v: [1, 2] }, { v: [1, 'x'] }],
  ['contains + minContains + maxContains', field({ type: 'array', contains: { type: 'string' }, minContains: 1, maxContains: 2 }), { v: [1, 'a'] }, { v: ['a', 'b', 'c'] }],
  ['properties + required', field(obj({ a: { type: 'string' } }, { required: ['a'] })), { v: { a: 'x' } }, { v: {} }],
  ['patternProperties', field({ type: 'object', patternProperties: { '^n_': { type: 'number' } } }), { v: { n_a: 1 } }, { v: { n_a: 'x' } }],
  ['additionalProperties', field({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }), { v: { a: 'x' } }, { v: { a: 'x', b: 1 } }],
  ['propertyNames', field({ type: 'object', propertyNames: { pattern: '^[a-z]+$' } }), { v: { abc: 1 } }, { v: { ABC: 1 } }],
  ['unevaluatedItems', field({ type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: false }), { v: ['a'] }, { v: ['a', 'b'] }],
  ['unevaluatedProperties', field({ type: 'object', allOf: [{ properties: { a: { type: 'string' } } }], unevaluatedProperties: false }), { v: { a: 'x' } }, { v: { a: 'x', b: 'y' } }],
  ['type', field({ type: ['string', 'null'] }), { v: null }, { v: 1 }],
  ['enum', field({ enum: ['a', 1, null] }), { v: 1 }, { v: 'b' }],
  ['const', field({ const: 'fixed' }), { v: 'fixed' }, { v: 'other' }],
  ['multipleOf', field({ type: 'number', multipleOf: 0.5 }), { v: 1.5 }, { v: 1.2 }],
  ['maximum + exclusiveMaximum', field({ type: 'number', maximum: 10, exclusiveMaximum: 10 }), { v: 9.5 }, { v: 10 }],
  ['minimum + exclusiveMinimum', field({ type: 'integer', minimum: 0, exclusiveMinimum: 0 }), { v: 1 }, { v: 0 }],
  ['maxLength + minLength', field({ type: 'string', minLength: 2, maxLength: 3 }), { v: 'ab' }, { v: 'abcd' }],
  ['pattern', field({ type: 'string', pattern: '^[0-9]+$' }), { v: '42' }, { v: '4a' }],
  ['maxItems + minItems', field({ type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 }), { v: [1] }, { v: [] }],
  ['uniqueItems', field({ type: 'array', items: { type: 'integer' }, uniqueItems: true }), { v: [1, 2] }, { v: [1, 1] }],
  ['maxProperties + minProperties', field({ type: 'object', minProperties: 1, maxProperties: 1 }), { v: { a: 1 } }, { v: { a: 1, b: 2 } }],
  ['dependentRequired', field({ type: 'object', properties: { card: { type: 'string' }, cvc: { type: 'string' } }, dependentRequired: { card: ['cvc'] } }), { v: { card: '4111', cvc: '123' } }, { v: { card: '4111' } }],
  ['format', field({ type: 'string', format: 'date-time' }), { v: '2026-11-30T12:00:00Z' }, { v: 'yesterday' }],
  ['contentEncoding + contentMediaType + contentSchema', field({ type: 'string', minLength: 1, contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: { type: 'object' } }), { v: 'e30=' }, { v: '' }],
  ['title + description + default + deprecated + readOnly + writeOnly + examples', field({ type: 'string', title: 'T', description: 'D', default: 'x', deprecated: true, readOnly: false, writeOnly: false, examples: ['a'] }), { v: 'a' }, { v: 2 }],
  ['$schema 2020-12 at the root', { $schema: 'https://json-schema.org/draft/2020-12/schema', ...field({ type: 'array', prefixItems: [{ type: 'string' }] }) }, { v: ['a'] }, { v: [1] }],
];

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

function schemaOf(entry: unknown): Record<string, unknown> {
  const e = entry as { function?: { parameters: object }; parameters?: object; input_schema?: object; inputSchema?: object };
  return (e.function?.parameters ?? e.parameters ?? e.input_schema ?? e.inputSchema) as Record<string, unknown>;
}

describe.each(CASES)('%s', (keyword, params, good, bad) => {
  const logger = { warn: jest.fn(), error: jest.fn() };
  const tools = new Tools({ logger });
  const seen: unknown[] = [];

  it('registers, validates a good value and refuses a bad one', async () => {
    tools.action({ name: 'k', description: 'K.', params: params as never, strict: false }, (p: unknown) => (seen.push(p), 'ok'));
    const ok = await tools.execute('k', good);
    expect(ok.error).toBeUndefined();
    expect(ok.ok).toBe(true);
    const refused = await tools.execute('k', bad);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^Invalid arguments for tool 'k'/);
    expect(seen).toHaveLength(1);
  });

  it.each(Object.entries(ToolSchemaFormat) as Array<[string, ToolFormat<unknown>]>)('%s lists it, or leaves it out naming the path', (_format, format) => {
    logger.warn.mockClear();
    const entries = tools.getSchema(format);
    if (entries.length === 0) {
      expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/the schema at #/));
      expect(format === ToolSchemaFormat.GEMINI || format === ToolSchemaFormat.OPENAI_STRICT || format === ToolSchemaFormat.OPENAI_RESPONSES_STRICT).toBe(true);
      return;
    }
    const schema = schemaOf(entries[0]);
    if (format === ToolSchemaFormat.GEMINI) return; // the OpenAPI subset: checked in gemini-schema.spec.ts and the property test
    // The JSON Schema formats send a schema that still accepts the good value and, not strict, still refuses the bad one.
    const validate = ajv.compile(schema);
    expect(validate(structuredClone(good))).toBe(true);
    if (!(entries[0] as { function?: { strict?: boolean }; strict?: boolean }).function?.strict && (entries[0] as { strict?: boolean }).strict !== true) {
      expect(validate(structuredClone(bad))).toBe(false);
    }
    expect(logger.warn).not.toHaveBeenCalled();
    void keyword;
  });
});

describe('dialects', () => {
  it('rewrites the draft-07 tuple of both TypeBox lines to prefixItems before compiling', async () => {
    const tuple = Type.Tuple([Type.String(), Type.Integer()]);
    expect(tuple).toMatchObject({ items: [{}, {}], additionalItems: false });
    const tools = new Tools();
    tools.action({ name: 't', description: 'T.', params: Type.Object({ pair: tuple }), strict: false }, () => 'ok');
    expect(tools.list()[0]!.parameters).toMatchObject({ properties: { pair: { prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } } });
    expect((await tools.execute('t', { pair: ['a', 1] })).ok).toBe(true);
    expect((await tools.execute('t', { pair: ['a', 1, 2] })).ok).toBe(false);
    expect((await tools.execute('t', { pair: [1, 'a'] })).ok).toBe(false);
  });

  it('toPrefixItems: additionalItems with a schema becomes items; a lone additionalItems is dropped; nothing to rewrite returns the input', () => {
    expect(toPrefixItems({ type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'number' } })).toEqual({ type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } });
    expect(toPrefixItems({ type: 'array', items: [{ type: 'string' }] })).toEqual({ type: 'array', prefixItems: [{ type: 'string' }] });
    expect(toPrefixItems({ type: 'array', items: { type: 'string' }, additionalItems: false })).toEqual({ type: 'array', items: { type: 'string' } });
    const plain = { type: 'array', items: { type: 'string' }, minItems: 1 };
    expect(toPrefixItems(plain)).toBe(plain);
  });

  it.each([
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-06/schema#', 'draft-07'],
    ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    [undefined, '2020-12'],
    ['http://json-schema.org/draft-04/schema#', undefined],
    [7, undefined],
  ])('$schema %s is %s', (declared, dialect) => {
    expect(dialectOf(declared === undefined ? {} : { $schema: declared })).toBe(dialect);
  });

  it('honours a declared draft-07: array-form items stays a tuple there, and MCP keeps $schema as written', async () => {
    const params = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false }, d: { $ref: '#/definitions/n' } }, definitions: { n: { type: 'number' } }, required: ['pair'] };
    const tools = new Tools();
    tools.action({ name: 'd7', description: 'D.', params: params as never, strict: false }, () => 'ok');
    expect((await tools.execute('d7', { pair: ['a', 1], d: 2 })).ok).toBe(true);
    expect((await tools.execute('d7', { pair: ['a', 1, 2] })).ok).toBe(false);
    expect((await tools.execute('d7', { pair: ['a', 1], d: 'x' })).ok).toBe(false);
    const [mcp] = tools.getSchema(ToolSchemaFormat.MCP);
    expect(mcp!.inputSchema).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', properties: { pair: { items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false }, d: { $ref: '#/$defs/n' } } });
    expect(Object.keys(mcp!.inputSchema)[0]).toBe('$schema');
    // Anthropic and OpenAI read 2020-12: the tuple is rewritten there, and no $schema is sent.
    const [anthropic] = tools.getSchema(ToolSchemaFormat.ANTHROPIC);
    expect(anthropic!.input_schema).not.toHaveProperty('$schema');
    expect(anthropic!.input_schema.properties.pair).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false });
  });

  it('MCP keeps a declared 2020-12 $schema; a schema without one is sent without one', () => {
    const tools = new Tools();
    tools.action({ name: 'a', description: 'A.', params: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} } as never }, () => 'ok');
    tools.action({ name: 'b', description: 'B.', params: Type.Object({}) }, () => 'ok');
    const [a, b] = tools.getSchema(ToolSchemaFormat.MCP);
    expect(a!.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(b!.inputSchema).not.toHaveProperty('$schema');
  });

  it('refuses a dialect the validator does not take, naming it', () => {
    const tools = new Tools();
    expect(() => tools.action({ name: 'd4', description: 'D.', params: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: {} } as never }, () => 'ok')).toThrow(ToolDefinitionError);
    expect(() => tools.action({ name: 'd4', description: 'D.', params: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: {} } as never }, () => 'ok')).toThrow(/names the dialect "http:\/\/json-schema.org\/draft-04\/schema#" in \$schema/);
  });

  it.each(['draft-07', '2020-12'])("takes MCP's x-mcp-header annotation (SEP-2243) in %s and validates the field as usual", async (dialect) => {
    const $schema = dialect === 'draft-07' ? 'http://json-schema.org/draft-07/schema#' : 'https://json-schema.org/draft/2020-12/schema';
    const tools = new Tools();
    tools.action({ name: 'h', description: 'H.', params: { $schema, type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] } as never }, () => 'ok');
    expect((await tools.execute('h', { region: 'eu' })).ok).toBe(true);
    expect((await tools.execute('h', { region: 3 })).ok).toBe(false);
  });

  it('still refuses an unknown keyword (Ajv strict mode), naming the tool', () => {
    expect(() => new Tools().action({ name: 'u', description: 'U.', params: { type: 'object', properties: { a: { type: 'string', minLenght: 2 } } } as never }, () => 'ok')).toThrow(/tool 'u'.*not valid JSON Schema.*minLenght/);
  });
});

describe('a default Ajv cannot apply', () => {
  it.each([
    ['anyOf', { a: { anyOf: [{ type: 'object', properties: { b: { type: 'string', default: 'x' } } }, { type: 'null' }] } }, '#/properties/a/anyOf/0/properties/b/default'],
    ['oneOf', { a: { type: 'object', properties: { b: { oneOf: [{ type: 'integer' }, { type: 'object', properties: { c: { type: 'string', default: 'y' } } }] } } } }, '#/properties/a/properties/b/oneOf/1/properties/c/default'],
    ['not', { a: { type: 'object', not: { type: 'object', properties: { z: { type: 'string', default: 'z' } }, required: ['z'] } } }, '#/properties/a/not/properties/z/default'],
  ])('on a field inside %s is refused at registration, naming its path', (_name, properties, path) => {
    const register = () => new Tools().action({ name: 'd', description: 'D.', params: { type: 'object', properties } as never, strict: false }, () => 'ok');
    expect(register).toThrow(ToolDefinitionError);
    expect(register).toThrow(`the params schema has a default at ${path} on a field inside anyOf, oneOf, not or if`);
  });

  it('a default on a union branch itself is not a field default and registers', () => {
    expect(() => new Tools().action({ name: 'd', description: 'D.', params: { type: 'object', properties: { a: { anyOf: [{ type: 'string', default: 'x' }, { type: 'null' }] } } } as never, strict: false }, () => 'ok')).not.toThrow();
  });
});
