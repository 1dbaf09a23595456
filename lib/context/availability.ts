import type { Token } from './injection-token';
import type { ToolContext } from './tool-context';

/**
 * A condition over a {@link ToolContext} deciding whether a tool is offered to the model (`availableWhen`). Build one
 * with {@link provided} or {@link requires}, and compose with `.and()`, `.or()` and `.not()`.
 */
export class Availability {
  /** @param test - returns true when the tool should be available in the context. */
  constructor(readonly test: (context: ToolContext) => boolean) {}

  /** True when both this and `other` hold. */
  and(other: Availability): Availability {
    return new Availability((context) => this.test(context) && other.test(context));
  }

  /** True when this or `other` holds. */
  or(other: Availability): Availability {
    return new Availability((context) => this.test(context) || other.test(context));
  }

  /** True when this does not hold. */
  not(): Availability {
    return new Availability((context) => !this.test(context));
  }
}

/** Available when something in the context resolves for `token`. */
export function provided(token: Token<unknown>): Availability {
  return new Availability((context) => context.resolve(token) !== undefined);
}

/**
 * Available when `token` resolves and, if given, `predicate` holds for the resolved value.
 *
 * @example
 * ```ts
 * availableWhen: provided(BillingClient).and(requires(UserInfo, (user) => user.isAdmin))
 * ```
 */
export function requires<T>(token: Token<T>, predicate?: (value: T) => boolean): Availability {
  return new Availability((context) => {
    const value = context.resolve(token);
    return value !== undefined && (predicate === undefined || predicate(value));
  });
}
