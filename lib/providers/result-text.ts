import type { ActionResult } from '../result';

/**
 * The text a model reads for a result: a string result as is, any other value as JSON, a failure as its error.
 * Shared by the formats whose result channel is text (OpenAI, Anthropic).
 */
export function resultText(result: ActionResult<unknown>): string {
  if (!result.ok) return result.error ?? 'The tool failed without a message.';
  const value = result.result;
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}
