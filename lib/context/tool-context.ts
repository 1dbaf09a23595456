import { AgentToolkitError, CoreError } from '../errors';
import { InjectionToken, tokenName, type Token } from './injection-token';

interface Entry {
  /** The token the value is bound to (`provide(token, value)`, `bind`), or undefined for an instance matched by class. */
  readonly token: Token<unknown> | undefined;
  readonly value: unknown;
}

/**
 * Thrown by {@link ToolContext.require} (and so by a tool call whose `@Inject` dependency is missing) when nothing in
 * the context satisfies a token. Code: `MISSING_DEPENDENCY`. Inside `Tools.execute` it becomes a failed result.
 */
export class MissingDependencyError extends AgentToolkitError<'MISSING_DEPENDENCY'> {
  constructor(readonly token: Token<unknown>, requiredBy?: string) {
    super(
      'MISSING_DEPENDENCY',
      `No ${tokenName(token)} is provided in the tool context${requiredBy ? ` (required by ${requiredBy})` : ''}. ` +
        `Provide one with context.provide(...) or new ToolContext(...), or mark the injection optional.`,
    );
  }
}

/**
 * The application services tools receive through `@Inject` and that a model never sees.
 *
 * Instances are searched in reverse insertion order: `resolve(T)` returns the most recently provided instance of `T` or
 * of a subclass of `T`. Values for {@link InjectionToken}s are bound explicitly with `provide(token, value)`. The
 * context is mutable (`provide`, `without`, `clear`) so a host can change it between calls; each mutator returns the
 * context for chaining.
 */
export class ToolContext {
  private entries: Entry[] = [];

  /** @param instances - initial dependencies, in insertion order. */
  constructor(...instances: object[]) {
    for (const instance of instances) this.entries.push({ token: undefined, value: instance });
  }

  /**
   * Adds dependencies. `provide(TOKEN, value)` binds a value to an {@link InjectionToken}; any other call appends each
   * argument as an instance resolvable by its class (or a superclass).
   */
  provide<T>(token: InjectionToken<T>, value: T): this;
  provide(...instances: object[]): this;
  provide(...args: unknown[]): this {
    if (args.length === 2 && args[0] instanceof InjectionToken) {
      this.entries.push({ token: args[0], value: args[1] });
      return this;
    }
    for (const instance of args) {
      if (instance instanceof InjectionToken) {
        throw new CoreError('INVALID_CONTEXT', `${instance.toString()} was provided without a value. Use context.provide(token, value).`);
      }
      this.entries.push({ token: undefined, value: instance });
    }
    return this;
  }

  /**
   * Binds `value` to `token` itself, whatever its class: for a class token, `resolve(token)` then returns `value`
   * even when it is not an instance of the class (an abstract class used as an interface, an object standing in for
   * a service). The binding is searched with the other entries, most recent first. A framework's container uses it to
   * hand its providers to `@Inject` parameters.
   */
  bind<T>(token: Token<T>, value: T): this {
    this.entries.push({ token, value });
    return this;
  }

  /** The most recently provided match for `token` (an instance of the class or a subclass, or the token's value), or undefined. */
  resolve<T>(token: Token<T>): T | undefined {
    const entries = this.entries;
    if (token instanceof InjectionToken) {
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i]!;
        if (entry.token === token) return entry.value as T;
      }
      return undefined;
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      if (entry.token === token || (entry.token === undefined && entry.value instanceof token)) return entry.value as T;
    }
    return undefined;
  }

  /**
   * Like {@link resolve}, but throws {@link MissingDependencyError} when nothing matches.
   * @param requiredBy - who needs it, named in the error (for example `"BillingTools.refund"`).
   */
  require<T>(token: Token<T>, requiredBy?: string): T {
    const value = this.resolve(token);
    if (value === undefined) throw new MissingDependencyError(token, requiredBy);
    return value;
  }

  /** Whether something resolves for `token`. */
  has(token: Token<unknown>): boolean {
    return this.resolve(token) !== undefined;
  }

  /** Removes every instance of `token`'s class (subclasses included) and every value bound to `token`. */
  without(token: Token<unknown>): this {
    this.entries = this.entries.filter((entry) =>
      token instanceof InjectionToken ? entry.token !== token : entry.token !== token && (entry.token !== undefined || !(entry.value instanceof token)),
    );
    return this;
  }

  /** Removes every dependency. */
  clear(): this {
    this.entries = [];
    return this;
  }

  /** A new context holding the same dependencies; later changes to either do not affect the other. */
  clone(): ToolContext {
    const copy = new ToolContext();
    copy.entries = [...this.entries];
    return copy;
  }
}
