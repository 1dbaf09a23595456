/** `Tools.onListChange`: the registry's listing-change hook that the MCP server turns into tools/list_changed. */
import { Type } from 'typebox';
import { ToolContext, Tools } from '../../../lib';

describe('Tools.onListChange', () => {
  const params = Type.Object({});

  it('fires on registration, merge, group creation and switches, setContext and unregister; not on calls, no-op switches or removals of nothing', async () => {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    const seen = jest.fn();
    tools.onListChange(seen);
    tools.action({ name: 'a', description: 'A.', params, group: 'extra' }, () => 'a');
    expect(seen).toHaveBeenCalledTimes(1);
    const other = new Tools();
    other.action({ name: 'b', description: 'B.', params }, () => 'b');
    tools.merge(other);
    expect(seen).toHaveBeenCalledTimes(2);
    tools.createGroup('extra', 'Extra tools.');
    expect(seen).toHaveBeenCalledTimes(3);
    tools.setGroupsActive({ extra: true });
    expect(seen).toHaveBeenCalledTimes(4);
    tools.setGroupsActive({ extra: true, unknown: false });
    expect(seen).toHaveBeenCalledTimes(4);
    await tools.execute('reset_tools', { extra: false });
    expect(seen).toHaveBeenCalledTimes(5);
    await tools.execute('reset_tools', { extra: false });
    await tools.execute('a', {}, { context: new ToolContext() });
    expect(seen).toHaveBeenCalledTimes(5);
    tools.setContext(new ToolContext());
    expect(seen).toHaveBeenCalledTimes(6);
    tools.unregister('b', 'not_registered');
    expect(seen).toHaveBeenCalledTimes(7);
    tools.unregister('b', 'reset_tools');
    expect(seen).toHaveBeenCalledTimes(7);
  });

  it('unsubscribes, and logs a listener that throws without stopping the others or the change', () => {
    const error = jest.fn();
    const tools = new Tools({ logger: { warn: jest.fn(), error } });
    const after = jest.fn();
    const off = tools.onListChange(() => {
      throw new Error('listener bug');
    });
    tools.onListChange(after);
    tools.action({ name: 'a', description: 'A.', params }, () => 'a');
    expect(tools.get('a')).toBeDefined();
    expect(after).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith('A tools listing-change listener threw', expect.objectContaining({ stack: expect.stringContaining('listener bug') as string }));
    off();
    tools.action({ name: 'b', description: 'B.', params }, () => 'b');
    expect(error).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledTimes(2);
  });
});
