import { BinaryContent, isBytes } from '../media/binary-content';
import { isLinkedContent } from '../media/resource-link';
import { BLANK_FAILURE_TEXT, isBlankError, type ActionResult } from '../result';
import { toWellFormed } from '../text/cut-text';
import { wellFormedJsonText } from './well-formed';

/**
 * The text a model reads for a result: a string result as is, the text of a result with resource links (its links
 * are sent only where a provider takes them: see `resultLinks`), any other value as JSON, a failure as its error (a
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
  if (isLinkedContent(value)) return value.text;
  const text = jsonText(value);
  if (text !== undefined) return wellFormedJsonText(text);
  if (typeof value === 'symbol') return String(value);
  const kind = typeof value;
  return `(the tool returned ${kind === 'object' ? 'an' : 'a'} ${kind}, which has no JSON form)`;
}

/**
 * `JSON.stringify(value)` with bytes (typed arrays, `Buffer`s, `ArrayBuffer`s) written as base64 binary JSON, or
 * undefined when the value has no JSON text (a cycle, a bigint, a function, a throwing toJSON).
 */
export function jsonText(value: unknown): string | undefined {
  try {
    // Bytes are objects: a primitive needs no replacer, which would cost a wrapper object and a call per value.
    return typeof value === 'object' && value !== null ? JSON.stringify(value, binaryReplacer) : JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether JSON text from {@link jsonText} may hold bytes written as binary JSON: the value itself then differs from
 * its text, and structured channels (Gemini's `output`, MCP's `structuredContent`) send the parsed text instead. A
 * false positive (data that spells the marker) only costs a copy of the same data.
 */
export function mayHoldBinary(text: string): boolean {
  return text.includes('"type":"binary"');
}

/** Bytes as base64 binary JSON. `this` is the holder, so a `Buffer` is seen before its own `toJSON` turned it into numbers. */
function binaryReplacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  return typeof raw === 'object' && raw !== null && isBytes(raw) ? BinaryContent.from(raw).toJSON() : value;
}
