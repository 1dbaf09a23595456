import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import { objectParameters, type ObjectParameters } from './object-parameters';
import { ANTHROPIC_RULES, assertProviderRules } from './provider-rules';
import { resultText } from './result-text';
import { toWellFormed } from '../text/cut-text';
import type { ToolCallRequest } from './tool-call-request';

/**
 * One entry of the Messages API `tools` array: `{"name", "description", "input_schema"}` (provider rule:
 * `input_schema` has `"type": "object"` and `properties`, even when empty). Assignable to the SDK's `Tool`.
 */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectParameters;
}

/**
 * The Anthropic Messages tool format: the params schema as written (refs in `$defs`, `properties` always present, a
 * root `allOf` of objects merged; see `objectParameters`). A tool Anthropic cannot take is left out of the listing
 * with a logged reason (refused at registration when the registry declares this format): a union at the root of
 * `input_schema`, a top-level field name outside `^[a-zA-Z0-9_.-]{1,64}$`
 * (https://github.com/anthropics/claude-code/issues/4668 quotes the API's error).
 */
export const anthropicFormat: ToolFormat<AnthropicTool> = {
  id: 'anthropic',
  render(tool: Tool, description: string): AnthropicTool {
    const input_schema = objectParameters(tool, 'Anthropic');
    assertProviderRules(tool, description, input_schema, ANTHROPIC_RULES);
    return { name: tool.name, description, input_schema };
  },
};

/** The part of a Messages API response this module reads (the SDK's `Message` fits). */
export interface AnthropicMessage {
  content: ReadonlyArray<{ type: string; id?: string; name?: string; input?: unknown }>;
}

/** The `tool_use` blocks of a response, as tool calls (`input` is already an object). */
export function anthropicToolUses<M extends AnthropicMessage>(message: M): ToolCallRequest[] {
  // Read defensively: a malformed response (no content, null blocks, a block missing fields) never throws here; a
  // `tool_use` missing its name or input becomes a request that fails in `execute`, so it still gets a tool_result.
  const content = (message as Partial<AnthropicMessage> | null | undefined)?.content;
  return (Array.isArray(content) ? content : []).flatMap((block: AnthropicMessage['content'][number] | null) =>
    block?.type === 'tool_use' ? [{ id: String(block.id ?? ''), name: String(block.name ?? ''), args: block.input }] : [],
  );
}

/** A `tool_result` block: `{"type": "tool_result", "tool_use_id", "content", "is_error"}`. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/**
 * A `tool_result` block for the next user message. Every `tool_use` needs one, including failed, declined and
 * timed-out calls, or the next request is rejected (provider rule); a failure has `is_error: true`.
 */
export function anthropicToolResult(toolUseId: string, result: ActionResult<unknown>): AnthropicToolResult {
  return { type: 'tool_result', tool_use_id: toWellFormed(toolUseId), content: resultText(result), is_error: !result.ok };
}

/**
 * The user message answering every `tool_use` of a response, in call order: `{"role": "user", "content": [tool_result,
 * ...]}`. Pass all the calls' results (e.g. from `executeToolCalls`), declined ones included.
 */
export function anthropicToolResultMessage(results: ReadonlyArray<{ readonly call: ToolCallRequest; readonly result: ActionResult<unknown> }>): { role: 'user'; content: AnthropicToolResult[] } {
  return { role: 'user', content: results.map(({ call, result }) => anthropicToolResult(call.id, result)) };
}
