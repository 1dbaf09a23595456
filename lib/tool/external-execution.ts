/**
 * A call of an external tool: the tool has no body, so instead of
 * running, the call hands the host this request (the call id, the tool name and the validated params). The host
 * runs it elsewhere (a human, another system) and hands the outcome back with `tools.completeExternal(request,
 * outcome)`, which turns it into an ordinary result. Frozen.
 */
export class ExternalExecutionRequest {
  constructor(
    /** The provider's call id (`ExecuteOptions.callId`), or a generated one. */
    readonly callId: string,
    readonly name: string,
    /** Validated params, defaults applied. */
    readonly params: Readonly<Record<string, unknown>>,
  ) {
    Object.freeze(this);
  }

  /** Plain JSON form. */
  toJSON(): { callId: string; name: string; params: Readonly<Record<string, unknown>> } {
    return { callId: this.callId, name: this.name, params: this.params };
  }
}

/** Whether a result (or any value) carries an external execution request: `isExternalRequest(result.result)`. */
export function isExternalRequest(value: unknown): value is ExternalExecutionRequest {
  return value instanceof ExternalExecutionRequest;
}
