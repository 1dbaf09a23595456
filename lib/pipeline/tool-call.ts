import type { ToolContext } from '../context/tool-context';
import type { ActionResultClass } from '../result';
import type { ToolChunk } from '../streaming/tool-chunk';
import type { Tool } from '../tool/tool';
import type { CallTrace } from './telemetry';

/** The fields of a {@link ToolCall}. */
export interface ToolCallInit {
  readonly name: string;
  readonly args: unknown;
  readonly context: ToolContext;
  readonly tool: Tool;
  readonly params: Record<string, unknown>;
  readonly signal: AbortSignal;
  readonly resultType: ActionResultClass;
  /** The provider's id for this call, when the host passed one (`ExecuteOptions.callId`). */
  readonly callId?: string | undefined;
  /**
   * Set by `tools.stream(...)`: receives each chunk the tool produces, in order. A middleware may wrap it (through
   * `call.with({ onChunk })`) to observe or transform the chunks the consumer sees.
   */
  readonly onChunk?: ((chunk: ToolChunk) => void | Promise<void>) | undefined;
  /**
   * Whether the call's approval was given: by the caller (`ExecuteOptions.approved`) or by a middleware earlier in
   * the chain, which passes `call.with({ approved: true })` to `next` (as `PermissionMiddleware` does for a call the
   * engine allowed or the user approved). A call whose tool needs approval for these params and that is not approved
   * is not run: the innermost step answers `unapproved`.
   */
  readonly approved?: boolean | undefined;
  /**
   * Set by the registry when the caller passed an approval that does not cover this call (a `CallApproval` of another
   * call, tool or input, or one without `callId`): what differs, which the innermost step's refusal names.
   */
  readonly approvalMismatch?: string | undefined;
  /**
   * The call's trace when the registry has telemetry (`ToolsOptions.telemetry`) and it records this call: a middleware
   * adds what it learned with `call.trace?.annotate({...})` (as `PermissionMiddleware` does with its decision).
   */
  readonly trace?: CallTrace | undefined;
}

/**
 * One call on its way through the middleware pipeline: the name and raw arguments the model
 * sent, the context, the resolved tool and the validated params. Immutable: a middleware that changes something
 * passes `call.with({...})` to `next`.
 */
export class ToolCall implements ToolCallInit {
  readonly name!: string;
  /** The arguments as the model sent them (object or JSON text), before validation. */
  readonly args: unknown;
  readonly context!: ToolContext;
  readonly tool!: Tool;
  /** Validated params, defaults applied: what the tool receives. */
  readonly params!: Record<string, unknown>;
  /** Aborted on timeout or cancellation. */
  readonly signal!: AbortSignal;
  /** The registry's result class: build results with `call.resultType.fail(...)` / `.success(...)`. */
  readonly resultType!: ActionResultClass;
  readonly callId?: string;
  readonly onChunk?: (chunk: ToolChunk) => void | Promise<void>;
  readonly approved?: boolean;
  readonly approvalMismatch?: string;
  readonly trace?: CallTrace;

  constructor(init: ToolCallInit) {
    Object.assign(this, init);
    Object.freeze(this);
  }

  /** A copy with some fields replaced. */
  with(patch: Partial<ToolCallInit>): ToolCall {
    return new ToolCall({ ...this, ...patch });
  }
}
