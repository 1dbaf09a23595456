import { PermissionBehavior } from './permission-behavior';
import type { PermissionMode } from './permission-mode';
import { readableRule, type PermissionRule } from './permission-rule';

/**
 * Why a decision came out as it did, for hosts that show or log it:
 * - `rule`: an allow, deny or ask rule matched (the rule is attached);
 * - `read_only`: the tool said this call only reads (`tool.checkReadOnly(input)`);
 * - `tool`: the tool's own `checkPermissions` decided;
 * - `mode`: the mode decided (EXPLORE denies what is not read-only, BYPASS allows, DONT_ASK turned an ask into a deny);
 * - `default`: nothing allowed the call, so the user is asked;
 * - `invalid_input`: the arguments do not validate; the call will fail validation and run nothing;
 * - `error`: the tool's own check threw; the call is denied (fail closed).
 */
export type DecisionReason =
  | { readonly type: 'rule'; readonly rule: PermissionRule }
  | { readonly type: 'read_only' }
  | { readonly type: 'tool' }
  | { readonly type: 'mode'; readonly mode: PermissionMode }
  | { readonly type: 'default' }
  | { readonly type: 'invalid_input' }
  | { readonly type: 'error' };

/** The optional fields of a {@link PermissionDecision}. */
export interface PermissionDecisionInit {
  /** Rules that would allow this call next time (offered with ASK; default none). */
  readonly suggestions?: readonly PermissionRule[];
  /** The input the call should run with instead, when a check rewrote it (for example a normalised path). */
  readonly updatedInput?: Record<string, unknown>;
  /** On an ASK: a safety check that allow rules cannot silence. */
  readonly bypassImmune?: boolean;
  /** Why (default `{ type: 'tool' }`: what a tool's own check returns). */
  readonly reason?: DecisionReason;
}

const TOOL_REASON: DecisionReason = Object.freeze({ type: 'tool' });
const NONE: readonly PermissionRule[] = Object.freeze([]);

/**
 * The outcome of a permission check: a behaviour, a message a user can read, the
 * reason, suggested rules and, where a check rewrote it, the updated input. Frozen; build with the static helpers.
 */
export class PermissionDecision {
  readonly suggestions: readonly PermissionRule[];
  readonly updatedInput: Record<string, unknown> | undefined;
  readonly bypassImmune: boolean;
  readonly reason: DecisionReason;

  constructor(
    readonly behavior: PermissionBehavior,
    /** What was decided and why, for the user (and, on DENY, for the model). */
    readonly message: string,
    init: PermissionDecisionInit = {},
  ) {
    this.suggestions = init.suggestions ? Object.freeze(init.suggestions.map(readableRule)) : NONE;
    this.updatedInput = init.updatedInput;
    this.bypassImmune = init.bypassImmune === true && behavior === PermissionBehavior.ASK;
    this.reason = init.reason ?? TOOL_REASON;
    Object.freeze(this);
  }

  /** Run the call. */
  static allow(message: string, init?: PermissionDecisionInit): PermissionDecision {
    return new PermissionDecision(PermissionBehavior.ALLOW, message, init);
  }

  /** Do not run the call. */
  static deny(message: string, init?: PermissionDecisionInit): PermissionDecision {
    return new PermissionDecision(PermissionBehavior.DENY, message, init);
  }

  /** Ask the user first; `bypassImmune: true` marks a safety check allow rules cannot silence. */
  static ask(message: string, init?: PermissionDecisionInit): PermissionDecision {
    return new PermissionDecision(PermissionBehavior.ASK, message, init);
  }

  /** No opinion: let the engine decide (tool checks only). */
  static passthrough(message = 'No tool-specific decision.', init?: PermissionDecisionInit): PermissionDecision {
    return new PermissionDecision(PermissionBehavior.PASSTHROUGH, message, init);
  }

  /** A copy with some fields replaced. */
  with(patch: PermissionDecisionInit & { behavior?: PermissionBehavior; message?: string }): PermissionDecision {
    return new PermissionDecision(patch.behavior ?? this.behavior, patch.message ?? this.message, {
      suggestions: patch.suggestions ?? this.suggestions,
      updatedInput: 'updatedInput' in patch ? patch.updatedInput : this.updatedInput,
      bypassImmune: patch.bypassImmune ?? this.bypassImmune,
      reason: patch.reason ?? this.reason,
    });
  }

  /** True for ALLOW. */
  get isAllowed(): boolean {
    return this.behavior === PermissionBehavior.ALLOW;
  }
}
