/**
 * Listing features: Anthropic strict tool use, `input_examples` from `examples` (checked against the params schema at
 * registration), `cache_control` on the last tool; MCP `title`, `icons` and `_meta`.
 */
import 'reflect-metadata';
import type Anthropic from '@anthropic-ai/sdk';
import type { ListToolsResult, Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import { Type, type Static } from '@sinclair/typebox';
import { Action, ToolDefinitionError, Tools, ToolSchemaFormat } from '../../lib';
import { anthropicStrictFormat, anthropicTools } from '../../lib/providers/anthropic';
import { mcpListTools } from '../../lib/providers/mcp';

const Refund = Type.Object({
  orderId: Type.String({ minLength: 3 }),
  amount: Type.Number({ minimum: 0, maximum: 500 }),
  reasons: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { minItems: 2, maxItems: 5 })),
});

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });

describe('Anthropic: strict tool use', () => {
  it('sends strict: true with the strict schema minus what strict mode does not take, noted in descriptions', () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'refund', description: 'Refund.', params: Refund }, () => 'ok');
    const [entry] = tools.getSchema(ToolSchemaFormat.ANTHROPIC_STRICT) satisfies Anthropic.Tool[];
    expect(entry).toEqual({
      name: 'refund',
      description: 'Refund.',
      strict: true,
      input_schema: {
        type: 'object',
        properties: {
          orderId: { type: 'string', description: '(at least 3 characters)' },
          amount: { type: 'number', description: '(at least 0; at most 500)' },
          reasons: { type: ['array', 'null'], items: { type: 'string', description: '(at most 40 characters)' }, description: '(at least 2 items; at most 5 items)' },
        },
        required: ['orderId', 'amount', 'reasons'],
        additionalProperties: false,
      },
    });
  });

  it('the plain format sends no strict flag; a tool opted out is strict: false in the strict format', () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'loose', description: 'Loose.', params: Type.Object({ m: Type.Record(Type.String(), Type.String()) }), strict: false }, () => 'ok');
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC)[0]).not.toHaveProperty('strict');
    expect(tools.getSchema(anthropicStrictFormat)[0]).toEqual({ ...tools.getSchema(ToolSchemaFormat.ANTHROPIC)[0], strict: false });
  });

  it('a recursive schema cannot be strict: left out with a reason, or refused when the registry declares the format', () => {
    const Node = Type.Recursive((This) => Type.Object({ name: Type.String(), children: Type.Array(This) }), { $id: 'Node' });
    const params = Type.Object({ root: Node });
    const log = quiet();
    const tools = new Tools({ logger: log });
    tools.action({ name: 'tree', description: 'Tree.', params }, () => 'ok');
    expect(tools.getSchema(anthropicStrictFormat)).toEqual([]);
    expect(log.warn).toHaveBeenCalledWith(expect.stringMatching(/'tree' is left out of the anthropic-strict listing: .*recursive schemas.*#\/\$defs\/Node/));
    const declared = new Tools({ logger: quiet(), formats: [anthropicStrictFormat] });
    expect(() => declared.action({ name: 'tree', description: 'Tree.', params }, () => 'ok')).toThrow(ToolDefinitionError);
  });
});

describe('Anthropic strict: references', () => {
  it('a definition reused through a chain is not recursion; a cycle through another definition is', () => {
    const tools = new Tools({ logger: quiet() });
    const chain = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/B' }, list: { type: 'array', items: [{ $ref: '#/$defs/B' }] } },
      required: ['a'],
      $defs: { A: { type: 'object', properties: { b: { $ref: '#/$defs/B' }, b2: { $ref: '#/$defs/B' } } }, B: { type: 'object', properties: { n: { type: 'integer', multipleOf: 2 } } } },
    } as const;
    tools.action({ name: 'chain', description: 'Chain.', params: chain, strict: false }, () => 'ok');
    const log = quiet();
    const cyclic = new Tools({ logger: log });
    cyclic.action(
      {
        name: 'cycle',
        description: 'Cycle.',
        params: { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } }, B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } } } },
      },
      () => 'ok',
    );
    expect(cyclic.getSchema(anthropicStrictFormat)).toEqual([]);
    expect(log.warn).toHaveBeenCalledWith(expect.stringMatching(/#\/\$defs\/A refers to itself/));
    const strictChain = new Tools({ logger: quiet() });
    strictChain.action({ name: 'chain', description: 'Chain.', params: { ...chain, properties: { a: chain.properties.a, b: chain.properties.b } } }, () => 'ok');
    const [entry] = strictChain.getSchema(anthropicStrictFormat);
    expect(entry!.strict).toBe(true);
    expect(entry!.input_schema.$defs).toMatchObject({ B: { properties: { n: { description: '(a multiple of 2)' } } } });
  });
});

describe('Anthropic: input_examples from the examples option', () => {
  it('sends the examples as written (defaults not applied)', () => {
    const tools = new Tools({ logger: quiet() });
    const P = Type.Object({ city: Type.String(), unit: Type.Optional(Type.Union([Type.Literal('C'), Type.Literal('F')], { default: 'C' })) });
    tools.action({ name: 'weather', description: 'Weather.', params: P, examples: [{ city: 'Paris' }, { city: 'Austin', unit: 'F' }] }, () => 'ok');
    const list = tools.getSchema(ToolSchemaFormat.ANTHROPIC) satisfies Anthropic.Tool[];
    expect(list[0]!.input_examples).toEqual([{ city: 'Paris' }, { city: 'Austin', unit: 'F' }]);
    // Strict: in the form the strict schema takes (an omitted optional field as null; see anthropic-strict-limits.spec.ts).
    expect(tools.getSchema(anthropicStrictFormat)[0]!.input_examples).toEqual([{ city: 'Paris', unit: null }, { city: 'Austin', unit: 'F' }]);
    expect(JSON.stringify(tools.getSchema(ToolSchemaFormat.OPENAI))).not.toContain('Austin');
    expect(JSON.stringify(tools.getSchema(ToolSchemaFormat.MCP))).not.toContain('Austin');
  });

  it.each([
    ['a wrong type', [{ orderId: 'o-1', amount: 5 }, { orderId: 'o-2', amount: 'five' }], /examples\[1\] does not match the params schema: - amount: must be number, got string "five"/],
    ['a missing field', [{ orderId: 'o-1' }], /examples\[0\] does not match the params schema: - amount: is required but missing/],
    ['a violated constraint', [{ orderId: 'o', amount: 5 }], /examples\[0\] does not match the params schema: - orderId: /],
    ['an array instead of an object', [[1, 2]], /examples\[0\] must be an object of params, got an array/],
    ['a string', ['refund o-1'], /examples\[0\] must be an object of params, got string/],
  ])('refuses %s at registration, naming the example and why', (_name, examples, message) => {
    const tools = new Tools({ logger: quiet() });
    const register = () => tools.action({ name: 'refund', description: 'Refund.', params: Refund, examples: examples as never }, () => 'ok');
    expect(register).toThrow(ToolDefinitionError);
    expect(register).toThrow(message);
    expect(tools.get('refund')).toBeUndefined();
  });

  it('works on @Action, typed by the params schema', () => {
    class Billing {
      @Action('Refund an order.', { params: Refund, examples: [{ orderId: 'o-123', amount: 10 }] })
      refund(_params: Static<typeof Refund>) {
        return 'ok';
      }
    }
    const tools = new Tools({ logger: quiet() });
    tools.register(new Billing());
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC)[0]!.input_examples).toEqual([{ orderId: 'o-123', amount: 10 }]);
  });
});

describe('Anthropic: cache_control on the last tool', () => {
  it('anthropicTools sets it on a copy of the last entry only', () => {
    const tools = new Tools({ logger: quiet() });
    for (const name of ['a', 'b', 'c']) tools.action({ name, description: `${name}.`, params: Type.Object({}) }, () => name);
    const list = anthropicTools(tools, { cacheControl: { type: 'ephemeral', ttl: '1h' } }) satisfies Anthropic.Tool[];
    expect(list.map((t) => t.cache_control)).toEqual([undefined, undefined, { type: 'ephemeral', ttl: '1h' }]);
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC)[2]).not.toHaveProperty('cache_control');
    expect(anthropicTools(tools, { strict: true })[0]).toMatchObject({ strict: true });
    expect(anthropicTools(tools)).toEqual(tools.getSchema(ToolSchemaFormat.ANTHROPIC));
    expect(anthropicTools(new Tools(), { cacheControl: { type: 'ephemeral' } })).toEqual([]);
  });
});

describe('MCP: title, icons and _meta', () => {
  it('come from the options; annotations as before', () => {
    const tools = new Tools({ logger: quiet() });
    tools.action(
      {
        name: 'refund',
        description: 'Refund.',
        params: Refund,
        title: 'Refund an order',
        icons: [{ src: 'https://example.com/refund.png', mimeType: 'image/png', sizes: ['48x48'] }, { src: 'data:image/svg+xml;base64,PHN2Zy8+', theme: 'dark' }],
        meta: { 'example.com/team': 'billing' },
        requiresApproval: true,
      },
      () => 'ok',
    );
    tools.action({ name: 'plain', description: 'Plain.', params: Type.Object({}) }, () => 'ok');
    const listed = mcpListTools(tools) satisfies ListToolsResult;
    const [refund, plain] = listed.tools satisfies McpSdkTool[];
    expect(refund).toMatchObject({
      name: 'refund',
      title: 'Refund an order',
      icons: [{ src: 'https://example.com/refund.png', mimeType: 'image/png', sizes: ['48x48'] }, { src: 'data:image/svg+xml;base64,PHN2Zy8+', theme: 'dark' }],
      _meta: { 'example.com/team': 'billing' },
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
    expect(Object.keys(plain!)).toEqual(['name', 'description', 'inputSchema', 'annotations']);
    // Never in a model-facing schema of another format.
    const others = JSON.stringify([tools.getSchema(ToolSchemaFormat.OPENAI), tools.getSchema(ToolSchemaFormat.ANTHROPIC), tools.getSchema(ToolSchemaFormat.GEMINI)]);
    expect(others).not.toMatch(/Refund an order|example\.com|billing/);
  });

  it('an icon field or option given as undefined is left out, not listed as undefined', () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'icon', description: 'Icon.', title: undefined, meta: undefined, icons: [{ src: 'https://example.com/i.png', mimeType: undefined, sizes: undefined, theme: undefined }] }, () => 'ok');
    const [entry] = mcpListTools(tools).tools;
    expect(entry!.icons).toStrictEqual([{ src: 'https://example.com/i.png' }]);
    expect(Object.keys(entry!)).toEqual(['name', 'icons', 'description', 'inputSchema', 'annotations']);
    const cached = new Tools({ logger: quiet() });
    cached.action({ name: 'c', description: 'C.' }, () => 'ok');
    expect(anthropicTools(cached, { cacheControl: { type: 'ephemeral', ttl: undefined } })[0]!.cache_control).toStrictEqual({ type: 'ephemeral' });
  });

  it.each([
    ['a blank title', { title: ' ' }, /'title' must be a non-empty string/],
    ['an icon without src', { icons: [{ mimeType: 'image/png' }] }, /icons\[0\] needs a 'src'/],
    ['meta that is not an object', { meta: ['x'] }, /'meta' must be a plain object/],
  ])('refuses %s at registration', (_name, options, message) => {
    const tools = new Tools({ logger: quiet() });
    expect(() => tools.action({ name: 't', description: 'T.', ...(options as object) }, () => 'ok')).toThrow(message);
  });
});
