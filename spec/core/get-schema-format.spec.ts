import { CoreError, Tools } from '../../lib';

describe('tools.getSchema with something that is not a format', () => {
  // A plain JavaScript caller (or a typo through `as never`) that passes a format's name instead of a ToolSchemaFormat
  // value got an uncoded TypeError from deep inside the schema cache ("format.render is not a function").
  it.each([['a format name', 'openai'], ['null', null], ['an object without render', { id: 'openai' }], ['a render without an id', { render: () => ({}) }]])('throws CoreError INVALID_OPTION for %s', (_name, format) => {
    const tools = new Tools();
    tools.action({ name: 'noop', description: 'Do nothing.' }, () => 'ok');
    let thrown: unknown;
    try {
      tools.getSchema(format as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoreError);
    expect((thrown as CoreError).code).toBe('INVALID_OPTION');
    expect((thrown as CoreError).message).toMatch(/ToolSchemaFormat/);
  });
});
