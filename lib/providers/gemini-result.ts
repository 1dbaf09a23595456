import { isLinkedContent } from '../media/resource-link';
import type { BinaryContent } from '../media/binary-content';
import { extensionOf } from '../media/media-type';
import type { ActionResult } from '../result';
import { toWellFormed } from '../text/cut-text';
import { binaryText, displayName, hasBinary, resultParts } from './result-parts';
import { failureText, mayHoldBinary, jsonText, resultText } from './result-text';
import { providerIdOf, type ToolCallRequest } from './tool-call-request';
import { wellFormedJson } from './well-formed';

/**
 * Media types Gemini takes inline in a function response (images PNG, JPEG, WebP; documents PDF and plain text):
 * https://ai.google.dev/gemini-api/docs/function-calling#multimodal
 */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'application/pdf', 'text/plain']);

/** Media inside a function response (the SDK's `FunctionResponsePart` with `inlineData`). */
export interface GeminiFunctionResponseInlinePart {
  inlineData: { mimeType: string; data: string; displayName: string };
}

/**
 * A `functionResponse` part: `{"functionResponse": {"id"?, "name", "response", "parts"?}}`, `response` always an
 * object; `parts` carries media.
 */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: Record<string, unknown>; parts?: GeminiFunctionResponseInlinePart[] };
}

/**
 * A `functionResponse` part carrying a result back (provider rule: `response` is an object; the SDK documents the
 * `output` and `error` keys): `{ output: value }` on success, `{ error: message }` on failure (never blank), declined
 * and timed-out calls included. The id Gemini gave the call is echoed when it gave one (`providerId`, else `id`); an id
 * the parser made up is never sent. A binary result (see `ActionResult.image` /
 * `ActionResult.file`) in a media type Gemini takes inline (PNG, JPEG, WebP, PDF, plain text) goes in `parts` as
 * inline data named by `displayName`, and `output` refers to it as `{"$ref": "<displayName>"}` (Gemini's documented
 * form for multimodal function responses); other media types are `output` as base64 JSON.
 */
export function geminiFunctionResponse(call: ToolCallRequest, result: ActionResult<unknown>): GeminiFunctionResponsePart {
  const id = providerIdOf(call);
  const head = { ...(id ? { id: toWellFormed(id) } : {}), name: toWellFormed(call.name) };
  if (!result.ok) return { functionResponse: { ...head, response: { error: failureText(result) } } };
  const parts = resultParts(result);
  if (!hasBinary(parts)) return { functionResponse: { ...head, response: { output: geminiOutput(result) } } };
  const inline: GeminiFunctionResponseInlinePart[] = [];
  const items = parts.map((part): unknown => {
    if (part.type === 'text') return part.text;
    if (!INLINE_TYPES.has(part.content.essence)) return JSON.parse(binaryText(part.content)) as unknown;
    const name = displayName(part.content, inline.length, extensionOf(part.content.essence));
    inline.push(inlinePart(part.content, name));
    return { $ref: name };
  });
  const functionResponse = { ...head, response: { output: items.length === 1 ? items[0] : items } };
  return { functionResponse: inline.length > 0 ? { ...functionResponse, parts: inline } : functionResponse };
}

function inlinePart(content: BinaryContent, name: string): GeminiFunctionResponseInlinePart {
  return { inlineData: { mimeType: content.essence, data: content.data, displayName: name } };
}

/**
 * The value for `output`: the result as is when it is JSON data (none: null), else its text (a cycle would break the
 * request). Strings in it are well-formed (a copy replaces lone surrogates with U+FFFD); bytes inside it are base64
 * JSON, never lists of numbers.
 */
function geminiOutput(result: ActionResult<unknown>): unknown {
  const value = result.result;
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return toWellFormed(value);
  if (isLinkedContent(value)) return value.text;
  const text = jsonText(value);
  if (text === undefined) return resultText(result);
  return wellFormedJson(mayHoldBinary(text) ? (JSON.parse(text) as unknown) : value, text);
}

/** The user turn answering every function call of a model turn: `{"role": "user", "parts": [functionResponse, ...]}`. */
export function geminiFunctionResponseContent(results: ReadonlyArray<{ readonly call: ToolCallRequest; readonly result: ActionResult<unknown> }>): { role: 'user'; parts: GeminiFunctionResponsePart[] } {
  return { role: 'user', parts: results.map(({ call, result }) => geminiFunctionResponse(call, result)) };
}
