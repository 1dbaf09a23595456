// Provider rules enforced where a tool is listed, and at registration for the formats a registry declares: the root
// shape of the params schema, names, description lengths, field names and strict mode's size limits.
import { Type } from '@sinclair/typebox';
import type Anthropic from '@anthropic-ai/sdk';
import { ToolDefinitionError, ToolSchemaFormat, Tools } from '../../lib';
import type { ToolFormat } from '../../lib/tool/tool-format';

const ALL = Object.entries(ToolSchemaFormat) as Array<[string, ToolFormat<unknown>]>;
const JSON_SCHEMA_FORMATS = [ToolSchemaFormat.OPENAI, ToolSchemaFormat.OPENAI_RESPONSES, ToolSchemaFormat.ANTHROPIC, ToolSchemaFormat.MCP] as const;

function schemaOf(entry: unknown): Record<string, unknown> {
  const e = entry as { function?: { parameters: object }; parameters?: object; input_schema?: object; inputSchema?: object };
  return (e.function?.parameters ?? e.parameters ?? e.input_schema ?? e.inputSchema) as Record<string, unknown>;
}

function listed(format: ToolFormat<unknown>, params: object, options: { strict?: boolean; name?: string; description?: string } = {}) {
  const logger = { warn: jest.fn(), error: jest.fn() };
  const tools = new Tools({ logger });
  tools.action({ name: options.name ?? 't', description: options.description ?? 'T.', params: params as never, ...(options.strict === false ? { strict: false } : {}) }, () => 'ok');
  return { entries: tools.getSchema(format), warnings: logger.warn.mock.calls.map((c) => String(c[0])) };
}

describe('root shape', () => {
  const intersect = Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Optional(Type.Number()) })]);

  it.each(ALL)('%s: a Type.Intersect params schema is sent as one object, no allOf at the root', (_name, format) => {
    const { entries, warnings } = listed(format, intersect);
    expect(warnings).toEqual([]);
    const schema = schemaOf(entries[0]);
    expect(schema).not.toHaveProperty('allOf');
    expect(schema).not.toHaveProperty('anyOf');
    expect(schema).not.toHaveProperty('oneOf');
    expect(JSON.stringify(schema.type).toLowerCase()).toBe('"object"');
    expect(Object.keys(schema.properties as object)).toEqual(['a', 'b']);
    const strict = format === ToolSchemaFormat.OPENAI_STRICT || format === ToolSchemaFormat.OPENAI_RESPONSES_STRICT || format === ToolSchemaFormat.ANTHROPIC_STRICT;
    expect(schema.required).toEqual(strict ? ['a', 'b'] : ['a']);
  });

  it('the reported case: registration with formats [ANTHROPIC, MCP] sends Anthropic an input_schema it takes', () => {
    const tools = new Tools({ formats: [ToolSchemaFormat.ANTHROPIC, ToolSchemaFormat.MCP] });
    tools.action({ name: 'i', description: 'I.', params: intersect as never }, () => 'ok');
    const [tool] = tools.getSchema(ToolSchemaFormat.ANTHROPIC);
    const sdkTool: Anthropic.Tool = tool!;
    expect(sdkTool.input_schema).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] });
  });

  it('unevaluatedProperties: false beside a root allOf becomes additionalProperties: false', () => {
    const closed = Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })], { unevaluatedProperties: false });
    for (const format of JSON_SCHEMA_FORMATS) {
      const schema = schemaOf(listed(format, closed).entries[0]);
      expect(schema).toMatchObject({ additionalProperties: false, properties: { a: {}, b: {} } });
      expect(schema).not.toHaveProperty('unevaluatedProperties');
    }
  });

  it.each([
    ['anyOf', { type: 'object', anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] }, /the schema at # is a union \(anyOf\) at the root/],
    ['oneOf', { type: 'object', oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }] }, /the schema at # is a union \(oneOf\) at the root/],
    ['allOf of a union', { type: 'object', allOf: [{ anyOf: [{ type: 'object' }] }] }, /the schema at #\/allOf\/0 is part of an allOf/],
  ])('a root %s that cannot be merged is left out of every format with the path, and refused at registration when declared', (_name, schema, message) => {
    for (const [, format] of ALL) {
      const { entries, warnings } = listed(format, schema, { strict: false });
      if (format === ToolSchemaFormat.OPENAI_STRICT || format === ToolSchemaFormat.OPENAI_RESPONSES_STRICT) continue; // strict: false sends it non-strict
      expect(entries).toEqual([]);
      expect(warnings.join('\n')).toMatch(format === ToolSchemaFormat.GEMINI ? /Gemini/ : message);
      const tools = new Tools({ formats: [format] });
      expect(() => tools.action({ name: 'u', description: 'U.', params: schema as never, strict: false }, () => 'ok')).toThrow(ToolDefinitionError);
      expect(tools.list()).toEqual([]);
    }
  });
});

describe('names, descriptions and field names', () => {
  it('OpenAI: a description over 1,024 characters leaves the tool out of both OpenAI APIs, naming the length', () => {
    const description = 'x'.repeat(1025);
    for (const format of [ToolSchemaFormat.OPENAI, ToolSchemaFormat.OPENAI_STRICT, ToolSchemaFormat.OPENAI_RESPONSES, ToolSchemaFormat.OPENAI_RESPONSES_STRICT]) {
      const { entries, warnings } = listed(format, Type.Object({}), { description });
      expect(entries).toEqual([]);
      expect(warnings[0]).toMatch(/OpenAI cannot take this tool: its description is 1025 characters long, over the 1024/);
    }
    for (const format of [ToolSchemaFormat.ANTHROPIC, ToolSchemaFormat.GEMINI, ToolSchemaFormat.MCP]) expect(listed(format, Type.Object({}), { description }).entries).toHaveLength(1);
    expect(listed(ToolSchemaFormat.OPENAI, Type.Object({}), { description: 'x'.repeat(1024) }).entries).toHaveLength(1);
    const tools = new Tools({ formats: [ToolSchemaFormat.OPENAI] });
    expect(() => tools.action({ name: 'long', description, params: Type.Object({}) }, () => 'ok')).toThrow(/its description is 1025 characters long/);
  });

  it.each([
    ['a bracket', 'filter[id]'],
    ['a space', 'first name'],
    ['an at sign', '@type'],
    ["arktype's optional marker", 'cwd?'],
    ['a non-ASCII letter', 'naïve'],
    ['65 characters', 'a'.repeat(65)],
    ['the empty name', ''],
  ])('Anthropic: a top-level field named with %s is left out, naming the path, and refused when declared', (_name, key) => {
    const schema = { type: 'object', properties: { [key]: { type: 'string' } } };
    const { entries, warnings } = listed(ToolSchemaFormat.ANTHROPIC, schema, { strict: false });
    expect(entries).toEqual([]);
    expect(warnings[0]).toContain(`Anthropic cannot take this tool: the schema at #/properties/${key} is named '${key}'`);
    expect(listed(ToolSchemaFormat.MCP, schema, { strict: false }).entries).toHaveLength(1);
    expect(() => new Tools({ formats: [ToolSchemaFormat.ANTHROPIC] }).action({ name: 'f', description: 'F.', params: schema as never, strict: false }, () => 'ok')).toThrow(ToolDefinitionError);
  });

  it('Anthropic takes dots, dashes and 64-character field names, and nested names are not its concern', () => {
    const schema = { type: 'object', properties: { 'a.b-c_d': { type: 'string' }, ['a'.repeat(64)]: { type: 'object', properties: { 'x y': { type: 'string' } } } } };
    expect(listed(ToolSchemaFormat.ANTHROPIC, schema).entries).toHaveLength(1);
  });

  it.each(['9lives', '-dash'])('Gemini: a tool named %s is left out', (name) => {
    const { entries, warnings } = listed(ToolSchemaFormat.GEMINI, Type.Object({}), { name });
    expect(entries).toEqual([]);
    expect(warnings[0]).toMatch(new RegExp(`Gemini cannot take this tool: its name '${name}' is not`));
    expect(listed(ToolSchemaFormat.MCP, Type.Object({}), { name }).entries).toHaveLength(1);
  });
});

describe('OpenAI strict mode size limits', () => {
  const strict = (params: object) => listed(ToolSchemaFormat.OPENAI_STRICT, params);

  it('5,000 object properties in all: 5,000 listed, 5,001 refused naming the first field over', () => {
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, Type.Boolean()]));
    expect(() => new Tools().action({ name: 'ok', description: 'D.', params: Type.Object(fields(5000)) }, () => 'ok')).not.toThrow();
    expect(() => new Tools().action({ name: 'big', description: 'D.', params: Type.Object(fields(5001)) }, () => 'ok')).toThrow(/the schema at #\/properties\/f5000 is object property number 5001; strict mode takes at most 5000/);
    const nested = Type.Object({ a: Type.Object(fields(2500)), b: Type.Array(Type.Object(fields(2500))) });
    expect(() => new Tools().action({ name: 'nested', description: 'D.', params: nested }, () => 'ok')).toThrow(/#\/properties\/b\/items\/properties\/f2498 is object property number 5001/);
  });

  it('1,000 enum values in all, counted across fields', () => {
    const values = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    expect(strict({ type: 'object', properties: { a: { type: 'string', enum: values(500, 'a') }, b: { type: 'string', enum: values(499, 'b') } }, required: ['a', 'b'] }).entries).toHaveLength(1);
    expect(() => new Tools().action({ name: 'e', description: 'D.', params: { type: 'object', properties: { a: { type: 'string', enum: values(500, 'a') }, b: { type: 'string', enum: values(501, 'b') } }, required: ['a', 'b'] } as never }, () => 'ok')).toThrow(
      /#\/properties\/b\/enum brings the enum values to 1001; strict mode takes at most 1000/,
    );
  });

  it('an enum of more than 250 strings is at most 15,000 characters', () => {
    const long = Array.from({ length: 251 }, (_, i) => `${String(i).padStart(3, '0')}${'x'.repeat(57)}`); // 251 x 60 = 15,060
    expect(() => new Tools().action({ name: 'e', description: 'D.', params: { type: 'object', properties: { e: { type: 'string', enum: long } }, required: ['e'] } as never }, () => 'ok')).toThrow(
      /#\/properties\/e\/enum lists 251 strings of 15060 characters/,
    );
    const fewer = long.slice(0, 250).map((v) => v + 'y'.repeat(10)); // 250 values, 17,500 characters: the rule is for more than 250
    expect(strict({ type: 'object', properties: { e: { type: 'string', enum: fewer } }, required: ['e'] }).entries).toHaveLength(1);
  });

  it('120,000 characters of names and enum values in all', () => {
    const name = (i: number) => `${String(i).padStart(4, '0')}${'n'.repeat(60)}`; // 64 characters
    const fields = Object.fromEntries(Array.from({ length: 1876 }, (_, i) => [name(i), Type.Boolean()])); // 120,064
    expect(() => new Tools().action({ name: 'n', description: 'D.', params: Type.Object(fields) }, () => 'ok')).toThrow(/strict mode takes at most 120000/);
    const { [name(0)]: _dropped, ...fewer } = fields;
    expect(() => new Tools().action({ name: 'n', description: 'D.', params: Type.Object(fewer) }, () => 'ok')).not.toThrow(); // 120,000
  });

  it('a tool over the limits with strict: false is sent non-strict', () => {
    const fields = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`f${i}`, Type.Boolean()]));
    const { entries } = listed(ToolSchemaFormat.OPENAI_STRICT, Type.Object(fields), { strict: false });
    expect((entries[0] as { function: { strict: boolean } }).function.strict).toBe(false);
  });
});
