import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import { objectParameters, type ObjectParameters } from './object-parameters';
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

/** The Anthropic Messages tool format: the params schema as written (refs in `$defs`, `properties` always present). */
export const anthropicFormat: ToolFormat<AnthropicTool> = {
  id: 'anthropic',
  render(tool: Tool, description: string): AnthropicTool {
    return { name: tool.name, description, input_schema: objectParameters(tool) };
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

export { anthropicToolResult, anthropicToolResultMessage, type AnthropicToolResult, type AnthropicToolResultContent } from './anthropic-result';
