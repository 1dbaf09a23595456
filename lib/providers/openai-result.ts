import type { BinaryContent } from '../media/binary-content';
import { extensionOf } from '../media/media-type';
import type { ActionResult } from '../result';
import { toWellFormed } from '../text/cut-text';
import { binaryText, displayName, hasBinary, resultParts, type ResultPart } from './result-parts';
import { resultText } from './result-text';
import { providerIdOf, type ToolCallRequest } from './tool-call-request';

/** Image media types OpenAI models take as input (PNG, JPEG, WebP, non-animated GIF): https://platform.openai.com/docs/guides/images-vision */
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
/** File media types sent as file inputs (PDF): https://platform.openai.com/docs/guides/pdf-files */
const FILE_TYPES: ReadonlySet<string> = new Set(['application/pdf']);

/** Whether OpenAI takes this content as an image or file input; other media types go as base64 JSON text. */
function attachable(content: BinaryContent): 'image' | 'file' | undefined {
  const type = content.essence;
  return IMAGE_TYPES.has(type) ? 'image' : FILE_TYPES.has(type) ? 'file' : undefined;
}

/** An item of a Responses `function_call_output` list (the SDK's `ResponseFunctionCallOutputItem`). */
export type OpenAIResponsesOutputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/**
 * A `function_call_output` input item carrying a result back (`{"type": "function_call_output", "call_id",
 * "output"}`); a failure's text starts with `Error:`. Every call needs one, declined and failed ones included. A text
 * result is a string; a binary result (see `ActionResult.image` / `ActionResult.file`) is a list of input content:
 * images as `input_image` and PDFs as `input_file` (base64 `data:` URLs), other media types as `input_text` holding
 * the base64 JSON form (https://platform.openai.com/docs/api-reference/responses/create#responses-create-input).
 * `call` is the call from `openAIResponsesToolCalls` (its `call_id` is sent back, never an id the parser made up) or
 * the `call_id` itself.
 */
export function openAIResponsesToolOutput(call: string | ToolCallRequest, result: ActionResult<unknown>): { type: 'function_call_output'; call_id: string; output: string | OpenAIResponsesOutputContent[] } {
  const parts = resultParts(result);
  const call_id = toWellFormed(providerIdOf(call));
  if (!hasBinary(parts)) return { type: 'function_call_output', call_id, output: result.ok ? resultText(result) : `Error: ${resultText(result)}` };
  const output = parts.map((part, index): OpenAIResponsesOutputContent => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    const kind = attachable(part.content);
    if (kind === 'image') return { type: 'input_image', image_url: part.content.toDataUrl(), detail: 'auto' };
    if (kind === 'file') return { type: 'input_file', file_data: part.content.toDataUrl(), filename: displayName(part.content, index, extensionOf(part.content.essence)) };
    return { type: 'input_text', text: binaryText(part.content) };
  });
  return { type: 'function_call_output', call_id, output };
}

/** A Chat Completions `tool` message (the SDK's `ChatCompletionToolMessageParam`). */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A content part of the user message carrying tool attachments (the SDK's `ChatCompletionContentPart`). */
export type OpenAIChatAttachmentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail: 'auto' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/**
 * A Chat Completions `tool` message carrying a result back (`{"role": "tool", "tool_call_id", "content"}`); a failure's
 * text starts with `Error:`. Every call needs one, failed, declined and timed-out ones included.
 *
 * Chat Completions tool messages hold text only. An image or PDF in the result is replaced in the text by a note
 * naming the attachment (`[attachment 'shot.png' (image/png, 1234 bytes): in the next user message]`); send the
 * attachments with {@link openAIChatToolMessages}, which adds them as one user message after the tool messages. Other
 * media types are written in the text as base64 JSON. `call` is the call from `openAIChatToolCalls` (its
 * `tool_call_id` is sent back, never an id the parser made up) or the `tool_call_id` itself.
 */
export function openAIChatToolMessage(call: string | ToolCallRequest, result: ActionResult<unknown>): OpenAIChatToolMessage {
  return chatMessage(providerIdOf(call), result, resultParts(result), 0).message;
}

/**
 * The messages answering every tool call of an assistant message, in call order: one `tool` message per call (see
 * {@link openAIChatToolMessage}), then, when results carry images or PDFs, one `user` message holding them as
 * `image_url` and `file` parts, each introduced by a text part naming the call and the attachment (Chat Completions
 * tool messages cannot carry media; a user message may: https://platform.openai.com/docs/guides/images-vision).
 */
export function openAIChatToolMessages(
  results: ReadonlyArray<{ readonly call: ToolCallRequest; readonly result: ActionResult<unknown> }>,
): Array<OpenAIChatToolMessage | { role: 'user'; content: OpenAIChatAttachmentPart[] }> {
  const messages: Array<OpenAIChatToolMessage | { role: 'user'; content: OpenAIChatAttachmentPart[] }> = [];
  const attachments: OpenAIChatAttachmentPart[] = [];
  let count = 0;
  for (const { call, result } of results) {
    const built = chatMessage(providerIdOf(call), result, resultParts(result), count);
    count += built.attachments.length;
    messages.push(built.message);
    for (const { name, content } of built.attachments) {
      attachments.push({ type: 'text', text: `Attachment '${name}' from tool call ${toWellFormed(providerIdOf(call))} (${toWellFormed(call.name)}):` });
      attachments.push(
        attachable(content) === 'image'
          ? { type: 'image_url', image_url: { url: content.toDataUrl(), detail: 'auto' } }
          : { type: 'file', file: { file_data: content.toDataUrl(), filename: name } },
      );
    }
  }
  if (attachments.length > 0) messages.push({ role: 'user', content: attachments });
  return messages;
}

function chatMessage(callId: string, result: ActionResult<unknown>, parts: ResultPart[], firstIndex: number): { message: OpenAIChatToolMessage; attachments: Array<{ name: string; content: BinaryContent }> } {
  const tool_call_id = toWellFormed(callId);
  if (!hasBinary(parts)) return { message: { role: 'tool', tool_call_id, content: result.ok ? resultText(result) : `Error: ${resultText(result)}` }, attachments: [] };
  const attachments: Array<{ name: string; content: BinaryContent }> = [];
  const text = parts
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (attachable(part.content) === undefined) return binaryText(part.content);
      const name = displayName(part.content, firstIndex + attachments.length, extensionOf(part.content.essence));
      attachments.push({ name, content: part.content });
      return `[attachment '${name}' (${part.content.essence}, ${part.content.byteLength} bytes): in the next user message]`;
    })
    .join('\n');
  return { message: { role: 'tool', tool_call_id, content: text }, attachments };
}
