/**
 * Every metadata key this library stores with `Reflect.defineMetadata`, as symbols so they cannot collide with another
 * library's string keys. Only `reflection.ts` reads or writes them.
 */
export const MetadataKeys = {
  /** Per method: the `@Action` options ({@link ActionMetadata}). */
  action: Symbol('agenttoolkit:action'),
  /** Per method: the `@Param` declarations, one per parameter index. */
  params: Symbol('agenttoolkit:params'),
  /** Per method: the `@Inject` declarations, one per parameter index. */
  inject: Symbol('agenttoolkit:inject'),
  /** Per method: the `@RequiresApproval` rule. */
  approval: Symbol('agenttoolkit:approval'),
  /** Per class: the `@ToolGroup` declaration. */
  group: Symbol('agenttoolkit:group'),
  /** Per prototype: the names of the methods that carry `@Action`, so the scanner never enumerates members. */
  actionMethods: Symbol('agenttoolkit:action-methods'),
} as const;
