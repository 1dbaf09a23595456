import type { BinaryContent } from '../media/binary-content';
import type { ActionResult } from '../result';
import { toWellFormed } from '../text/cut-text';
import { binaryText, hasBinary, resultParts } from './result-parts';
import { resultText } from './result-text';
import { providerIdOf, type ToolCallRequest } from './tool-call-request';

/** The image media types a Messages API `image` block takes (the SDK's `Base64ImageSource`). */
type AnthropicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
const IMAGE_TYPES: ReadonlySet<string> = new Set<AnthropicImageType>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A content block of a `tool_result`: text, a base64 image, or a document (base64 PDF or plain text). */
export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'text'; media_type: 'text/plain'; data: string }; title?: string };

/** A `tool_result` block: `{"type": "tool_result", "tool_use_id", "content", "is_error"}`. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicToolResultContent[];
  is_error: boolean;
}

/**
 * A `tool_result` block for the next user message. Every `tool_use` needs one, including failed, declined and
 * timed-out calls, or the next request is rejected (provider rule); a failure has `is_error: true` and never empty
 * content (the API answers 400 to an empty error result). Text results are a string; binary results (see
 * `ActionResult.image` / `ActionResult.file`) are content blocks: JPEG, PNG, GIF and WebP as `image` blocks, PDF and
 * plain text as `document` blocks, any other media type as a text block with the base64 JSON form
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks).
 * `call` is the call from `anthropicToolUses` (its `tool_use` id is sent back, never an id the parser made up) or the
 * `tool_use` id itself.
 */
export function anthropicToolResult(call: string | ToolCallRequest, result: ActionResult<unknown>): AnthropicToolResult {
  const parts = resultParts(result);
  const id = toWellFormed(providerIdOf(call));
  if (!hasBinary(parts)) return { type: 'tool_result', tool_use_id: id, content: resultText(result), is_error: !result.ok };
  // Empty text blocks are refused by the API: they are left out.
  const content = parts.flatMap((part): AnthropicToolResultContent[] => (part.type === 'text' ? (part.text === '' ? [] : [{ type: 'text', text: part.text }]) : [binaryBlock(part.content)]));
  return { type: 'tool_result', tool_use_id: id, content, is_error: !result.ok };
}

function binaryBlock(content: BinaryContent): AnthropicToolResultContent {
  const type = content.essence;
  if (IMAGE_TYPES.has(type)) return { type: 'image', source: { type: 'base64', media_type: type as AnthropicImageType, data: content.data } };
  const title = content.name === undefined ? {} : { title: toWellFormed(content.name) };
  if (type === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: content.data }, ...title };
  if (type === 'text/plain') return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: toWellFormed(Buffer.from(content.data, 'base64').toString('utf8')) }, ...title };
  return { type: 'text', text: binaryText(content) };
}

/**
 * The user message answering every `tool_use` of a response, in call order: `{"role": "user", "content": [tool_result,
 * ...]}`. Pass all the calls' results (e.g. from `executeToolCalls`), declined ones included.
 */
export function anthropicToolResultMessage(results: ReadonlyArray<{ readonly call: ToolCallRequest; readonly result: ActionResult<unknown> }>): { role: 'user'; content: AnthropicToolResult[] } {
  return { role: 'user', content: results.map(({ call, result }) => anthropicToolResult(call, result)) };
}
