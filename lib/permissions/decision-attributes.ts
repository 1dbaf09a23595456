import type { TraceAttributes } from '../pipeline/telemetry';
import type { PermissionDecision } from './permission-decision';
import type { PermissionMode } from './permission-mode';
import { formatPermissionRule } from './permission-rule';

/**
 * A permission decision as trace attributes of this library's namespace: `agenttoolkit.permission.mode` (the engine's
 * mode, when an engine decided), `.behavior` (`allow`, `deny`, `ask`), `.reason` (the {@link DecisionReason} type) and
 * `.rule` (the string form of the rule that decided, for a `rule` reason).
 */
export function decisionAttributes(decision: PermissionDecision, mode: PermissionMode | undefined): TraceAttributes {
  const attributes: Record<string, string> = { 'agenttoolkit.permission.behavior': decision.behavior, 'agenttoolkit.permission.reason': decision.reason.type };
  if (mode !== undefined) attributes['agenttoolkit.permission.mode'] = mode;
  if (decision.reason.type === 'rule') attributes['agenttoolkit.permission.rule'] = formatPermissionRule(decision.reason.rule);
  return attributes;
}
