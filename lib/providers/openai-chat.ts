import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import { resultText } from './result-text';
import type { ToolCallRequest } from './tool-call-request';

/** One entry of the Chat Completions `tools` array (provider rule: nested `function`, JSON Schema `parameters`). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The OpenAI Chat Completions tool format. */
export const openAIChatFormat: ToolFormat<OpenAIChatTool> = {
  id: 'openai',
  render(tool: Tool, description: string): OpenAIChatTool {
    return { type: 'function', function: { name: tool.name, description, parameters: tool.parameters as Record<string, unknown> } };
  },
};

/** The part of a Chat Completions assistant message this module reads. */
export interface OpenAIChatAssistantMessage {
  tool_calls?: ReadonlyArray<{ id: string; type: string; function?: { name: string; arguments: string } }> | null;
}

/** The tool calls of an assistant message (`message.tool_calls`), arguments kept as the JSON text the model sent. */
export function openAIChatToolCalls(message: OpenAIChatAssistantMessage): ToolCallRequest[] {
  return (message.tool_calls ?? []).flatMap((call) => (call.type === 'function' && call.function ? [{ id: call.id, name: call.function.name, args: call.function.arguments }] : []));
}

/** A Chat Completions `tool` message carrying a result back (a failure's text starts with `Error:`). */
export function openAIChatToolMessage(callId: string, result: ActionResult<unknown>): { role: 'tool'; tool_call_id: string; content: string } {
  return { role: 'tool', tool_call_id: callId, content: result.ok ? resultText(result) : `Error: ${resultText(result)}` };
}
