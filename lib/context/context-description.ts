import type { Token } from './injection-token';
import type { ToolContext } from './tool-context';

/** Anything that renders a description against a context: what `@Action` and `tools.action` accept besides a string. */
export interface DescriptionSource {
  /** The description for a call or a schema rendering; `context` is undefined when the host passed none. */
  resolve(context: ToolContext | undefined): string;
}

/**
 * A tool description rendered against the context each time schemas are produced. Create it with {@link descriptionFromContext}.
 */
export class ContextDescription<T = unknown> implements DescriptionSource {
  /**
   * @param token - what to look up in the context.
   * @param render - turns the resolved value into the description.
   * @param fallback - the description when `token` does not resolve (or there is no context).
   */
  constructor(
    readonly token: Token<T>,
    readonly render: (value: T) => string,
    readonly fallback: string,
  ) {}

  /** `render(value)` when `token` resolves in `context`, else the fallback. */
  resolve(context: ToolContext | undefined): string {
    const value = context?.resolve(this.token);
    return value === undefined ? this.fallback : this.render(value);
  }
}

/**
 * A description that embeds something from the context, with a fallback when the dependency is not provided.
 *
 * @example
 * ```ts
 * @Action(descriptionFromContext(BankingClient, (c) => `Look up the balance for ${c.accountName}.`, 'Look up account balance.'))
 * ```
 */
export function descriptionFromContext<T>(token: Token<T>, render: (value: T) => string, fallback: string): ContextDescription<T> {
  return new ContextDescription(token, render, fallback);
}
