/**
 * A tool call extracted from a provider's response, in provider-neutral form: the provider's call id (to pair the
 * result with the call), the tool name and the arguments (an object, or the JSON text the provider sent; `execute`
 * accepts both and reports malformed JSON as a failed result).
 */
export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}
