import { AgentToolkitError } from '../errors';

/**
 * Codes of {@link PermissionConfigError}:
 * - `INVALID_PERMISSION_RULE`: a rule string does not follow `Tool` or `Tool(content)`, or a path rule's pattern has
 *   no meaning (`~user/...`, a `..` after a wildcard, a reversed range); the message quotes it and says why.
 * - `INVALID_PERMISSION_MODE`: a mode name is not one of the five modes.
 * - `INVALID_RULE_BEHAVIOR`: a rule hook (`matchRule`) was called without the rule's behaviour.
 * - `INVALID_PERMISSION_DECISION`: a tool's `checkPermissions` returned something that is not a decision (the
 *   engine then denies the call).
 * - `RULE_MATCHES_NOTHING`: `PermissionEngine.checkRules` (and `runToolCalls`) found rules that can match no call of
 *   the registry's tools; the message has one line per rule, naming the fix.
 */
export type PermissionConfigErrorCode = 'INVALID_PERMISSION_RULE' | 'INVALID_PERMISSION_MODE' | 'INVALID_RULE_BEHAVIOR' | 'INVALID_PERMISSION_DECISION' | 'RULE_MATCHES_NOTHING';

/**
 * A permission configuration the host gave, or a tool's permission hook, cannot be used (see
 * {@link PermissionConfigErrorCode}). Thrown to the host, never to a model.
 */
export class PermissionConfigError extends AgentToolkitError<PermissionConfigErrorCode> {
  constructor(code: PermissionConfigErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
