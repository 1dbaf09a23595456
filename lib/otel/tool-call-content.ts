/** A piece of a call's content offered to the host's {@link ContentRecorder} before it is recorded on a span. */
export interface ToolCallContent {
  /** `arguments`: what the model sent (an object, or JSON text); `result`: the value a successful call returned. */
  readonly kind: 'arguments' | 'result';
  /** The tool name the model sent. */
  readonly toolName: string;
  /** The provider's id of the call, when the host passed one. */
  readonly callId: string | undefined;
  /** The content itself, as the registry holds it (not yet serialised). */
  readonly value: unknown;
}

/**
 * The host's redaction hook for opt-in content (`gen_ai.tool.call.arguments` and `gen_ai.tool.call.result`): returns
 * the text to record (serialised and redacted as the host sees fit), or `undefined` to record nothing. A hook that
 * throws records nothing; the call is unaffected.
 */
export type ContentRecorder = (content: ToolCallContent) => string | undefined;

/** What `recorder` makes of `content`: its text, or `undefined` (nothing to record, or the hook threw). */
export function recordedContent(recorder: ContentRecorder | undefined, content: ToolCallContent): string | undefined {
  if (recorder === undefined) return undefined;
  try {
    const text = recorder(content);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
