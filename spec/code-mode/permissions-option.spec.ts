import { FunctionTool } from '../../lib';
import { PermissionDecision, PermissionEngine } from '../../lib/permissions';
import { CodeMode } from '../../lib/code-mode';
import { registry } from './support';

jest.setTimeout(60_000);

/** A registry with `add` (an `@Action`-style function tool, no check of its own) and `wipe`, a FunctionTool that asks. */
function setup() {
  const { tools, calls } = registry();
  tools.register(new FunctionTool(({ target }) => calls.push(`wipe ${String(target)}`), { name: 'wipe', description: 'Wipe a target.', params: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] } }));
  tools.register(
    new FunctionTool(() => calls.push('guard'), {
      name: 'guard',
      description: 'Safety-checked.',
      permissions: { checkPermissions: () => PermissionDecision.ask('A safety check.', { bypassImmune: true }) },
    }),
  );
  return { tools, calls };
}

const TRY = (call: string) => `try { return String(await ${call}) } catch (e) { return "refused: " + e.message }`;

describe('CodeMode permissions: an engine asked about each nested call', () => {
  it('denies by rule, with the decision message, and runs nothing', async () => {
    const { tools, calls } = setup();
    const engine = new PermissionEngine({ settings: { deny: ['wipe'] } });
    const result = await new CodeMode(tools, { permissions: engine, approve: () => true }).run(TRY('tools.wipe({ target: "db" })'));
    expect(result.result).toMatch(/^refused: Permission denied for tool 'wipe'/);
    expect(calls).toEqual([]);
  });

  it('asks approve for an ASK: yes runs it, no or nobody to ask runs nothing', async () => {
    const { tools, calls } = setup();
    const engine = new PermissionEngine();
    const asked: string[] = [];
    expect((await new CodeMode(tools, { permissions: engine, approve: (tool) => (asked.push(tool.name), true) }).run(TRY('tools.wipe({ target: "a" })'))).result).toBe('1');
    expect((await new CodeMode(tools, { permissions: engine, approve: () => false }).run(TRY('tools.wipe({ target: "b" })'))).result).toMatch(/^refused: .*declined/i);
    expect((await new CodeMode(tools, { permissions: engine }).run(TRY('tools.wipe({ target: "c" })'))).result).toMatch(/^refused: .*approv/i);
    expect(asked).toEqual(['wipe']);
    expect(calls).toEqual(['wipe a']);
  });

  it('runs an allowed call without asking, and still asks a bypass-immune check under an allow rule', async () => {
    const { tools, calls } = setup();
    const asked: string[] = [];
    const approve = (tool: { name: string }) => (asked.push(tool.name), false);
    const allowing = new PermissionEngine({ settings: { allow: ['wipe', 'guard'] } });
    expect((await new CodeMode(tools, { permissions: allowing, approve }).run(TRY('tools.wipe({ target: "x" })'))).result).toBe('1');
    expect((await new CodeMode(tools, { permissions: allowing, approve }).run(TRY('tools.guard({})'))).result).toMatch(/^refused: .*declined/i);
    expect(asked).toEqual(['guard']);
    expect(calls).toEqual(['wipe x']);
  });

  it('reports invalid arguments as the validation message, without asking', async () => {
    const { tools } = setup();
    const approve = jest.fn(() => true);
    const result = await new CodeMode(tools, { permissions: new PermissionEngine(), approve }).run(TRY('tools.wipe({ target: 5 })'));
    expect(result.result).toMatch(/^refused: Invalid arguments for tool 'wipe':\n- target: must be string/);
    expect(approve).not.toHaveBeenCalled();
  });
});
