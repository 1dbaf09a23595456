import { BinaryContent, isBinaryContent, isBytes } from '../media/binary-content';
import { BLANK_FAILURE_TEXT, isBlankError, type ActionResult } from '../result';
import { toWellFormed } from '../text/cut-text';
import { wellFormedJsonText } from './well-formed';

/**
 * The text a model reads for a result: a string result as is, any other value as JSON, a failure as its error (a
 * blank one, which a result from an older copy of the library may still carry, as `BLANK_FAILURE_TEXT`).
 * Shared by the formats whose result channel is text (OpenAI, Anthropic, MCP). Never throws: a value JSON cannot
 * carry (a cycle, a bigint, a function) becomes a short note instead, and a function's source never reaches the model.
 * Bytes anywhere in the value are written as `{"type": "binary", "mediaType", "data": base64}`, never as numbers.
 * The text is well-formed: a lone UTF-16 surrogate in a tool's string or error (which providers refuse) becomes U+FFFD.
 */
export function resultText(result: ActionResult<unknown>): string {
  return toWellFormed(rawResultText(result));
}

/** A failure's text for the model: its error, or `BLANK_FAILURE_TEXT` when that is blank. Well-formed. */
export function failureText(result: ActionResult<unknown>): string {
  return isBlankError(result.error) ? BLANK_FAILURE_TEXT : toWellFormed(result.error!);
}

function rawResultText(result: ActionResult<unknown>): string {
  if (!result.ok) return failureText(result);
  const value = result.result;
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  const text = jsonText(value);
  if (text !== undefined) return wellFormedJsonText(text);
  return typeof value === 'symbol' ? String(value) : `(the tool returned a ${typeof value}, which has no JSON form)`;
}

/**
 * `JSON.stringify(value)` with bytes (typed arrays, `Buffer`s, `ArrayBuffer`s) written as base64 binary JSON, or
 * undefined when the value has no JSON text (a cycle, a bigint, a function, a throwing toJSON).
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, binaryReplacer);
  } catch {
    return undefined;
  }
}

/** Whether `jsonText(value)` differs from `JSON.stringify(value)`: the value holds bytes or binary content somewhere. */
export function holdsBinary(value: unknown, depth = 0): boolean {
  if (isBytes(value) || isBinaryContent(value)) return true;
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (holdsBinary(item, depth + 1)) return true;
  return false;
}

/** Bytes as base64 binary JSON. `this` is the holder, so a `Buffer` is seen before its own `toJSON` turned it into numbers. */
function binaryReplacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  return typeof raw === 'object' && raw !== null && isBytes(raw) ? BinaryContent.from(raw).toJSON() : value;
}
