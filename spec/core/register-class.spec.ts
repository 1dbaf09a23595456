/** `register(SomeClass)`: a class passed where its instance belongs is named as such, on every instance path. */
import 'reflect-metadata';
import { Action, ToolDefinitionError, Tools } from '../../lib';

class Billing {
  @Action('Refund an order.')
  refund(): string {
    return 'ok';
  }
}

describe('registering a class instead of an instance', () => {
  it.each([
    ['register(Class)', (tools: Tools) => tools.register(Billing)],
    ['register({ instance: Class })', (tools: Tools) => tools.register({ instance: Billing })],
  ])('%s says to pass an instance, not that the class has no @Action methods', (_label, register) => {
    const tools = new Tools();
    expect(() => register(tools)).toThrow(ToolDefinitionError);
    expect(() => register(tools)).toThrow('Billing is a class, not an instance: its @Action methods run on an instance. Pass an instance: register(new Billing(...)).');
    expect(tools.list()).toEqual([]);
  });

  it('a class without @Action methods is named a class too; a plain function is told how to become a tool', () => {
    class Empty {}
    expect(() => new Tools().register(Empty)).toThrow('Empty is a class, not an instance');
    expect(() => new Tools().register(function helper() {})).toThrow("helper is a function, not an instance of a class with @Action methods. Pass an instance (register(new MyTools())), or register a function as a tool with tools.action({ name, description, params }, fn).");
    expect(() => new Tools().register(() => 1)).toThrow('The value passed is a function, not an instance');
  });

  it('an instance still registers', () => {
    expect(new Tools().register(new Billing()).list().map((tool) => tool.name)).toEqual(['refund']);
  });
});
