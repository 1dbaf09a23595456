import type { ActionResult } from '../result';
import { toWellFormed } from '../text/cut-text';
import { wellFormedJsonText } from './well-formed';

/**
 * The text a model reads for a result: a string result as is, any other value as JSON, a failure as its error.
 * Shared by the formats whose result channel is text (OpenAI, Anthropic, MCP). Never throws: a value JSON cannot
 * carry (a cycle, a bigint, a function) becomes a short note instead, and a function's source never reaches the model.
 * The text is well-formed: a lone UTF-16 surrogate in a tool's string or error (which providers refuse) becomes U+FFFD.
 */
export function resultText(result: ActionResult<unknown>): string {
  return toWellFormed(rawResultText(result));
}

function rawResultText(result: ActionResult<unknown>): string {
  if (!result.ok) return typeof result.error === 'string' ? result.error : 'The tool failed without a message.';
  const value = result.result;
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  const text = jsonText(value);
  if (text !== undefined) return wellFormedJsonText(text);
  return typeof value === 'symbol' ? String(value) : `(the tool returned a ${typeof value}, which has no JSON form)`;
}

/** `JSON.stringify(value)`, or undefined when the value has no JSON text (a cycle, a bigint, a function, a throwing toJSON). */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
