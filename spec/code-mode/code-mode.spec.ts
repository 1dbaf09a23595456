import { Tools } from '../../lib';
import { CodeMode } from '../../lib/code-mode';

describe('CodeMode', () => {
  it('runs a program calling tools in sequence and in parallel', async () => {
    const tools = new Tools();
    tools.action({ name: 'add', description: 'Add two numbers.', params: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }, ({ a, b }) => (a as number) + (b as number));
    const codeMode = new CodeMode(tools);
    const result = await codeMode.run('const x = await tools.add({ a: 1, b: 2 });\nconst all = await Promise.all([tools.add({a: x, b: 1}), tools.add({a: 2, b: 2})]);\nconsole.log("x", x);\nreturn all;');
    expect(result).toMatchObject({ ok: true });
    console.log(result, codeMode.declarations());
  });
});
