import type { ParamsSchema, Static } from '../schema/schema-types';
import type { DescriptionSource } from '../context/context-description';
import { MetadataKeys } from '../metadata/keys';
import type { ActionRecord } from '../metadata/records';
import { defineOwn, getOwn } from '../metadata/reflection';
import type { ActionOptions } from '../tool/action-options';

/** The method shape `@Action` accepts when `params` is given: the typed params first, injected dependencies after. */
export type ParamsMethod<P extends ParamsSchema> = (params: Static<P>, ...dependencies: never[]) => unknown;

/**
 * Marks a method as a tool. Register an instance of the class with `tools.register(instance)`.
 *
 * With `params` (an object schema: TypeBox 1.x or 0.34, a Standard JSON Schema such as `z.object({...})`, or plain
 * JSON Schema) the method receives the validated, typed params object first, and the option predicates
 * (`requiresApproval`, `status`, `readOnly`) are typed from it. A method whose params type is not what the schema
 * describes is a compile error. Without `params`, each model-facing parameter carries `@Param(name)` and each
 * dependency `@Inject(Token)`.
 *
 * @param description - what the tool does, for the model; a string or `descriptionFromContext(...)`.
 * @param options - name, params and runtime metadata ({@link ActionOptions}).
 *
 * @example
 * ```ts
 * class Billing {
 *   @Action('Issue a refund for an order.', { params: RefundParams, effects: [ToolEffect.NETWORK], requiresApproval: (p) => p.amount > 100 })
 *   refund(params: Static<typeof RefundParams>, @Inject(BillingClient) client: BillingClient) { ... }
 * }
 * ```
 */
export function Action<P extends ParamsSchema>(
  description: string | DescriptionSource,
  options: ActionOptions<P> & { params: P },
): <M extends ParamsMethod<P>>(target: object, member: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void;
export function Action(description: string | DescriptionSource, options?: Omit<ActionOptions, 'params'>): MethodDecorator;
export function Action(description: string | DescriptionSource, options: ActionOptions = {}) {
  return (target: object, member: string | symbol): void => {
    const record: ActionRecord = { description, options };
    defineOwn(MetadataKeys.action, record, target, member);
    const names = getOwn<Array<string | symbol>>(MetadataKeys.actionMethods, target) ?? [];
    if (!names.includes(member)) defineOwn(MetadataKeys.actionMethods, [...names, member], target);
  };
}
