/**
 * What a permission check concludes about one tool call.
 *
 * `PASSTHROUGH` is only ever returned by a tool's own `checkPermissions`: it means "I have no opinion, let the
 * engine's rules and mode decide". The {@link PermissionEngine} never returns it.
 */
export enum PermissionBehavior {
  /** Run the call. */
  ALLOW = 'allow',
  /** Do not run the call; the model receives a failed result. */
  DENY = 'deny',
  /** The user (or host) must confirm the call first. */
  ASK = 'ask',
  /** No opinion (tool checks only): the engine decides from rules and mode. */
  PASSTHROUGH = 'passthrough',
}
