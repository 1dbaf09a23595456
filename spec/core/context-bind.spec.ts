import { Action, Inject, InjectionToken, ToolContext, Tools } from '../../lib';

abstract class Clock {
  abstract now(): number;
}
class SystemClock extends Clock {
  now(): number {
    return 1;
  }
}

describe('ToolContext.bind', () => {
  it('binds a value that is not an instance to a class token, most recent entry first', () => {
    const fixed = { now: () => 42 };
    const context = new ToolContext(new SystemClock()).bind(Clock, fixed);
    expect(context.resolve(Clock)).toBe(fixed);
    context.provide(new SystemClock());
    expect(context.resolve(Clock)).toBeInstanceOf(SystemClock);
    expect(context.resolve(SystemClock)).toBeInstanceOf(SystemClock);
  });

  it('binds exactly: a binding to a subclass token does not answer for its base class', () => {
    const context = new ToolContext().bind(SystemClock, { now: () => 7 } as SystemClock);
    expect(context.resolve(SystemClock)?.now()).toBe(7);
    expect(context.resolve(Clock)).toBeUndefined();
  });

  it('binds an InjectionToken like provide(token, value)', () => {
    const TOKEN = new InjectionToken<string>('T');
    expect(new ToolContext().bind(TOKEN, 'v').resolve(TOKEN)).toBe('v');
  });

  it('without(Class) removes the bindings to the class as well as its instances; clones keep bindings', () => {
    const context = new ToolContext(new SystemClock()).bind(Clock, { now: () => 42 });
    const copy = context.clone();
    context.without(Clock);
    expect(context.has(Clock)).toBe(false);
    expect(copy.resolve(Clock)?.now()).toBe(42);
    const TOKEN = new InjectionToken<number>('N');
    const other = new ToolContext().bind(Clock, { now: () => 1 }).bind(TOKEN, 3).without(TOKEN);
    expect(other.has(TOKEN)).toBe(false);
    expect(other.has(Clock)).toBe(true);
  });

  it('serves an @Inject parameter with the bound value', async () => {
    class Tick {
      @Action('Tell the time.')
      tick(@Inject(Clock) clock: Clock): number {
        return clock.now();
      }
    }
    const tools = new Tools({ context: new ToolContext().bind(Clock, { now: () => 99 }) }).register(new Tick());
    expect((await tools.execute('tick', {})).result).toBe(99);
  });
});
