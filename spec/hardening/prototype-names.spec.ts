import { Type } from '@sinclair/typebox';
import { Action, Availability, Param, Tools, ToolSchemaFormat } from '../../lib';

const quiet = { warn: jest.fn(), error: jest.fn() };
const fields = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"required":["__proto__"]}') as Record<string, unknown>;

describe('review: fields named after Object.prototype members', () => {
  it('keeps a field named __proto__ in the strict schema that requires it', () => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'odd', description: 'Odd names.', params: fields as never }, (p) => p);
    const parameters = tools.getSchema(ToolSchemaFormat.OPENAI_STRICT)[0]!.function.parameters as { properties: object; required: string[] };
    expect(Object.keys(parameters.properties)).toEqual(['__proto__', 'constructor']);
    expect(parameters.required).toEqual(['__proto__', 'constructor']);
  });

  it('runs a strict-mode call of such a tool with the nulls stripped and no prototype touched', async () => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'odd', description: 'Odd names.', params: fields as never }, (p) => Object.getPrototypeOf(p) === Object.prototype && Object.keys(p).join(','));
    expect((await tools.execute('odd', '{"__proto__":"x","constructor":null}')).toJSON()).toEqual({ ok: true, result: '__proto__' });
  });

  it('merges an allOf whose parts declare constructor and toString without calling them duplicates', () => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'merged', description: 'Merged.', params: Type.Object({ m: Type.Intersect([Type.Object({ constructor: Type.String() }), Type.Object({ toString: Type.String() })]) }) }, (p) => p);
    const strict = tools.getSchema(ToolSchemaFormat.OPENAI_STRICT)[0]!.function.parameters as { properties: { m: { properties: object } } };
    expect(Object.keys(strict.properties.m.properties)).toEqual(['constructor', 'toString']);
    expect(Object.keys((tools.getSchema(ToolSchemaFormat.GEMINI)[0]!.parameters.properties!.m!.properties)!)).toEqual(['constructor', 'toString']);
  });

  it('accepts @Param names such as toString', async () => {
    class Names {
      @Action('Echo.')
      echo(@Param('toString') text: string, @Param('valueOf') count: number): string {
        return `${text}x${count}`;
      }
    }
    const tools = new Tools({ logger: quiet }).register(new Names());
    expect((await tools.execute('echo', { toString: 'a', valueOf: 2 })).result).toBe('ax2');
  });

  it('lists a switchable group named like a prototype member', () => {
    const tools = new Tools({ logger: quiet });
    tools.createGroup('constructor', 'Odd group.').createGroup('toString', 'Odder group.');
    const reset = tools.getSchema(ToolSchemaFormat.ANTHROPIC).find((t) => t.name === 'reset_tools')!;
    expect(Object.keys(reset.input_schema.properties)).toEqual(['constructor', 'toString']);
  });
});

describe('an availability check that throws during execute', () => {
  it('answers as an unknown tool (fail closed) and logs the stack once', async () => {
    const logger = { warn: jest.fn(), error: jest.fn() };
    const tools = new Tools({ logger });
    tools.action({ name: 'flaky', description: 'x', availableWhen: new Availability(() => { throw new Error('check broke'); }) }, () => 'ran');
    const result = await tools.execute('flaky', {});
    expect(result.error).toBe("Unknown tool 'flaky'. Available: (none)");
    expect(logger.error).toHaveBeenCalledWith("Tool 'flaky' is not offered: its availability check threw", { stack: expect.stringContaining('check broke') });
  });
});
