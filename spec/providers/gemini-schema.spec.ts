import { Type } from '@sinclair/typebox';
import { toGeminiSchema } from '../../lib/providers/gemini';
import { ToolDefinitionError, ToolSchemaFormat, Tools } from '../../lib';

const gemini = (schema: object) => toGeminiSchema(JSON.parse(JSON.stringify(schema)), "tool 'g'");
const property = (schema: object) => gemini({ type: 'object', properties: { p: schema } }).properties!.p;

describe('toGeminiSchema: the OpenAPI subset', () => {
  it('writes type lists and null branches as nullable, and several types as anyOf', () => {
    expect(property({ type: ['string', 'null'] })).toEqual({ type: 'STRING', nullable: true });
    expect(property({ type: ['string', 'integer', 'null'], description: 'Id', minLength: 1 })).toEqual({ anyOf: [{ type: 'STRING', minLength: '1', nullable: true, description: 'Id' }, { type: 'INTEGER', nullable: true, description: 'Id' }] });
    expect(property({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] })).toEqual({ anyOf: [{ type: 'STRING', nullable: true }, { type: 'NUMBER', nullable: true }] });
    expect(property({ type: 'null' })).toEqual({ type: 'NULL' });
    expect(property({ enum: ['a', null] })).toEqual({ type: 'STRING', enum: ['a'], nullable: true });
    expect(property({ oneOf: [{ type: 'string', description: 'Only' }, { type: 'null' }] })).toEqual({ type: 'STRING', description: 'Only', nullable: true });
  });

  it('sends a union as anyOf alone (Gemini 3 and Vertex AI: "When using any_of, it must be the only field set"): description, nullable and default move into the branches', () => {
    expect(property({ type: ['string', 'number'], description: 'Id or index' })).toEqual({ anyOf: [{ type: 'STRING', description: 'Id or index' }, { type: 'NUMBER', description: 'Id or index' }] });
    expect(property({ type: ['string', 'number'], default: 'a' })).toEqual({ anyOf: [{ type: 'STRING', default: 'a' }, { type: 'NUMBER' }] });
    expect(property({ anyOf: [{ type: 'string', description: 'a name' }, { type: 'integer' }, { type: 'null' }], default: 3, description: 'Who' })).toEqual({
      anyOf: [{ type: 'STRING', description: 'Who a name', nullable: true }, { type: 'INTEGER', description: 'Who', nullable: true, default: 3 }],
    });
    expect(property({ anyOf: [{ type: ['string', 'integer'] }, { type: 'boolean' }], description: 'Nested' })).toEqual({ anyOf: [{ type: 'STRING', description: 'Nested' }, { type: 'INTEGER', description: 'Nested' }, { type: 'BOOLEAN', description: 'Nested' }] });
    expect(property({ anyOf: [{ type: ['string', 'integer'] }, { type: 'null' }], description: 'One left' })).toEqual({ anyOf: [{ type: 'STRING', description: 'One left', nullable: true }, { type: 'INTEGER', description: 'One left', nullable: true }] });
    expect(property({ type: ['integer', 'null'], default: null })).toEqual({ type: 'INTEGER', nullable: true, default: null });
    const referred = gemini({ type: 'object', $defs: { U: { type: ['string', 'boolean'] } }, properties: { u: { $ref: '#/$defs/U', description: 'A U' } } });
    expect(referred.properties!.u).toEqual({ anyOf: [{ type: 'STRING', description: 'A U' }, { type: 'BOOLEAN', description: 'A U' }] });
  });

  it('sends an enum with an empty string member (refused: "enum[N]: cannot be empty") as a plain string naming its values', () => {
    expect(property({ type: 'string', enum: ['list', ''] })).toEqual({ type: 'STRING', description: '(one of "list", "")' });
    expect(property({ const: '' })).toEqual({ type: 'STRING', description: '(always "")' });
    expect(property({ type: 'string', enum: [null] })).toEqual({ type: 'STRING', nullable: true });
  });

  it('keeps numeric bounds off non-numeric types (JSON Schema ignores them there; Gemini refuses them)', () => {
    expect(property({ type: 'string', minimum: 1 })).toEqual({ type: 'STRING' });
  });

  it('a union of null with null is NULL, without a redundant nullable (found by the property test)', () => {
    expect(property({ anyOf: [{ const: null, description: 'A field.' }, { type: 'null' }] })).toEqual({ type: 'NULL', description: 'A field.' });
    expect(property({ anyOf: [{ const: null }, { const: null }, { type: 'null' }] })).toEqual({ type: 'NULL' });
  });

  it('rewrites exclusive bounds: integers move by one, numbers keep the bound and say so', () => {
    expect(property({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10, minimum: -5 })).toEqual({ type: 'INTEGER', minimum: 1, maximum: 9 });
    expect(property({ type: 'integer', exclusiveMinimum: 0.5 })).toEqual({ type: 'INTEGER', minimum: 1 });
    expect(property({ type: 'number', exclusiveMaximum: 1, maximum: 0.5, description: 'Ratio' })).toEqual({ type: 'NUMBER', maximum: 0.5, description: 'Ratio (less than 1)' });
    expect(property({ type: 'number', minimum: 2, exclusiveMinimum: 1 })).toEqual({ type: 'NUMBER', minimum: 2, description: '(greater than 1)' });
  });

  it('keeps string enums, describes numeric and boolean ones, and keeps only the formats Gemini documents', () => {
    expect(property({ type: 'number', enum: [0.5, 1.5] })).toEqual({ type: 'NUMBER', minimum: 0.5, maximum: 1.5, description: '(one of 0.5, 1.5)' });
    expect(property({ type: 'boolean', const: false })).toEqual({ type: 'BOOLEAN', description: '(always false)' });
    expect(property({ anyOf: [{ const: 1 }, { const: 'a' }] })).toEqual({ anyOf: [{ type: 'INTEGER', minimum: 1, maximum: 1, description: '(always 1)' }, { type: 'STRING', enum: ['a'] }] });
    expect(property({ type: 'string', format: 'email', pattern: '^a', title: 'T', examples: ['a@b'] })).toEqual({ type: 'STRING', title: 'T', pattern: '^a', description: '(format: email)' });
    expect(property({ type: 'integer', format: 'int64' })).toEqual({ type: 'INTEGER', format: 'int64' });
    expect(property({ type: 'number', format: 'int64' })).toEqual({ type: 'NUMBER', description: '(format: int64)' });
  });

  it('inlines references (keeping a description beside them) and merges allOf objects', () => {
    const schema = gemini({ type: 'object', $defs: { A: { type: 'object', properties: { x: { type: 'string' } }, required: ['x', 'ghost'] } }, properties: { a: { $ref: '#/$defs/A', description: 'An A' } } });
    expect(schema.properties!.a).toEqual({ type: 'OBJECT', properties: { x: { type: 'STRING' } }, required: ['x'], description: 'An A' });
    expect(property(Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Number() })]))).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } }, required: ['a', 'b'] });
    expect(property({ type: 'object', properties: { k: { type: 'string' } }, additionalProperties: { type: 'string' }, maxProperties: 3 })).toEqual({ type: 'OBJECT', properties: { k: { type: 'STRING' } }, maxProperties: '3' });
  });

  it.each([
    ['recursion', Type.Object({ t: Type.Recursive((This) => Type.Object({ kids: Type.Array(This) })) }), /refers back to 'T\d+'.*recursive schema/],
    ['a map', { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } }, /#\/properties\/m is a map with free keys/],
    ['a tuple', Type.Object({ t: Type.Tuple([Type.String()]) }), /#\/properties\/t is a tuple/],
    ['items missing', { type: 'object', properties: { l: { type: 'array' } } }, /#\/properties\/l is an array without an item schema/],
    ['any type', Type.Object({ a: Type.Unknown() }), /#\/properties\/a accepts a value of any type/],
    ['a parameter name Gemini does not take', { type: 'object', properties: { 'dry-run': { type: 'boolean' } } }, /#\/properties\/dry-run is named 'dry-run'/],
    ['fields beside a union', { type: 'object', properties: { u: { type: 'object', properties: { id: { type: 'string' } }, oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }] } } }, /#\/properties\/u has fields of its own beside its union/],
    ['a boolean schema', { type: 'object', properties: { b: false } }, /#\/properties\/b is the boolean schema false/],
    ['an allOf of non-objects', { type: 'object', properties: { b: { allOf: [{ type: 'string' }] } } }, /#\/properties\/b\/allOf\/0 is part of an allOf/],
  ])('refuses %s, naming the tool and the path', (_name, schema, message) => {
    expect(() => gemini(schema)).toThrow(ToolDefinitionError);
    expect(() => gemini(schema)).toThrow(/^tool 'g': the params schema cannot be sent to Gemini: /);
    expect(() => gemini(schema)).toThrow(message);
  });
});

describe('Gemini at registration', () => {
  it('leaves out a tool whose name Gemini does not take, or refuses it at registration when Gemini is a declared format', () => {
    const logger = { warn: jest.fn(), error: jest.fn() };
    const tools = new Tools({ logger });
    tools.action({ name: '-dash', description: 'Dash.' }, () => 'ok');
    expect(tools.getSchema(ToolSchemaFormat.GEMINI)).toEqual([]);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/Gemini cannot take this tool: its name '-dash' is not .*starting with a letter or '_'/));
    const strictTools = new Tools({ formats: [ToolSchemaFormat.GEMINI, ToolSchemaFormat.MCP] });
    const Tree = Type.Recursive((This) => Type.Object({ kids: Type.Array(This) }));
    expect(() => strictTools.action({ name: 'tree', description: 'Tree.', params: Type.Object({ tree: Tree }) }, () => 'ok')).toThrow(/tool 'tree': the params schema cannot be sent to Gemini: .*recursive/);
    expect(strictTools.list()).toEqual([]);
    strictTools.action({ name: 'flat', description: 'Flat.', params: Type.Object({ a: Type.String() }) }, () => 'ok');
    expect(() => strictTools.merge(tools)).toThrow(/its name '-dash' is not/);
    expect(strictTools.list().map((t) => t.name)).toEqual(['flat']);
  });
});
