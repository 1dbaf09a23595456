import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import { resultText } from './result-text';
import type { ToolCallRequest } from './tool-call-request';

/** One entry of the Messages API `tools` array (provider rule: `input_schema` is an object schema with `properties`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; properties: Record<string, unknown>; [keyword: string]: unknown };
}

/** The Anthropic Messages tool format. */
export const anthropicFormat: ToolFormat<AnthropicTool> = {
  id: 'anthropic',
  render(tool: Tool, description: string): AnthropicTool {
    const schema = tool.parameters as AnthropicTool['input_schema'];
    return { name: tool.name, description, input_schema: { ...schema, type: 'object', properties: schema.properties ?? {} } };
  },
};

/** The part of a Messages API response this module reads. */
export interface AnthropicMessage {
  content: ReadonlyArray<{ type: string; id?: string; name?: string; input?: unknown }>;
}

/** The `tool_use` blocks of a response, as tool calls. */
export function anthropicToolUses(message: AnthropicMessage): ToolCallRequest[] {
  return message.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: String(block.id), name: String(block.name), args: block.input }] : []));
}

/**
 * A `tool_result` block for the next user message. Every `tool_use` needs one, including failed and declined calls,
 * or the next request is rejected (provider rule).
 */
export function anthropicToolResult(toolUseId: string, result: ActionResult<unknown>): { type: 'tool_result'; tool_use_id: string; content: string; is_error: boolean } {
  return { type: 'tool_result', tool_use_id: toolUseId, content: resultText(result), is_error: !result.ok };
}
