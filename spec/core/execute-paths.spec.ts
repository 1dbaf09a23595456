import { Type } from '@sinclair/typebox';
import { ActionResult, BLANK_FAILURE_TEXT, ToolChunk, Tools, type ToolMiddleware } from '../../lib';
import { isBlankError } from '../../lib/result';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });

/** A registry with one tool per body shape: sync and async values, throws, rejections and streams. */
function registry(options: { middleware?: ToolMiddleware[] } = {}): Tools {
  const tools = new Tools({ logger: quiet(), ...options });
  const params = Type.Object({ a: Type.Integer(), note: Type.Optional(Type.String()) }, { additionalProperties: false });
  tools.action({ name: 'sync_value', description: 'Returns at once.', params }, ({ a, note }) => `${a}:${note ?? '-'}`);
  tools.action({ name: 'async_value', description: 'Returns a promise.', params }, async ({ a }) => a * 2);
  tools.action({ name: 'sync_throw', description: 'Throws.', params }, () => {
    throw new Error('sync boom');
  });
  tools.action({ name: 'async_reject', description: 'Rejects.', params }, async () => {
    throw new Error('async boom');
  });
  tools.action({ name: 'sync_stream', description: 'Returns a stream at once.', params }, () => streamOf('x', 'y'));
  tools.action({ name: 'async_stream', description: 'Resolves to a stream.', params }, async () => streamOf('p', 'q'));
  tools.action({ name: 'async_failed', description: 'Resolves to a failed result.', params }, async () => ActionResult.fail('no such row'));
  tools.action({ name: 'sync_unreadable', description: 'Returns a value no check can read.', params }, () => unreadable());
  tools.action({ name: 'async_unreadable', description: 'Resolves to a value no check can read.', params }, async () => unreadable());
  return tools;
}

async function* streamOf(...parts: string[]): AsyncIterable<ToolChunk> {
  for (const part of parts) yield ToolChunk.text(part);
}

/** An object whose every property read throws (a revoked Proxy would too). */
function unreadable(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('unreadable');
      },
    },
  );
}

describe('execute: the plain invoke path answers every body shape with a result', () => {
  it.each([
    ['sync_value', { a: 1 }, { ok: true, result: '1:-' }],
    ['async_value', { a: 2 }, { ok: true, result: 4 }],
    ['sync_throw', { a: 1 }, { ok: false, error: "Tool 'sync_throw' failed: sync boom" }],
    ['async_reject', { a: 1 }, { ok: false, error: "Tool 'async_reject' failed: async boom" }],
    ['sync_stream', { a: 1 }, { ok: true, result: 'xy' }],
    ['async_stream', { a: 1 }, { ok: true, result: 'pq' }],
    ['async_failed', { a: 1 }, { ok: false, error: 'no such row' }],
  ])('%s', async (name, args, expected) => {
    const tools = registry();
    const seen = new Set<ActionResult>();
    for (const signal of [undefined, new AbortController().signal, undefined]) {
      const result = await tools.execute(name, args, { signal });
      expect(result).toBeInstanceOf(ActionResult);
      expect(result.toJSON()).toEqual(expected);
      // Each call answers with its own result object: what one consumer does with it never reaches another call's.
      expect(seen.has(result)).toBe(false);
      seen.add(result);
    }
  });

  it.each(['sync_unreadable', 'async_unreadable'])('%s: a value that throws when inspected is a failed result, never a rejection', async (name) => {
    const result = await registry().execute(name, { a: 1 });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(new RegExp(`^Tool '${name}' failed: unreadable$`));
  });

  it('a second registry holding the same tool answers with its own result class', async () => {
    class Traced<T = unknown> extends ActionResult<T> {
      static override readonly fields = ActionResult.extendFields('traceId');
      declare readonly traceId?: string;
    }
    const first = registry();
    const second = new Tools({ resultType: Traced, logger: quiet() });
    second.merge(first);
    expect(await first.execute('async_value', { a: 3 })).not.toBeInstanceOf(Traced);
    expect(await second.execute('async_value', { a: 3 })).toBeInstanceOf(Traced);
    expect((await second.execute('async_reject', { a: 3 })).error).toBe("Tool 'async_reject' failed: async boom");
  });

  it('names the call as the middleware passed it on, for a body that rejects', async () => {
    const rename: ToolMiddleware = { handle: (call, next) => next(call.with({ name: 'renamed_call' })) };
    const result = await registry({ middleware: [rename] }).execute('async_reject', { a: 1 });
    expect(result.error).toBe("Tool 'renamed_call' failed: async boom");
  });
});

describe('execute: nulls and copies', () => {
  it.each([
    ['an object with a null optional field', { a: 1, note: null }],
    ['JSON text with a null optional field', '{"a":1,"note":null}'],
  ])('strips the null of an omitted optional field from %s', async (_label, args) => {
    expect((await registry().execute('sync_value', args)).toJSON()).toEqual({ ok: true, result: '1:-' });
  });

  it('keeps the word null inside a JSON string value as text', async () => {
    expect((await registry().execute('sync_value', '{"a":1,"note":"null"}')).toJSON()).toEqual({ ok: true, result: '1:null' });
  });

  it('reads a null-prototype object like a plain one, nulls included', async () => {
    const args = Object.assign(Object.create(null) as Record<string, unknown>, { a: 5, note: null });
    expect((await registry().execute('sync_value', args)).toJSON()).toEqual({ ok: true, result: '5:-' });
    expect(args.note).toBeNull();
  });

  it('reports invalid arguments with one line per field, for object and JSON text alike', async () => {
    const tools = registry();
    const expected = "Invalid arguments for tool 'sync_value':\n- extra: is not an accepted field; remove it\n- a: must be integer, got string \"x\"\nFix these fields and call the tool again.";
    expect((await tools.execute('sync_value', { a: 'x', extra: 1 })).error).toBe(expected);
    expect((await tools.execute('sync_value', '{"a":"x","extra":1}')).error).toBe(expected);
  });
});

describe('isBlankError: visible text at either end answers without a scan, the rest is scanned', () => {
  it.each([
    ['', true],
    ['   ', true],
    ['\u200b\ufeff\u00a0', true],
    ['\u200b x \u200b', false],
    [' trailing visible.', false],
    ['visible leading ', false],
    ['\u00e9', false],
    ['\u00a0\u00e9\u00a0', false],
  ])('%j is blank: %s', (text, blank) => {
    expect(isBlankError(text)).toBe(blank);
    expect(new ActionResult({ ok: false, error: text }).error).toBe(blank ? BLANK_FAILURE_TEXT : text);
  });
});
