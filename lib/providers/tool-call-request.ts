/**
 * A tool call extracted from a provider's response, in provider-neutral form: the call's id (to pair the result with
 * the call, and to bind an approval to it), the tool name and the arguments (an object, or the JSON text the provider
 * sent; `execute` accepts both and reports malformed JSON as a failed result).
 *
 * The providers' parsers give every call of one response its own `id`: when the provider sent none (Gemini often
 * does) or repeated one, the parser makes one up and keeps what the provider sent in `providerId`. A made-up id is
 * internal: the result builders send `providerId` back (or no id, for Gemini, whose function responses are matched by
 * name and order), never the made-up one.
 */
export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  /**
   * The id as the provider sent it (`""` for none), present only when `id` was made up because the provider sent
   * none or repeated one within the response. Result builders answer with this one.
   */
  readonly providerId?: string | undefined;
}

/** The id a result for `call` carries back to the provider: the provider's own (see {@link ToolCallRequest.providerId}). */
export function providerIdOf(call: string | Pick<ToolCallRequest, 'id' | 'providerId'>): string {
  return typeof call === 'string' ? call : (call.providerId ?? call.id);
}
