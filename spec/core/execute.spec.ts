import { Type } from '@sinclair/typebox';
import { ActionResult, ToolContext, Tools } from '../../lib';

function addTools(logger = { warn: jest.fn(), error: jest.fn() }) {
  const tools = new Tools({ logger });
  tools.action(
    {
      name: 'add_numbers',
      description: 'Add two integers.',
      params: Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }, { additionalProperties: false }),
    },
    ({ a, b }) => a + b,
  );
  return { tools, logger };
}

describe('Tools.execute: expected failures are failed results', () => {
  it('lists the available tools for an unknown name', async () => {
    const { tools } = addTools();
    tools.action({ name: 'other', description: 'x' }, () => 1);
    const result = await tools.execute('nope', {});
    expect(result).toBeInstanceOf(ActionResult);
    expect(result.ok).toBe(false);
    expect(result.error).toBe("Unknown tool 'nope'. Available: add_numbers, other");
    expect((await new Tools().execute('x', {})).error).toBe("Unknown tool 'x'. Available: (none)");
  });

  it('reports every offending field on its own line with its path and why', async () => {
    const { tools } = addTools();
    const result = await tools.execute('add_numbers', { a: 'x', note: 5, extra: true });
    expect(result.error).toBe(
      [
        "Invalid arguments for tool 'add_numbers':",
        '- b: is required but missing',
        '- extra: is not an accepted field; remove it',
        '- a: must be integer, got string "x"',
        '- note: must be string, got number 5',
        'Fix these fields and call the tool again.',
      ].join('\n'),
    );
  });

  it('names nested paths, array indexes, enums, formats and union mismatches', async () => {
    const tools = new Tools();
    tools.action(
      {
        name: 'nested',
        description: 'x',
        params: Type.Object({
          items: Type.Array(Type.Object({ name: Type.String({ minLength: 2 }), kind: Type.Union([Type.Literal('a'), Type.Literal('b')]) })),
          mode: Type.Unsafe<string>({ type: 'string', enum: ['fast', 'slow'] }),
          site: Type.String({ format: 'uri' }),
          exact: Type.Literal(3),
        }),
      },
      () => 1,
    );
    const result = await tools.execute('nested', { items: [{ name: 'ok', kind: 'a' }, { name: 'x', kind: 'c' }], mode: 'medium', site: 'not a uri', exact: 4 });
    expect(result.error).toContain('- items[1].name: must NOT have fewer than 2 characters');
    expect(result.error).toContain('- items[1].kind: must match one of the allowed shapes, got string "c"');
    expect(result.error).not.toContain('must be equal to constant');
    expect(result.error).toContain('- mode: must be one of "fast", "slow", got string "medium"');
    expect(result.error).toContain('- site: must match format "uri", got string "not a uri"');
    expect(result.error).toContain('- exact: must be 3, got number 4');
  });

  it.each([
    [null, 'null'],
    [[1, 2], 'an array'],
    ['"just a string"', 'a string'],
    [42, 'a number'],
    ['[1]', 'an array'],
    [new Map(), 'a non-plain object'],
  ])('refuses arguments that are not a plain object: %p', async (args, kind) => {
    const { tools } = addTools();
    const result = await tools.execute('add_numbers', args);
    expect(result.error).toBe(`Arguments for tool 'add_numbers' must be a JSON object with named fields, got ${kind}.`);
  });

  it('accepts the JSON text a provider sends, and reports malformed or truncated JSON', async () => {
    const { tools } = addTools();
    expect((await tools.execute('add_numbers', '{"a":1,"b":2}')).result).toBe(3);
    const truncated = await tools.execute('add_numbers', '{"a":1,"b":');
    expect(truncated.ok).toBe(false);
    expect(truncated.error).toMatch(/^Arguments for tool 'add_numbers' are not valid JSON \(.+\)\. Send the arguments as one complete JSON object\.$/);
    const noArgs = new Tools();
    noArgs.action({ name: 'ping', description: 'x' }, () => 'pong');
    expect((await noArgs.execute('ping', '')).result).toBe('pong');
    expect((await noArgs.execute('ping', '{}')).result).toBe('pong');
  });

  it('turns an exception or rejected promise inside the tool into a failed result without a stack', async () => {
    const { tools, logger } = addTools();
    tools.action({ name: 'boom', description: 'x' }, () => {
      throw new Error('disk full\n    at secret/frame.ts:1');
    });
    tools.action({ name: 'reject', description: 'x' }, async () => Promise.reject(new TypeError('bad thing')));
    tools.action({ name: 'throws_string', description: 'x' }, () => {
      throw 'plain string';
    });
    expect((await tools.execute('boom', {})).error).toBe("Tool 'boom' failed: disk full");
    expect((await tools.execute('reject', {})).error).toBe("Tool 'reject' failed: bad thing");
    expect((await tools.execute('throws_string', {})).error).toBe("Tool 'throws_string' failed: plain string");
    expect(logger.warn).toHaveBeenCalledWith("Tool 'boom' threw: disk full", expect.objectContaining({ stack: expect.stringContaining('disk full') }));
  });

  it('logs an internal error with its stack and gives the model a short generic failure', async () => {
    const logger = { warn: jest.fn(), error: jest.fn() };
    const tools = new Tools({
      logger,
      middleware: [
        {
          handle: () => {
            throw new Error('bug in middleware');
          },
        },
      ],
    });
    tools.action({ name: 'ok', description: 'x' }, () => 1);
    const result = await tools.execute('ok', {});
    expect(result.error).toBe("Internal error while running tool 'ok'. It was logged; try again or use another tool.");
    expect(logger.error).toHaveBeenCalledWith("Internal error while executing tool 'ok': bug in middleware", expect.objectContaining({ stack: expect.stringContaining('bug in middleware') }));
  });
});

describe('arguments are untrusted data', () => {
  it('never pollutes prototypes through __proto__ or constructor keys', async () => {
    const tools = new Tools();
    let received: Record<string, unknown> = {};
    tools.action({ name: 'open', description: 'x', params: Type.Object({ data: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }) }, (params) => {
      received = params as Record<string, unknown>;
      return Object.keys(params).sort();
    });
    const text = '{"data":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}},"__proto__":{"polluted":true}}';
    const fromText = await tools.execute('open', text);
    expect(fromText.ok).toBe(true);
    const fromObject = await tools.execute('open', JSON.parse(text));
    expect(fromObject.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(received.data)).toBe(Object.prototype);
  });

  it('rejects __proto__ as an unknown field of a closed schema', async () => {
    const tools = new Tools();
    tools.action({ name: 'closed', description: 'x', params: Type.Object({ a: Type.Integer() }, { additionalProperties: false }) }, ({ a }) => a);
    const result = await tools.execute('closed', '{"a":1,"__proto__":{"x":1}}');
    expect(result.error).toContain('- __proto__: is not an accepted field');
  });

  it('applies defaults from the schema without mutating what the caller passed', async () => {
    const tools = new Tools();
    const seen: unknown[] = [];
    tools.action(
      { name: 'defaults', description: 'x', params: Type.Object({ opts: Type.Object({ limit: Type.Integer({ default: 5 }) }), tags: Type.Array(Type.String(), { default: [] }) }) },
      (params) => {
        seen.push(params);
        (params.opts as { limit: number }).limit = 99;
        return params;
      },
    );
    const args = Object.freeze({ opts: Object.freeze({}) });
    const result = await tools.execute('defaults', args);
    expect(result.result).toEqual({ opts: { limit: 99 }, tags: [] });
    expect(args).toEqual({ opts: {} });
  });
});

describe('results', () => {
  class TracedResult<T = unknown> extends ActionResult<T> {
    static override readonly fields = ActionResult.extendFields('traceId');
    declare readonly traceId?: string;
  }

  it('builds every result with the registry-wide result type, failures included', async () => {
    const tools = new Tools({ resultType: TracedResult });
    tools.action({ name: 'value', description: 'x' }, () => 'v');
    tools.action({ name: 'returns_base', description: 'x' }, () => ActionResult.fail('own failure'));
    tools.action({ name: 'returns_traced', description: 'x' }, () => TracedResult.success('traced', { traceId: 't-1' }));
    const results = await Promise.all([tools.execute('value', {}), tools.execute('missing', {}), tools.execute('value', []), tools.execute('returns_base', {}), tools.execute('returns_traced', {})]);
    for (const result of results) expect(result).toBeInstanceOf(TracedResult);
    expect(results[3]!.error).toBe('own failure');
    expect(results[4]!.traceId).toBe('t-1');
    expect(tools.declined('value')).toBeInstanceOf(TracedResult);
  });

  it('passes a returned ActionResult through unchanged', async () => {
    const tools = new Tools();
    const own = ActionResult.success({ rows: 2 });
    tools.action({ name: 'own', description: 'x' }, () => own);
    expect(await tools.execute('own', {})).toBe(own);
  });

  it('describes a declined call for the model', () => {
    expect(new Tools().declined('refund').error).toBe("The user declined to run tool 'refund'. Do not retry it unchanged; ask the user or take another approach.");
    expect(new Tools().declined('refund', 'too expensive').error).toBe("The user declined to run tool 'refund' (too expensive). Do not retry it unchanged; ask the user or take another approach.");
  });
});

describe('context and cancellation', () => {
  it('uses the call context over the active one, and setContext replaces the active one', async () => {
    class Greeting {
      constructor(readonly text: string) {}
    }
    const tools = new Tools({ context: new ToolContext(new Greeting('hello')), logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'greet', description: 'x', inject: { greeting: Greeting } }, (_p, { greeting }) => greeting.text);
    expect((await tools.execute('greet', {})).result).toBe('hello');
    expect((await tools.execute('greet', {}, { context: new ToolContext(new Greeting('bonjour')) })).result).toBe('bonjour');
    tools.setContext(new ToolContext(new Greeting('hallo')));
    expect(tools.context.resolve(Greeting)!.text).toBe('hallo');
    expect((await tools.execute('greet', {})).result).toBe('hallo');
    expect((await tools.execute('greet', {}, { context: new ToolContext() })).ok).toBe(false);
  });

  it('returns a cancelled result as soon as the caller aborts, and aborts the tool signal', async () => {
    const tools = new Tools();
    let toolSignal: AbortSignal | undefined;
    tools.action({ name: 'slow', description: 'x' }, (_p, _d, { signal }) => {
      toolSignal = signal;
      return new Promise(() => undefined);
    });
    const controller = new AbortController();
    const pending = tools.execute('slow', {}, { signal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(result.error).toBe("Tool 'slow' was cancelled before it finished.");
    expect(toolSignal!.aborted).toBe(true);
    expect((await tools.execute('slow', {}, { signal: controller.signal })).error).toBe("Tool 'slow' was cancelled before it started.");
  });

  it('with a signal that never fires, resolves values and rejections normally', async () => {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'fine', description: 'x' }, async () => 7);
    tools.action({ name: 'bad', description: 'x' }, async () => {
      throw new Error('nope');
    });
    const signal = new AbortController().signal;
    expect((await tools.execute('fine', {}, { signal })).result).toBe(7);
    expect((await tools.execute('bad', {}, { signal })).error).toBe("Tool 'bad' failed: nope");
  });
});

describe('results of other classes', () => {
  class Traced<T = unknown> extends ActionResult<T> {
    static override readonly fields = ActionResult.extendFields('traceId');
    declare readonly traceId?: string;
  }

  it('keeps the fields the registry type declares when a tool returns another result class', async () => {
    class Cited<T = unknown> extends ActionResult<T> {
      static override readonly fields = ActionResult.extendFields('citations');
    }
    const tools = new Tools({ resultType: Cited });
    tools.action({ name: 'traced', description: 'x' }, () => Traced.success('v', { traceId: 't' }));
    const result = await tools.execute('traced', {});
    expect(result).toBeInstanceOf(Cited);
    expect(result.toJSON()).toEqual({ ok: true, result: 'v' });
    const base = new Tools();
    base.action({ name: 'traced', description: 'x' }, () => Traced.success('v', { traceId: 't' }));
    expect(await base.execute('traced', {})).toBeInstanceOf(Traced);
  });

  it('turns a result type that throws while wrapping into an internal error, never a rejection', async () => {
    class Picky<T = unknown> extends ActionResult<T> {
      constructor(init: ConstructorParameters<typeof ActionResult>[0], trusted?: never) {
        if (init.result === 'boom') throw new Error('cannot wrap boom');
        super(init as never, trusted);
      }
    }
    const logger = { warn: jest.fn(), error: jest.fn() };
    const tools = new Tools({ resultType: Picky, logger });
    tools.action({ name: 'boom', description: 'x' }, () => 'boom');
    const result = await tools.execute('boom', {});
    expect(result.error).toBe("Internal error while running tool 'boom'. It was logged; try again or use another tool.");
    expect(logger.error).toHaveBeenCalled();
  });
});
