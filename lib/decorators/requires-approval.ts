import { MetadataKeys } from '../metadata/keys';
import type { ApprovalRecord } from '../metadata/records';
import { defineOwn } from '../metadata/reflection';

/**
 * A compile-time check of `@RequiresApproval(predicate)`: the params the method receives (its first parameter, for a
 * method that takes the params object) must be assignable to the predicate's parameter type. A method whose first
 * parameter is a string, number, boolean or array (a plain-signature method with `@Param` fields) is not checked:
 * its predicate receives the params object, which the method's signature does not spell.
 */
export type ApprovalFits<M, P> = M extends (first: infer X, ...rest: never[]) => unknown
  ? [X] extends [string | number | boolean | bigint | readonly unknown[] | null | undefined]
    ? unknown
    : [X] extends [P]
      ? unknown
      : { readonly 'the predicate of @RequiresApproval does not accept the params this method receives': P }
  : unknown;

/**
 * The decorator `@RequiresApproval(predicate)` returns: it accepts a method only when {@link ApprovalFits} holds.
 *
 * @typeParam M - the decorated method's type.
 */
export type ApprovalDecorator<P> = <M extends (...args: never[]) => unknown>(
  target: object,
  member: string | symbol,
  descriptor: TypedPropertyDescriptor<M> & ApprovalFits<M, P>,
) => void;

/**
 * Marks a tool method as needing the user's confirmation before it runs, always or when `predicate` holds for the
 * validated params (exactly the params the method would receive). The host reads it through
 * `tool.requiresApproval` / `tool.needsApproval(args)`; the library does not block the call itself.
 * Overrides the `requiresApproval` option of `@Action`.
 *
 * A decorator cannot infer its argument from the method it decorates (a TypeScript limitation): annotate the
 * predicate's parameter. The annotation is checked against the method: a type the method's params do not satisfy
 * is a compile error. Prefer the `requiresApproval` option of `@Action`, whose predicate is inferred from `params`.
 *
 * @example
 * ```ts
 * @RequiresApproval((p: Static<typeof RefundParams>) => p.amount > 100)
 * ```
 */
export function RequiresApproval(): MethodDecorator;
export function RequiresApproval<P>(predicate: (params: P) => boolean): ApprovalDecorator<P>;
export function RequiresApproval(predicate?: (params: never) => boolean) {
  return (target: object, member: string | symbol): void => {
    const record: ApprovalRecord = { predicate };
    defineOwn(MetadataKeys.approval, record, target, member);
  };
}
