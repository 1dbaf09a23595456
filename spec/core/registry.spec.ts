import { Type } from '@sinclair/typebox';
import { ActionResult, AgentToolkitError, ToolDefinitionError, ToolEffect, Tools, ToolSchemaFormat, type ToolFormat } from '../../lib';

function billing() {
  const tools = new Tools();
  tools.action(
    {
      name: 'refund',
      description: 'Issue a refund for an order.',
      params: Type.Object({ orderId: Type.String(), amount: Type.Number({ exclusiveMinimum: 0, description: 'Amount to refund, in USD' }) }),
      effects: [ToolEffect.NETWORK],
      status: (p) => `Refunding ${p.amount} for order ${p.orderId}...`,
      tags: ['billing', 'write'],
      requiresApproval: true,
      metadata: { owner: 'billing-team' },
    },
    () => 'refunded',
  );
  tools.action({ name: 'ping', description: 'Ping.' }, () => 'pong');
  return tools;
}

describe('getSchema', () => {
  it('renders the OpenAI and Anthropic formats with no runtime metadata anywhere', () => {
    const tools = billing();
    const openai = tools.getSchema(ToolSchemaFormat.OPENAI);
    const anthropic = tools.getSchema(ToolSchemaFormat.ANTHROPIC);
    expect(openai[0]).toEqual({
      type: 'function',
      function: {
        name: 'refund',
        description: 'Issue a refund for an order.',
        parameters: {
          type: 'object',
          properties: { orderId: { type: 'string' }, amount: { type: 'number', exclusiveMinimum: 0, description: 'Amount to refund, in USD' } },
          required: ['orderId', 'amount'],
        },
        strict: false,
      },
    });
    expect(anthropic[1]).toEqual({ name: 'ping', description: 'Ping.', input_schema: { type: 'object', properties: {}, additionalProperties: false } });
    const text = JSON.stringify([openai, anthropic]);
    for (const leaked of ['billing-team', 'network', 'Refunding', 'write', 'requiresApproval', 'owner']) expect(text).not.toContain(leaked);
  });

  it('computes each entry once, returns frozen entries, and recomputes after registration changes', () => {
    const tools = billing();
    const render = jest.fn((tool, description: string) => ({ name: tool.name, description }));
    const format: ToolFormat<{ name: string; description: string }> = { id: 'custom', render };
    const first = tools.getSchema(format);
    const second = tools.getSchema(format);
    expect(render).toHaveBeenCalledTimes(2);
    expect(second[0]).toBe(first[0]);
    expect(Object.isFrozen(first[0])).toBe(true);
    tools.action({ name: 'more', description: 'More.' }, () => 1);
    expect(tools.getSchema(format).map((e) => e.name)).toEqual(['refund', 'ping', 'more']);
    expect(render).toHaveBeenCalledTimes(5);
  });

  it('leaves out only the tool a format cannot express, and logs why', () => {
    const logger = { warn: jest.fn(), error: jest.fn() };
    const tools = new Tools({ logger });
    tools.action({ name: 'good', description: 'x' }, () => 1);
    tools.action({ name: 'bad', description: 'x' }, () => 1);
    const format: ToolFormat<string> = {
      id: 'picky',
      render: (tool) => {
        if (tool.name === 'bad') throw new ToolDefinitionError(`tool 'bad': cannot express it`);
        return tool.name;
      },
    };
    expect(tools.getSchema(format)).toEqual(['good']);
    expect(tools.getSchema(format)).toEqual(['good']);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith("Tool 'bad' is left out of the picky listing: tool 'bad': cannot express it");
    const broken: ToolFormat<string> = {
      id: 'broken',
      render: () => {
        throw new TypeError('bug');
      },
    };
    expect(() => tools.getSchema(broken)).toThrow(TypeError);
  });
});

describe('tool metadata for the host', () => {
  it('exposes approval, status and metadata read through the tool', () => {
    const tool = billing().get('refund')!;
    expect(tool.requiresApproval).toBe(true);
    expect(tool.needsApproval({ orderId: 'o', amount: 1 })).toBe(true);
    expect(tool.formatStatus({ orderId: 'o-123', amount: 20 })).toBe('Refunding 20 for order o-123...');
    expect(billing().get('ping')!.formatStatus({})).toBe('Running ping...');
    expect(billing().get('ping')!.needsApproval({})).toBe(false);
    const templated = new Tools().action({ name: 't', description: 'x', params: Type.Object({ n: Type.Integer() }), status: 'n={n}' }, () => 1);
    expect(templated.formatStatus({ n: 'not a number' })).toBe('Running t...');
    expect(templated.formatStatus({ n: 7 })).toBe('n=7');
    expect(templated.formatStatus(null)).toBe('Running t...');
  });
});

describe('the tool a call names', () => {
  it('is the one registered now: a remembered lookup never outlives unregister, merge or a new group', async () => {
    const tools = new Tools();
    tools.action({ name: 'ping', description: 'Ping.' }, () => 'first');
    expect((await tools.execute('ping', {})).result).toBe('first');
    expect(tools.unregister('ping')).toEqual(['ping']);
    expect((await tools.execute('ping', {})).error).toMatch(/^Unknown tool 'ping'/);
    tools.action({ name: 'ping', description: 'Ping.' }, () => 'second');
    expect((await tools.execute('ping', {})).result).toBe('second');
    const other = new Tools();
    other.action({ name: 'ping', description: 'Ping.' }, () => 'merged');
    tools.merge(other, { replace: true });
    expect((await tools.execute('ping', {})).result).toBe('merged');
    expect((await tools.execute('reset_tools', {})).error).toMatch(/^Unknown tool 'reset_tools'/);
    tools.createGroup('extra', 'Extra tools.');
    expect((await tools.execute('reset_tools', {})).error ?? '').not.toMatch(/^Unknown tool/);
  });
});

describe('merge', () => {
  it('throws on a collision and lets the other registry win with replace', async () => {
    const a = billing();
    const b = new Tools();
    b.action({ name: 'ping', description: 'Other ping.' }, () => 'other pong');
    expect(() => a.merge(b)).toThrow("Tool 'ping' already registered");
    expect((await a.execute('ping', {})).result).toBe('pong');
    a.merge(b, { replace: true });
    expect((await a.execute('ping', {})).result).toBe('other pong');
    const c = new Tools();
    c.action({ name: 'fresh', description: 'x' }, () => 'fresh');
    a.merge(c);
    expect(a.list().map((t) => t.name)).toEqual(['refund', 'ping', 'fresh']);
  });
});

describe('ActionResult', () => {
  it('is closed, read-only in its type, and changed only through a copy', () => {
    const result = ActionResult.success(3);
    // @ts-expect-error the fields are read-only: a changed result is a copy made with `with`
    const assign = () => (result.ok = false);
    void assign;
    expect(result.toJSON()).toEqual({ ok: true, result: 3 });
    const failed = ActionResult.fail('nope');
    const changed = failed.with({ error: 'changed' });
    expect(changed).not.toBe(failed);
    expect(failed.error).toBe('nope');
    expect(() => new ActionResult({ ok: true, traceId: 'x' })).toThrow(AgentToolkitError);
    expect(() => new ActionResult({ ok: true, traceId: 'x' })).toThrow("ActionResult has no field 'traceId'. Declared fields: ok, result, error.");
    expect(ActionResult.fail('nope').with({ error: 'changed' }).error).toBe('changed');
    expect(() => ActionResult.fail('x').with({ extra: 1 } as never)).toThrow('no field');
  });

  it('supports subclasses with extra fields', () => {
    class Cited<T = unknown> extends ActionResult<T> {
      static override readonly fields = ActionResult.extendFields('citations');
      declare readonly citations?: readonly string[];
    }
    const cited = Cited.success('answer', { citations: ['a'] });
    expect(cited).toBeInstanceOf(Cited);
    expect(cited.citations).toEqual(['a']);
    expect(cited.with({ citations: ['b'] })).toBeInstanceOf(Cited);
  });
});
