import { Action, descriptionFromContext, InjectionToken, provided, requires, ToolContext, Tools, ToolSchemaFormat, MissingDependencyError } from '../../lib';

class Service {}
class SubService extends Service {}
class UserInfo {
  constructor(readonly isAdmin: boolean, readonly name = 'ada') {}
}
const REGION = new InjectionToken<string>('Region');

describe('ToolContext', () => {
  it('resolves the most recent instance of a class or subclass, and token values', () => {
    const first = new Service();
    const second = new SubService();
    const context = new ToolContext(first).provide(second).provide(REGION, 'eu');
    expect(context.resolve(Service)).toBe(second);
    expect(context.resolve(SubService)).toBe(second);
    expect(context.resolve(REGION)).toBe('eu');
    expect(context.has(UserInfo)).toBe(false);
    expect(context.without(SubService).resolve(Service)).toBe(first);
    expect(context.without(REGION).resolve(REGION)).toBeUndefined();
    expect(context.clear().resolve(Service)).toBeUndefined();
  });

  it('require throws a MissingDependencyError that says how to fix it', () => {
    const context = new ToolContext();
    expect(() => context.require(REGION, 'Geo.lookup')).toThrow(MissingDependencyError);
    expect(() => context.require(REGION, 'Geo.lookup')).toThrow('No InjectionToken(Region) is provided in the tool context (required by Geo.lookup). Provide one with context.provide(...)');
    expect(context.provide(REGION, 'us').require(REGION)).toBe('us');
  });

  it('refuses a token provided without a value, and clones independently', () => {
    expect(() => new ToolContext().provide(REGION as unknown as object)).toThrow('InjectionToken(Region) was provided without a value. Use context.provide(token, value).');
    const context = new ToolContext(new Service());
    const copy = context.clone().provide(new UserInfo(true));
    expect(context.has(UserInfo)).toBe(false);
    expect(copy.has(Service)).toBe(true);
  });
});

describe('availability and context descriptions', () => {
  class Admin {
    @Action('Refund (admin only).', { availableWhen: provided(Service).and(requires(UserInfo, (u) => u.isAdmin)) })
    refund(): string {
      return 'refunded';
    }

    @Action('Guest tool.', { availableWhen: requires(UserInfo, (u) => u.isAdmin).not().or(provided(REGION)) })
    guest(): string {
      return 'hi';
    }

    @Action(descriptionFromContext(UserInfo, (u) => `Look up the balance for ${u.name}.`, 'Look up account balance.'))
    balance(): number {
      return 1;
    }
  }

  it('lists and executes only tools available in the context, with rendered descriptions', async () => {
    const tools = new Tools().register(new Admin());
    const admin = new ToolContext(new Service(), new UserInfo(true, 'grace'));
    const user = new ToolContext(new Service(), new UserInfo(false));
    expect(tools.getAvailable(admin).map((t) => t.name)).toEqual(['refund', 'balance']);
    expect(tools.getAvailable(user).map((t) => t.name)).toEqual(['guest', 'balance']);
    expect(tools.getAvailable(new ToolContext().provide(REGION, 'x').provide(new UserInfo(true))).map((t) => t.name)).toEqual(['guest', 'balance']);
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC, admin).map((t) => t.description)).toEqual(['Refund (admin only).', 'Look up the balance for grace.']);
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC, user).map((t) => t.description)).toEqual(['Guest tool.', 'Look up the balance for ada.']);
    expect(tools.getSchema(ToolSchemaFormat.OPENAI).map((t) => t.function.description)).toEqual(['Guest tool.', 'Look up account balance.']);
    expect((await tools.execute('refund', {}, { context: user })).error).toBe("Unknown tool 'refund'. Available: guest, balance");
    expect((await tools.execute('refund', {}, { context: admin })).result).toBe('refunded');
  });
});
