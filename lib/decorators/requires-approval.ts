import { MetadataKeys } from '../metadata/keys';
import type { ApprovalRecord } from '../metadata/records';
import { defineOwn } from '../metadata/reflection';

/**
 * Marks a tool method as needing the user's confirmation before it runs, always or when `predicate` holds for the
 * validated params (exactly the params the method would receive). The host reads it through
 * `tool.requiresApproval` / `tool.needsApproval(args)`; the library does not block the call itself.
 * Overrides the `requiresApproval` option of `@Action`.
 *
 * @example
 * ```ts
 * @RequiresApproval((p: Static<typeof RefundParams>) => p.amount > 100)
 * ```
 */
export function RequiresApproval<P = never>(predicate?: (params: P) => boolean): MethodDecorator {
  return (target, member) => {
    const record: ApprovalRecord = { predicate: predicate as ApprovalRecord['predicate'] };
    defineOwn(MetadataKeys.approval, record, target, member);
  };
}
