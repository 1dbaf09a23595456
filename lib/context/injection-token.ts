/**
 * A typed key for a dependency that has no class of its own at run time: an interface, a configuration object, a
 * primitive. Provide a value with `context.provide(TOKEN, value)` and inject it with `@Inject(TOKEN)`.
 *
 * @example
 * ```ts
 * interface BillingConfig { currency: string }
 * const BILLING_CONFIG = new InjectionToken<BillingConfig>('BillingConfig');
 * const context = new ToolContext().provide(BILLING_CONFIG, { currency: 'EUR' });
 * ```
 */
export class InjectionToken<T> {
  /** Phantom field carrying `T` for type inference; never set. */
  declare readonly __type?: T;

  /** @param description - a name for error messages and logs (for example the interface's name). */
  constructor(readonly description: string) {}

  /** `InjectionToken(<description>)`, used in error messages. */
  toString(): string {
    return `InjectionToken(${this.description})`;
  }
}

/** A class (possibly abstract) whose instances, or instances of its subclasses, satisfy the dependency. */
export type ClassToken<T> = abstract new (...args: never[]) => T;

/** What `@Inject`, `resolve`, `provided` and `requires` accept: a class or an {@link InjectionToken}. */
export type Token<T> = ClassToken<T> | InjectionToken<T>;

/** A readable name for a token, for error messages. */
export function tokenName(token: Token<unknown>): string {
  return token instanceof InjectionToken ? token.toString() : token.name || 'anonymous class';
}
