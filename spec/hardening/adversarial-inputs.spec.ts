/**
 * Adversarial inputs against undeclared-field stripping, Standard Schema adapters, binary results and blank failure
 * text: each case a user or a hostile model can produce, with variants of the same class.
 */
import { Type } from 'typebox';
import { ActionResult, ToolChunk, ToolResultState, ToolDefinitionError, ToolError, Tools, BLANK_FAILURE_TEXT } from '../../lib';
import { anthropicToolResult } from '../../lib/providers/anthropic';
import { geminiFunctionResponse } from '../../lib/providers/gemini';
import { mcpToolResult } from '../../lib/providers/mcp';
import { openAIChatToolMessage } from '../../lib/providers/openai';
import { BinaryContent } from '../../lib/media/binary-content';
import { isMediaType } from '../../lib/media/media-type';
import { constants } from 'node:buffer';
import { compileUndeclaredStripper } from '../../lib/schema/strip-undeclared';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });
const echo = async (params: unknown, args: unknown): Promise<unknown> => {
  const tools = new Tools({ logger: quiet() });
  tools.action({ name: 'a', description: 'd', params: params as never, strict: false }, (p: unknown) => p);
  const result = await tools.execute('a', args);
  expect(result.error).toBeUndefined();
  return result.result;
};

describe('undeclared fields: a union branch that takes any object keeps the fields', () => {
  it('with TypeBox: Type.Union([Type.Object({ kind }), Type.Object({})])', async () => {
    const params = Type.Object({ v: Type.Union([Type.Object({ kind: Type.Literal('a') }), Type.Object({})]) });
    expect(await echo(params, { v: { free: 1 } })).toEqual({ v: { free: 1 } });
  });

  it.each([
    ['a free-form object branch', { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: 'object' }] }],
    ['a free-form branch behind a $ref', { oneOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { $ref: '#/$defs/Free' }] }],
    ['an untyped branch', { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, {}] }],
    ['a type-list branch with object', { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: ['object', 'null'] }] }],
    ['an empty-properties branch (TypeBox Type.Object({}))', { anyOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: 'object', properties: {} }] }],
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
    ['definitions that are only references to each other', { params: { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } } }, /references #\/\$defs\/A -> #\/\$defs\/B -> #\/\$defs\/A lead back to themselves/],
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

describe('returns: a result with no JSON form', () => {
  const cyclic = () => {
    const value: Record<string, unknown> = { n: 1 };
    value.self = value;
    return value;
  };
  it.each([
    ['a bigint', () => ({ n: 1n })],
    ['a cycle', cyclic],
    ['a throwing toJSON', () => ({ n: 1, toJSON: () => { throw new Error('no'); } })],
  ])('%s: a failed result saying so, logged as the tool bug', async (_, value) => {
    const logger = quiet();
    const tools = new Tools({ logger });
    tools.action({ name: 'a', description: 'd', returns: { type: 'object', properties: { n: { type: 'number' } } } }, value);
    const result = await tools.execute('a', {});
    expect(result.error).toBe("Tool 'a' failed: its result has no JSON form (a bigint, a cycle, or a toJSON that throws), so it cannot match the output schema it declares (a bug in the tool, not in your arguments).");
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^Tool 'a' threw: /), expect.objectContaining({ stack: expect.stringMatching(/^CoreError: its result has no JSON form/) }));
  });

  it('a Date is its string and validates as one', async () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'a', description: 'd', returns: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, required: ['at'] } }, () => ({ at: new Date(0) }));
    expect((await tools.execute('a', {})).ok).toBe(true);
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

  it('bytes whose base64 text cannot fit in one string: a coded error where built, a note from the result builders', async () => {
    const huge = new Uint8Array(Math.floor(constants.MAX_STRING_LENGTH / 4) * 3 + 3);
    expect(() => ActionResult.file(huge)).toThrow(expect.objectContaining({ code: 'INVALID_RESULT', message: expect.stringMatching(/fits in one string/) }));
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'a', description: 'd' }, () => huge);
    const result = await tools.execute('a', {});
    expect(anthropicToolResult('i', result).content).toBe('(the tool returned an object, which has no JSON form)');
    expect(mcpToolResult(result).content).toEqual([{ type: 'text', text: '(the tool returned an object, which has no JSON form)' }]);
  });

  it('a media type is at most 255 characters', () => {
    expect(isMediaType(`image/png; x=${'a'.repeat(240)}`)).toBe(true);
    expect(isMediaType(`image/png; x=${'a'.repeat(250)}`)).toBe(false);
    expect(() => BinaryContent.from(new Uint8Array([1]), `image/png; x=${'a'.repeat(100_000)}`)).toThrow(expect.objectContaining({ code: 'INVALID_RESULT' }));
  });
});

describe('binary results: a declared image type the bytes contradict', () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
  const GIF = new TextEncoder().encode('GIF89a....');

  // Anthropic refuses the whole request: "The image was specified using the image/png media type, but the image appears
  // to be a image/jpeg image" (https://github.com/BerriAI/litellm/issues/24900, https://github.com/1jehuang/jcode/issues/465).
  it.each([
    ['JPEG bytes declared PNG', JPEG, 'image/png', 'image/jpeg'],
    ['PNG bytes declared JPEG', PNG, 'image/jpeg', 'image/png'],
    ['GIF bytes declared WebP', GIF, 'image/webp', 'image/gif'],
    ['image/jpg, which providers refuse', JPEG, 'image/jpg', 'image/jpeg'],
    ['an upper-case declared type', PNG, 'IMAGE/JPEG', 'image/png'],
  ])('%s: the bytes decide', async (_, bytes, declared, actual) => {
    expect(ActionResult.image(bytes, declared).result!.mediaType).toBe(actual);
    expect(ActionResult.file(bytes, declared).result!.mediaType).toBe(actual);
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'a', description: 'd' }, () => ActionResult.image(bytes, declared));
    const block = (anthropicToolResult('i', await tools.execute('a', {})).content as Array<{ source?: { media_type?: string } }>)[0]!;
    expect(block.source!.media_type).toBe(actual);
  });

  it.each([
    ['text declared PNG', new TextEncoder().encode('not an image'), 'image/png'],
    ['a truncated PNG signature declared PNG', PNG.subarray(0, 4), 'image/png'],
    ['empty bytes declared JPEG', new Uint8Array(0), 'image/jpeg'],
  ])('%s: refused where it is built, naming the type', (_, bytes, declared) => {
    expect(() => ActionResult.image(bytes, declared)).toThrow(expect.objectContaining({ code: 'INVALID_RESULT', message: expect.stringContaining(`'${declared}'`) }));
    expect(() => ActionResult.file(bytes, declared)).toThrow(expect.objectContaining({ code: 'INVALID_RESULT' }));
  });

  it('types the library does not recognise from bytes are taken as declared', () => {
    expect(ActionResult.image(new Uint8Array([0x42, 0x4d, 1]), 'image/bmp').result!.mediaType).toBe('image/bmp');
    expect(ActionResult.image(new TextEncoder().encode('<svg/>'), 'image/svg+xml').result!.mediaType).toBe('image/svg+xml');
    expect(ActionResult.file(PNG, 'application/octet-stream').result!.mediaType).toBe('application/octet-stream');
  });

  it('a streamed data block with a lying image type reaches every provider builder without throwing', async () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'a', description: 'd' }, async function* () {
      yield ToolChunk.text('shot: ');
      yield new ToolChunk({ content: [{ type: 'data', source: { type: 'base64', data: Buffer.from('not an image').toString('base64'), mediaType: 'image/png' } }], state: ToolResultState.SUCCESS });
    });
    const result = await tools.execute('a', {});
    expect(result.ok).toBe(true);
    const built = [anthropicToolResult('i', result), openAIChatToolMessage('i', result), mcpToolResult(result), geminiFunctionResponse({ id: 'i', name: 'a', args: {} }, result)];
    expect(JSON.stringify(built)).not.toContain('"image/png"');
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

describe('long arguments against a wide union: stripping costs one pass, not one schema walk per item', () => {
  // 50,000 items against a 60-branch union took 17 s in execute (about 2 s outside jest) before plans were remembered
  // and null-free items skipped. The work is counted here (reads of the schema); `npm run bench -- adversarial`
  // measures the speed.
  const branches = () => Array.from({ length: 60 }, (_, i) => ({ type: 'object', properties: { [`k${i}`]: { type: 'number' } } }));
  const items = (count: number) => Array.from({ length: count }, (_, i) => ({ [`k${i % 60}`]: i, junk: 1 }));

  /** The schema behind proxies that count every property read, at any depth (the same proxy for the same node). */
  function counted<T extends object>(schema: T): { schema: T; reads: () => number } {
    let reads = 0;
    const proxies = new WeakMap<object, object>();
    const wrap = (node: unknown): unknown => {
      if (node === null || typeof node !== 'object') return node;
      let proxy = proxies.get(node);
      if (proxy === undefined) {
        proxy = new Proxy(node, { get: (target, key, receiver) => (reads++, wrap(Reflect.get(target, key, receiver))) });
        proxies.set(node, proxy);
      }
      return proxy;
    };
    return { schema: wrap(schema) as T, reads: () => reads };
  }

  it('the undeclared-field stripper reads the schema as often for 50,000 items as for 60', () => {
    const readsFor = (count: number) => {
      const { schema, reads } = counted({ type: 'object', properties: { xs: { type: 'array', items: { anyOf: branches() } } } });
      const data = { xs: items(count) };
      compileUndeclaredStripper(schema as never)!(data);
      expect(data.xs.every((x) => !('junk' in x))).toBe(true);
      return reads();
    };
    const few = readsFor(60);
    expect(few).toBeGreaterThan(60);
    expect(readsFor(50_000)).toBe(few);
  });

  it('1 MB of arguments are parsed, stripped and passed on', async () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'a', description: 'd', strict: false, params: { type: 'object', properties: { xs: { type: 'array', items: { anyOf: branches() } } } } as never }, (p: { xs: unknown[] }) => p.xs[59]);
    const result = await tools.execute('a', JSON.stringify({ xs: items(50_000) }));
    expect(result.result).toEqual({ k59: 59 });
  });
});
