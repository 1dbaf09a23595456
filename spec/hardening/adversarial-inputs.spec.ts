/**
 * Adversarial inputs against undeclared-field stripping, Standard Schema adapters, binary results and blank failure
 * text: each case a user or a hostile model can produce, with variants of the same class.
 */
import { ActionResult, anthropicToolResult, geminiFunctionResponse, mcpToolResult, openAIChatToolMessage, ToolDefinitionError, ToolError, Tools, BLANK_FAILURE_TEXT } from '../../lib';
import { BinaryContent } from '../../lib/media/binary-content';
import { isMediaType } from '../../lib/media/media-type';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });
const echo = async (params: unknown, args: unknown): Promise<unknown> => {
  const tools = new Tools({ logger: quiet() });
  tools.action({ name: 'a', description: 'd', params: params as never, strict: false }, (p: unknown) => p);
  const result = await tools.execute('a', args);
  expect(result.error).toBeUndefined();
  return result.result;
};

describe('undeclared fields: a union branch that takes any object keeps the fields', () => {
  it.each([
    ['a free-form object branch', { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: 'object' }] }],
    ['a free-form branch behind a $ref', { oneOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { $ref: '#/$defs/Free' }] }],
    ['an untyped branch', { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, {}] }],
    ['a type-list branch with object', { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: ['object', 'null'] }] }],
  ])('%s', async (_, v) => {
    const params = { type: 'object', properties: { v }, $defs: { Free: { type: 'object' } } };
    expect(await echo(params, { v: { free: 1, other: 'x' } })).toEqual({ v: { free: 1, other: 'x' } });
  });

  it('still strips where every object branch declares its fields, and a non-object branch does not open it', async () => {
    const params = { type: 'object', properties: { v: { anyOf: [{ type: 'object', properties: { a: { type: 'number' } } }, { type: 'object', properties: { b: { type: 'number' } } }, { type: 'string' }] } } };
    expect(await echo(params, { v: { a: 1, b: 2, c: 3 }, z: 1 })).toEqual({ v: { a: 1, b: 2 } });
  });
});

describe('schemas that are not JSON: cycles as objects, throwing Standard Schema adapters', () => {
  const cyclic = () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    return schema;
  };
  const std = (input: () => unknown, vendor: unknown = 'lib') => ({ '~standard': { version: 1, vendor, jsonSchema: { input, output: input } } });
  const register = (options: Record<string, unknown>) => () => new Tools({ logger: quiet() }).action({ name: 'a', description: 'd', ...options } as never, () => 1);

  it.each([
    ['a params object that contains itself', { params: cyclic() }, /the schema at #\/properties\/self refers back to #/],
    ['a default that contains itself', { params: { type: 'object', properties: { a: { type: 'object', default: (() => { const d: Record<string, unknown> = {}; d.d = d; return d; })() } } } }, /#\/properties\/a\/default\/d refers back to #\/properties\/a\/default/],
    ['a returns schema that contains itself', { returns: cyclic() }, /refers back/],
    ['a Standard Schema converter returning a cycle', { params: std(() => cyclic()) }, /refers back/],
    ['a Standard Schema converter throwing a value with no text', { params: std(() => { throw Object.create(null); }) }, /the lib schema has no JSON Schema form \(an error that could not be read\)/],
    ['a Standard Schema vendor that cannot be printed', { params: std(() => { throw new Error('no'); }, { toString: () => { throw new Error('x'); } }) }, /no JSON Schema form \(no\)/],
    ['a Standard Schema converter returning a promise', { params: std(() => Promise.resolve({ type: 'object' })) }, /converted to a Promise/],
    ['a ~standard getter that throws', { params: { get '~standard'() { throw new Error('boom'); } } }, /could not be read: boom/],
  ])('%s: a ToolDefinitionError naming it', (_, options, message) => {
    let error: unknown;
    try {
      register(options)();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('binary results: bytes that cannot be read', () => {
  const detached = () => {
    const buffer = new ArrayBuffer(8);
    structuredClone(buffer, { transfer: [buffer] });
    return buffer;
  };
  const detachedView = () => {
    const view = new Uint8Array(new ArrayBuffer(16), 4, 8);
    structuredClone(view.buffer, { transfer: [view.buffer] });
    return view;
  };

  it.each([['a detached ArrayBuffer', detached], ['a view of a detached buffer', detachedView]])('%s: ActionResult.image/file throw a coded error', (_, bytes) => {
    expect(() => ActionResult.file(bytes())).toThrow(expect.objectContaining({ code: 'INVALID_RESULT', message: expect.stringMatching(/detached/) }));
    expect(() => ActionResult.image(bytes(), 'image/png')).toThrow(expect.objectContaining({ code: 'INVALID_RESULT' }));
  });

  it.each([['a detached ArrayBuffer', detached], ['a view of a detached buffer', detachedView], ['a list holding one', () => [new Uint8Array([1]), detached()]]])('%s returned by a tool: every provider builder answers, none throws', async (_, bytes) => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'a', description: 'd' }, () => bytes());
    const result = await tools.execute('a', {});
    const built = [anthropicToolResult('i', result), openAIChatToolMessage('i', result), mcpToolResult(result), geminiFunctionResponse({ id: 'i', name: 'a', args: {} }, result)];
    expect(JSON.stringify(built)).toMatch(/no JSON form|no longer readable/);
  });

  it('a value with no JSON form is named with the right article', async () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'a', description: 'd' }, () => ({ n: 1n }));
    expect(anthropicToolResult('i', await tools.execute('a', {})).content).toBe('(the tool returned an object, which has no JSON form)');
  });

  it('a media type is at most 255 characters', () => {
    expect(isMediaType(`image/png; x=${'a'.repeat(240)}`)).toBe(true);
    expect(isMediaType(`image/png; x=${'a'.repeat(250)}`)).toBe(false);
    expect(() => BinaryContent.from(new Uint8Array([1]), `image/png; x=${'a'.repeat(100_000)}`)).toThrow(expect.objectContaining({ code: 'INVALID_RESULT' }));
  });
});

describe('blank failure text: invisible characters are blank too', () => {
  it.each(['\u200b', '\u0000', '\ufeff \u200d', '\u00ad', '\u2028', ' \t\u0007 '])('%j', async (text) => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'thrown', description: 'd' }, () => {
      throw new ToolError(text);
    });
    tools.action({ name: 'returned', description: 'd' }, () => ActionResult.fail(text));
    for (const result of [await tools.execute('thrown', {}), await tools.execute('returned', {}), ActionResult.fail(text)]) {
      expect(result.error).toBe(BLANK_FAILURE_TEXT);
      expect(anthropicToolResult('i', result)).toMatchObject({ content: BLANK_FAILURE_TEXT, is_error: true });
    }
    expect(tools.declined('a', text).error).toBe("The user declined to run tool 'a'. Do not retry it unchanged; ask the user or take another approach.");
  });

  it('text with a visible character is kept', () => {
    expect(ActionResult.fail('\u200bNo order.').error).toBe('\u200bNo order.');
  });
});
