import { Type, type Static } from '@sinclair/typebox';
import {
  Action,
  ActionResult,
  collectChunks,
  FunctionTool,
  ToolBase,
  ToolChunk,
  ToolResponse,
  ToolResultState,
  Tools,
  toChunks,
  valueToChunk,
  type ChunkHandler,
  type Tool,
  type ToolChunkMiddleware,
  type ToolMiddleware,
} from '../../lib';
import { PermissionDecision } from '../../lib/permissions';

const { RUNNING, SUCCESS, ERROR, INTERRUPTED, DENIED } = ToolResultState;

describe('ToolResponse (seed 004 response rules)', () => {
  it('merges same-id text, joins consecutive text and keeps data apart', () => {
    const response = new ToolResponse()
      .append(ToolChunk.text('Hel', { blockId: 'a' }))
      .append(new ToolChunk({ content: [{ type: 'data', id: 'img', source: { type: 'base64', mediaType: 'image/png', data: Buffer.from('ab').toString('base64') } }] }))
      .append(ToolChunk.text('lo', { blockId: 'a' }))
      .append(new ToolChunk({ content: [{ type: 'data', id: 'img', name: 'pic', source: { type: 'base64', mediaType: '', data: Buffer.from('cd').toString('base64') } }] }))
      .append(ToolChunk.text(' world'));
    expect(response.content).toEqual([
      { type: 'text', text: 'Hello', id: 'a' },
      { type: 'data', id: 'img', name: 'pic', source: { type: 'base64', mediaType: 'image/png', data: Buffer.from('abcd').toString('base64') } },
      { type: 'text', text: ' world' },
    ]);
    expect(response.chunks).toBe(5);
  });

  it('appends a same-id block that cannot merge without its id, and later same-id text still merges', () => {
    const response = new ToolResponse()
      .append(new ToolChunk({ content: [{ type: 'data', id: 'x', source: { type: 'url', url: 'https://a' } }] }))
      .append(new ToolChunk({ content: [{ type: 'data', id: 'x', source: { type: 'url', url: 'https://b' } }] }))
      .append(ToolChunk.text('t', { blockId: 'x' }))
      .append(ToolChunk.text('1', { blockId: 'n' }))
      .append(ToolChunk.text('2', { blockId: 'n' }));
    expect(response.content).toEqual([
      { type: 'data', id: 'x', source: { type: 'url', url: 'https://a' } },
      { type: 'data', source: { type: 'url', url: 'https://b' } },
      { type: 'text', text: 't12' },
    ]);
  });

  it.each([
    [[SUCCESS, ERROR, SUCCESS], ERROR],
    [[ERROR, INTERRUPTED], ERROR],
    [[INTERRUPTED, DENIED], INTERRUPTED],
    [[DENIED, RUNNING, SUCCESS], DENIED],
    [[RUNNING], SUCCESS],
  ])('final state of %j is %s (worst wins)', (states, expected) => {
    const response = new ToolResponse();
    for (const state of states) response.append(new ToolChunk({ state }));
    expect(response.state).toBe(expected);
  });

  it('merges metadata, later chunks winning', () => {
    const response = new ToolResponse().append(new ToolChunk({ metadata: { a: 1, b: 1 } })).append(new ToolChunk({ metadata: { b: 2 } }));
    expect(response.metadata).toEqual({ a: 1, b: 2 });
  });

  it('becomes a result', () => {
    const result = (...chunks: ToolChunk[]) => chunks.reduce((r, c) => r.append(c), new ToolResponse()).toResult(ActionResult, 't');
    expect(result().toJSON()).toEqual({ ok: true, result: undefined });
    expect(result(ToolChunk.text('a'), ToolChunk.text('b')).result).toBe('ab');
    expect(result(ToolChunk.json({ n: 1 })).result).toEqual({ n: 1 });
    expect(result(ToolChunk.text('a'), ToolChunk.json(1)).result).toEqual([
      { type: 'text', text: 'a' },
      { type: 'data', source: { type: 'json', value: 1 } },
    ]);
    expect(result(ToolChunk.text('bad', { state: ERROR })).error).toBe('bad');
    expect(result(new ToolChunk({ state: ERROR })).error).toBe("Tool 't' failed without a message.");
    expect(result(new ToolChunk({ state: DENIED })).error).toBe("Tool 't' was denied.");
    expect(result(ToolChunk.text('no', { state: DENIED })).error).toBe('no');
    expect(result(ToolChunk.text('half'), new ToolChunk({ state: INTERRUPTED })).error).toBe("Tool 't' was cancelled before it finished. Output so far: half");
    expect(result(new ToolChunk({ state: INTERRUPTED })).error).toBe("Tool 't' was cancelled before it finished.");
  });

  it('turns plain values into one final chunk and back', async () => {
    for (const value of ['text', { a: 1 }, [1, 2], 3, undefined, ActionResult.success('ok'), ActionResult.fail('nope')]) {
      const response = await collectChunks(toChunks(Promise.resolve(value)), new AbortController().signal);
      const expected = value instanceof ActionResult ? value.toJSON() : { ok: true, result: value };
      expect(response.toResult(ActionResult, 't').toJSON()).toEqual(expected);
    }
    const chunk = ToolChunk.text('x');
    expect(valueToChunk(chunk)).toBe(chunk);
    const aborted = new AbortController();
    aborted.abort();
    expect((await collectChunks(toChunks('never read'), aborted.signal)).state).toBe(INTERRUPTED);
    expect(valueToChunk(ActionResult.fail(undefined as unknown as string)).state).toBe(ERROR);
  });
});

const Query = Type.Object({ query: Type.String() });

class Search {
  @Action('Search, streaming progress.', { params: Query })
  async *search({ query }: Static<typeof Query>): AsyncGenerator<ToolChunk | string> {
    yield `searching ${query}`;
    yield ToolChunk.text('; found 2', { metadata: { hits: 2 } });
    yield ToolChunk.json(['a', 'b'], { state: SUCCESS });
  }

  @Action('Plain.', { params: Query })
  plain({ query }: Static<typeof Query>): { query: string } {
    return { query };
  }

  @Action('Fails midway.', { params: Query })
  async *broken(): AsyncGenerator<string> {
    yield 'partial';
    throw new Error('disk gone');
  }
}

describe('tools.stream and execute of streaming tools', () => {
  it('yields chunks as they come and resolves the accumulated result', async () => {
    const tools = new Tools().register(new Search());
    const stream = tools.stream('search', { query: 'q' });
    const seen: string[] = [];
    for await (const chunk of stream) seen.push(chunk.content.map((b) => (b.type === 'text' ? b.text : JSON.stringify(b.source))).join(''));
    expect(seen).toEqual(['searching q', '; found 2', '{"type":"json","value":["a","b"]}', '']); // the last: the empty closing chunk
    const result = await stream.result;
    expect(result.ok).toBe(true);
    expect(result.result).toEqual([
      { type: 'text', text: 'searching q; found 2' },
      { type: 'data', source: { type: 'json', value: ['a', 'b'] } },
    ]);
    expect(await tools.execute('search', { query: 'q' })).toEqual(result);
  });

  it('streams a plain tool as one chunk and keeps its exact result', async () => {
    const tools = new Tools().register(new Search());
    const stream = tools.stream('plain', { query: 'q' });
    const chunks: ToolChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toEqual([{ type: 'data', source: { type: 'json', value: { query: 'q' } } }]);
    expect((await stream.result).result).toEqual({ query: 'q' });
  });

  it('yields one chunk built from a failure before the tool runs', async () => {
    const tools = new Tools().register(new Search());
    const stream = tools.stream('search', { query: 1 });
    const chunks: ToolChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.state)).toEqual([ERROR]);
    expect((await stream.result).error).toMatch(/query/);
  });

  it('fails with the exception of a stream that throws', async () => {
    const warn = jest.fn();
    const tools = new Tools({ logger: { warn, error: jest.fn() } }).register(new Search());
    expect((await tools.execute('broken', { query: 'q' })).error).toBe("Tool 'broken' failed: disk gone");
    const stream = tools.stream('broken', { query: 'q' });
    const texts: string[] = [];
    for await (const chunk of stream) texts.push(chunk.content.length ? (chunk.content[0] as { text: string }).text : chunk.state);
    expect(texts).toEqual(['partial', 'error']); // then the empty closing chunk in the ERROR state
    expect((await stream.result).error).toBe("Tool 'broken' failed: disk gone");
    expect(warn).toHaveBeenCalled();
  });

  it('cancels the call when the consumer stops reading', async () => {
    let aborted = false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tools = new Tools();
    tools.register(
      new FunctionTool(
        async function* ticker(_params, { signal }) {
          signal.addEventListener('abort', () => (aborted = true));
          yield 'one';
          await gate;
          yield 'two';
        },
        { description: 'ticks' },
      ),
    );
    const stream = tools.stream('ticker', {});
    for await (const chunk of stream) {
      expect(chunk.content).toEqual([{ type: 'text', text: 'one' }]);
      break;
    }
    const result = await stream.result;
    release();
    expect(aborted).toBe(true);
    expect(result.error).toBe("Tool 'ticker' was cancelled before it finished. Output so far: one");
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/once/);
  });

  it('honours a parent signal', async () => {
    const tools = new Tools().register(new Search());
    const controller = new AbortController();
    controller.abort();
    const stream = tools.stream('search', { query: 'q' }, { signal: controller.signal });
    expect((await stream.result).error).toMatch(/cancelled before it started/);
    const late = new AbortController();
    const tool = new FunctionTool(() => new Promise(() => undefined), { name: 'hang', description: 'never ends' });
    const hanging = new Tools().register(tool).stream('hang', {}, { signal: late.signal });
    late.abort();
    expect((await hanging.result).error).toBe("Tool 'hang' was cancelled before it finished.");
  });

  it('lets a registry middleware observe chunks through call.onChunk', async () => {
    const observed: string[] = [];
    const tap: ToolMiddleware = {
      handle: (call, next) => next(call.onChunk ? call.with({ onChunk: (chunk) => (observed.push(chunk.state), call.onChunk!(chunk)) }) : call),
    };
    const tools = new Tools({ middleware: [tap] }).register(new Search());
    const stream = tools.stream('search', { query: 'q' }, { callId: 'c1' });
    for await (const _ of stream) void _;
    expect(observed).toEqual([RUNNING, RUNNING, SUCCESS]);
  });
});

class Recorder implements ToolChunkMiddleware {
  constructor(private readonly label: string, private readonly log: string[]) {}
  async *onToolCall(tool: Tool, input: Record<string, unknown>, next: ChunkHandler): AsyncGenerator<ToolChunk> {
    this.log.push(`${this.label}:before:${tool.name}`);
    for await (const chunk of next({ ...input, trail: `${String(input.trail ?? '')}${this.label}` })) yield chunk;
    this.log.push(`${this.label}:after`);
  }
}

class Retry implements ToolChunkMiddleware {
  attempts = 0;
  async *onToolCall(_tool: Tool, input: Record<string, unknown>, next: ChunkHandler): AsyncGenerator<ToolChunk> {
    for (;;) {
      this.attempts++;
      try {
        const buffered: ToolChunk[] = [];
        for await (const chunk of next(input)) buffered.push(chunk);
        yield* buffered;
        return;
      } catch (error) {
        if (this.attempts >= 3) throw error;
      }
    }
  }
}

const Trail = Type.Object({ trail: Type.Optional(Type.String()) });

describe('per-tool middleware (seed 004: ToolMiddlewareBase)', () => {
  it('runs first-registered outermost, passes changed input inward, and yields chunks for a plain tool', async () => {
    const log: string[] = [];
    const tool = new FunctionTool(({ trail }: Static<typeof Trail>) => `body saw ${trail}`, {
      name: 'echo',
      description: 'echo',
      params: Trail,
      middlewares: [new Recorder('A', log), new Recorder('B', log)],
    });
    const registryLog: string[] = [];
    const outer: ToolMiddleware = {
      async handle(call, next) {
        registryLog.push('registry:before');
        const result = await next(call);
        registryLog.push('registry:after');
        return result;
      },
    };
    const tools = new Tools({ middleware: [outer] }).register(tool);
    const result = await tools.execute('echo', {});
    expect(result.result).toBe('body saw AB');
    expect(log).toEqual(['A:before:echo', 'B:before:echo', 'B:after', 'A:after']);
    expect(registryLog).toEqual(['registry:before', 'registry:after']);
  });

  it('fires when the tool is called outside any registry', async () => {
    const log: string[] = [];
    const tool = new FunctionTool(() => 'x', { name: 'solo', description: 'd', middlewares: [new Recorder('A', log)] });
    const chunks: ToolChunk[] = [];
    for await (const chunk of tool.stream({}, { context: new Tools().context, signal: new AbortController().signal })) chunks.push(chunk);
    expect(chunks.map((c) => c.content)).toEqual([[{ type: 'text', text: 'x' }]]);
    expect(log).toEqual(['A:before:solo', 'A:after']);
  });

  it('streams a tool without middleware directly, values in a stream as JSON', async () => {
    const tool = new FunctionTool(
      async function* numbers() {
        yield 1;
        yield 'two';
      },
      { description: 'd' },
    );
    const chunks: ToolChunk[] = [];
    for await (const chunk of tool.stream({}, { context: new Tools().context, signal: new AbortController().signal })) chunks.push(chunk);
    expect(chunks.map((c) => c.content[0])).toEqual([{ type: 'data', source: { type: 'json', value: 1 } }, { type: 'text', text: 'two' }]);
  });

  it('can retry a failing tool', async () => {
    let calls = 0;
    const retry = new Retry();
    const tool = new FunctionTool(
      () => {
        calls++;
        if (calls < 3) throw new Error('flaky');
        return 'third time';
      },
      { name: 'flaky', description: 'd', middlewares: [retry] },
    );
    const tools = new Tools().register(tool);
    expect((await tools.execute('flaky', {})).result).toBe('third time');
    expect(retry.attempts).toBe(3);
  });

  it('applies @Action middlewares and reports their exceptions as failures', async () => {
    const failing: ToolChunkMiddleware = {
      // eslint-disable-next-line require-yield
      async *onToolCall() {
        throw new Error('middleware broke');
      },
    };
    class WithMiddleware {
      @Action('d', { middlewares: [failing] })
      run(): string {
        return 'never';
      }
    }
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } }).register(new WithMiddleware());
    expect((await tools.execute('run', {})).error).toBe("Tool 'run' failed: middleware broke");
  });
});

describe('ToolBase', () => {
  it('requires call() unless external', () => {
    class NoCall extends ToolBase {
      constructor() {
        super({ name: 'NoCall', description: 'd', inputSchema: Type.Object({}) });
      }
      checkPermissions(): PermissionDecision {
        return PermissionDecision.allow('ok');
      }
    }
    expect(() => new NoCall()).toThrow(/implement call/);
  });
});
