import { Type, type Static } from '@sinclair/typebox';
import { Action, Inject, InjectionToken, Param, RequiresApproval, ToolContext, ToolDefinitionError, ToolEffect, ToolGroup, Tools } from '../../lib';

class SearchClient {
  search(query: string, limit: number): string[] {
    return Array.from({ length: limit }, (_, i) => `${query}#${i}`);
  }
}
class FancySearchClient extends SearchClient {}

const SearchParams = Type.Object({
  query: Type.String({ description: 'What to search for' }),
  limit: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
});

class Knowledge {
  @Action('Search the knowledge base.', { params: SearchParams, status: 'Searching for {query}...', effects: [ToolEffect.NETWORK], tags: ['kb'], metadata: { owner: 'kb-team' } })
  search(params: Static<typeof SearchParams>, @Inject(SearchClient) client: SearchClient): string[] {
    return client.search(params.query, params.limit);
  }

  @Action('Add two integers.')
  add(@Param('a', Type.Integer()) a: number, @Param('b', Type.Integer()) b: number): number {
    return a + b;
  }

  @Action('Greets someone.', { name: 'greet_person' })
  greet(@Param('name', { description: 'Who to greet' }) name: string, @Param('shout', { optional: true }) shout?: boolean): string {
    return shout ? `HELLO ${name.toUpperCase()}` : `hello ${name}`;
  }
}

describe('@Action with a params schema', () => {
  it('validates, applies defaults, injects and exposes runtime metadata on the tool only', async () => {
    const tools = new Tools({ context: new ToolContext(new SearchClient()) }).register(new Knowledge());
    const result = await tools.execute('search', { query: 'tool middleware' });
    expect(result.ok).toBe(true);
    expect(result.result).toEqual(['tool middleware#0', 'tool middleware#1', 'tool middleware#2', 'tool middleware#3', 'tool middleware#4']);
    const tool = tools.get('search')!;
    expect([...tool.effects]).toEqual([ToolEffect.NETWORK]);
    expect(tool.hasEffect(ToolEffect.NETWORK)).toBe(true);
    expect(tool.hasEffect(ToolEffect.WRITES_WORKSPACE)).toBe(false);
    expect([...tool.tags]).toEqual(['kb']);
    expect(tool.metadata.owner).toBe('kb-team');
    expect(Object.isFrozen(tool.metadata)).toBe(true);
    expect(tool.formatStatus({ query: 'cats' })).toBe('Searching for cats...');
    expect(tool.group).toBe('Knowledge');
  });

  it('injects a subclass instance for a base-class token', async () => {
    const tools = new Tools({ context: new ToolContext(new FancySearchClient()) }).register(new Knowledge());
    expect((await tools.execute('search', { query: 'q', limit: 1 })).result).toEqual(['q#0']);
  });

  it('fails the call clearly when a required dependency is missing', async () => {
    const logger = { warn: jest.fn(), error: jest.fn() };
    const tools = new Tools({ logger }).register(new Knowledge());
    const result = await tools.execute('search', { query: 'q' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/cannot run right now: a service it needs is not configured/);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('No SearchClient is provided in the tool context (required by Knowledge.search)'));
  });
});

describe('the plain-signature form', () => {
  const tools = new Tools().register(new Knowledge());

  it('derives a closed object schema from @Param and design:paramtypes', () => {
    expect(tools.get('add')!.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(tools.get('greet_person')!.parameters).toEqual({
      type: 'object',
      properties: { name: { type: 'string', description: 'Who to greet' }, shout: { type: 'boolean' } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('passes each field to its parameter and forbids extra fields', async () => {
    expect((await tools.execute('add', { a: 2, b: 3 })).result).toBe(5);
    expect((await tools.execute('greet_person', { name: 'ada', shout: true })).result).toBe('HELLO ADA');
    const extra = await tools.execute('add', { a: 2, b: 3, c: 4 });
    expect(extra.error).toContain('- c: is not an accepted field; remove it');
  });

  it('refuses a parameter whose reflected type says nothing about its JSON, naming class, method and parameter', () => {
    class Bad {
      @Action('Tags.')
      tag(@Param('tags') tags: string[]): string[] {
        return tags;
      }
    }
    expect(() => new Tools().register(new Bad())).toThrow(ToolDefinitionError);
    expect(() => new Tools().register(new Bad())).toThrow("Bad.tag: parameter #0 'tags' has reflected type Array");
  });

  it('refuses a parameter with neither @Param nor @Inject', () => {
    class Bad {
      @Action('Half.')
      half(@Param('a') a: number, b: number): number {
        return a + b;
      }
    }
    expect(() => new Tools().register(new Bad())).toThrow('Bad.half: parameter #1 has neither @Param nor @Inject');
  });

  it('refuses mixing the params option with @Param, and duplicate parameter names', () => {
    const P = Type.Object({ a: Type.String() });
    class Mixed {
      @Action('Mixed.', { params: P })
      run(params: Static<typeof P>, @Param('b') _b?: string): string {
        return params.a;
      }
    }
    class Twice {
      @Action('Twice.')
      run(@Param('a') a: string, @Param('a') b: string): string {
        return a + b;
      }
    }
    expect(() => new Tools().register(new Mixed())).toThrow('Mixed.run: use either the params option or @Param');
    expect(() => new Tools().register(new Twice())).toThrow("Twice.run: two parameters are named 'a'");
  });
});

describe('registration errors', () => {
  it('refuses names providers reject', () => {
    class Named {
      @Action('x', { name: 'has space' })
      run(): number {
        return 1;
      }
    }
    expect(() => new Tools().register(new Named())).toThrow("Named.run: the tool name 'has space' is not accepted by providers");
    const long = 'a'.repeat(65);
    expect(() => new Tools().action({ name: long, description: 'x' }, () => 1)).toThrow(ToolDefinitionError);
  });

  it('refuses params that are not an object schema', () => {
    expect(() => new Tools().action({ name: 'u', description: 'x', params: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]) as never }, () => 1)).toThrow(
      "tool 'u': params must be an object schema (Type.Object({...})), got a schema with anyOf",
    );
    expect(() => new Tools().action({ name: 's', description: 'x', params: Type.String() as never }, () => 1)).toThrow('got type "string"');
  });

  it('refuses schema kinds that are not JSON Schema', () => {
    for (const field of [Type.Function([], Type.Void()), Type.Undefined(), Type.Symbol(), Type.Date(), Type.BigInt()]) {
      expect(() => new Tools().action({ name: 'k', description: 'x', params: Type.Object({ f: field }) }, () => 1)).toThrow(/tool 'k': the schema at #\/properties\/f is Type\.\w+\(\), which is not JSON Schema/);
    }
    expect(() => new Tools().action({ name: 'k', description: 'x', params: Type.Object({ f: Type.Array(Type.Date()) }) }, () => 1)).toThrow('#/properties/f/items is Type.Date()');
    const withFunction = { type: 'object', properties: { a: { type: 'string', default: () => 'x' } } };
    expect(() => new Tools().action({ name: 'k', description: 'x', params: withFunction as never }, () => 1)).toThrow('holds a function at #/properties/a/default');
  });

  it('refuses a status template naming an unknown parameter, and accepts escaped braces', () => {
    expect(() => new Tools().action({ name: 'st', description: 'x', params: Type.Object({ amount: Type.Number() }), status: 'Refunding {amonut}' }, () => 1)).toThrow(
      "tool 'st': the status template names {amonut}, which is not a parameter. Known parameters: amount",
    );
    const tool = new Tools().action({ name: 'st', description: 'x', params: Type.Object({ amount: Type.Number() }), status: '{{literal}} {amount}' }, () => 1);
    expect(tool.formatStatus({ amount: 3 })).toBe('{literal} 3');
  });

  it('refuses duplicate tool names, naming both sources, and registers nothing of a failing batch', () => {
    class A {
      @Action('a')
      same(): number {
        return 1;
      }
    }
    class B {
      @Action('b', { name: 'same' })
      other(): number {
        return 2;
      }
    }
    const tools = new Tools();
    expect(() => tools.register(new A(), new B())).toThrow("Tool 'same' already registered (by A.same; now by B.other)");
    expect(tools.list()).toHaveLength(0);
  });

  it('refuses a class without @Action methods and an unknown keyword in a schema', () => {
    class Plain {}
    expect(() => new Tools().register(new Plain())).toThrow('Plain has no @Action methods');
    expect(() => new Tools().action({ name: 'kw', description: 'x', params: { type: 'object', properties: { a: { type: 'string', optinal: true } } } as never }, () => 1)).toThrow(
      /tool 'kw': the params schema is not valid JSON Schema: strict mode: unknown keyword: "optinal"/,
    );
  });
});

describe('inheritance', () => {
  @ToolGroup('billing', { description: 'Billing tools' })
  class BaseBilling {
    @Action('Refund an order.', { params: Type.Object({ orderId: Type.String(), amount: Type.Number() }) })
    refund(params: { orderId: string; amount: number }): string {
      return `base refunded ${params.amount}`;
    }

    @Action('Ping.')
    ping(): string {
      return 'pong';
    }
  }
  class ChildBilling extends BaseBilling {
    override refund(params: { orderId: string; amount: number }): string {
      return `child refunded ${params.amount}`;
    }

    @Action('Ping louder.', { name: 'ping_loud' })
    @RequiresApproval()
    override ping(): string {
      return 'PONG';
    }
  }

  it('inherits decorators, runs the override, lets a subclass replace metadata, and inherits the group', async () => {
    const tools = new Tools().register(new ChildBilling());
    expect(tools.list().map((t) => t.name).sort()).toEqual(['ping_loud', 'refund']);
    expect((await tools.execute('refund', { orderId: 'o', amount: 3 })).result).toBe('child refunded 3');
    expect((await tools.execute('ping_loud', {})).error).toMatch(/was not run: it needs approval/);
    expect((await tools.execute('ping_loud', {}, { approved: true })).result).toBe('PONG');
    expect(tools.get('ping_loud')!.requiresApproval).toBe(true);
    expect(tools.get('refund')!.requiresApproval).toBe(false);
    expect(tools.get('refund')!.group).toBe('billing');
  });
});

describe('@RequiresApproval and injection options', () => {
  const CONFIG = new InjectionToken<{ currency: string }>('BillingConfig');
  const P = Type.Object({ amount: Type.Number(), note: Type.Optional(Type.String()), priority: Type.Integer({ default: 1 }) });
  class Refunds {
    @Action('Refund.', { params: P })
    @RequiresApproval((p: Static<typeof P>) => p.amount > 100 && p.priority === 1)
    refund(params: Static<typeof P>, @Inject(CONFIG, { default: { currency: 'USD' } }) config: { currency: string }, @Inject(AbortSignal) signal: AbortSignal, @Inject(ToolContext) context: ToolContext): string {
      return `${params.amount} ${config.currency} ${signal.aborted} ${context instanceof ToolContext}`;
    }

    @Action('Maybe.')
    maybe(@Inject(SearchClient, { optional: true }) client?: SearchClient): string {
      return client === undefined ? 'no client' : 'client';
    }
  }

  it('evaluates the predicate on validated params with defaults, and false for invalid args', () => {
    const tool = new Tools().register(new Refunds()).get('refund')!;
    expect(tool.requiresApproval).toBe(true);
    expect(tool.needsApproval({ amount: 150 })).toBe(true);
    expect(tool.needsApproval('{"amount": 150}')).toBe(true);
    expect(tool.needsApproval({ amount: 150, priority: 2 })).toBe(false);
    expect(tool.needsApproval({ amount: 50 })).toBe(false);
    expect(tool.needsApproval({ amount: 'lots' })).toBe(false);
  });

  it('uses injection defaults, the InjectionToken value, the call signal and the context', async () => {
    const tools = new Tools().register(new Refunds());
    expect((await tools.execute('refund', { amount: 1 })).result).toBe('1 USD false true');
    const context = new ToolContext().provide(CONFIG, { currency: 'EUR' });
    expect((await tools.execute('refund', { amount: 1 }, { context })).result).toBe('1 EUR false true');
    expect((await tools.execute('maybe', {})).result).toBe('no client');
    expect((await tools.execute('maybe', {}, { context: new ToolContext(new SearchClient()) })).result).toBe('client');
  });
});
