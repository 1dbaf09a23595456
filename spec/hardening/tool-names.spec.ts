import { Type } from '@sinclair/typebox';
import { executeToolCalls, Tools, ToolSchemaFormat } from '../../lib';
import { mcpListTools } from '../../lib/providers/mcp';

describe('review: tools named like Object.prototype members', () => {
  const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];

  function registry(): Tools {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    for (const name of names) tools.action({ name, description: `The ${name} tool.`, params: Type.Object({ x: Type.Optional(Type.Integer()) }) }, () => name);
    return tools;
  }

  it('registers, lists and runs each of them', async () => {
    const tools = registry();
    for (const format of Object.values(ToolSchemaFormat)) expect(tools.getSchema(format)).toHaveLength(names.length);
    expect(mcpListTools(tools).tools.map((t) => t.name)).toEqual(names);
    const outcomes = await executeToolCalls(tools, names.map((name, i) => ({ id: String(i), name, args: '{"x":null}' })));
    expect(outcomes.map((o) => o.result.result)).toEqual(names);
  });

  it('still answers unknown names such as toLocaleString as unknown tools', async () => {
    expect((await registry().execute('toLocaleString', {})).error).toMatch(/^Unknown tool 'toLocaleString'/);
  });
});
