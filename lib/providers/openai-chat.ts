import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import type { JsonObject } from './object-parameters';
import { openAIFunctionParameters } from './openai-parameters';
import { withUniqueIds } from './call-ids';
import type { ToolCallRequest } from './tool-call-request';

/**
 * One entry of the Chat Completions `tools` array (provider rule: `{"type": "function", "function": {"name",
 * "description", "parameters", "strict"}}`). Assignable to the `openai` SDK's `ChatCompletionFunctionTool`.
 */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonObject; strict: boolean };
}

function chatFormat(id: string, strict: boolean): ToolFormat<OpenAIChatTool> {
  return {
    id,
    render(tool: Tool, description: string): OpenAIChatTool {
      return { type: 'function', function: { name: tool.name, description, ...openAIFunctionParameters(tool, strict, description) } };
    },
  };
}

/** OpenAI Chat Completions, `strict: false`: the params schema as written (refs in `$defs`, `properties` always present). */
export const openAIChatFormat: ToolFormat<OpenAIChatTool> = chatFormat('openai', false);

/**
 * OpenAI Chat Completions in strict mode: `strict: true` with the strict-mode schema (every object closed and fully
 * required, optional fields nullable, unsupported keywords moved into descriptions); a tool that opted out with
 * `strict: false` is sent non-strict. Calls go through `tools.execute`, which strips the nulls of omitted fields.
 */
export const openAIChatStrictFormat: ToolFormat<OpenAIChatTool> = chatFormat('openai-strict', true);

/** The part of a Chat Completions assistant message this module reads (the SDK's `ChatCompletionMessage` fits). */
export interface OpenAIChatAssistantMessage {
  tool_calls?: ReadonlyArray<{ id: string; type: string; function?: { name: string; arguments: string } }> | null;
}

/**
 * The function calls of an assistant message (`message.tool_calls`), arguments kept as the JSON text the model sent:
 * `tools.execute` parses it, and malformed or truncated JSON becomes a failed result that says so. Custom tool calls
 * are skipped. Every call gets an id of its own: one with no id or an id an earlier call has gets a made-up `id`, and
 * `providerId` keeps OpenAI's, which the result builders send back.
 */
export function openAIChatToolCalls<M extends OpenAIChatAssistantMessage>(message: M): ToolCallRequest[] {
  // Payloads are read defensively (a proxy or a truncated response may break the documented shape): null entries
  // are skipped, and a function call missing its name or arguments still becomes a request that fails in `execute`.
  const calls = (message as Partial<OpenAIChatAssistantMessage> | null | undefined)?.tool_calls;
  const requests = (Array.isArray(calls) ? calls : []).flatMap((call: Partial<NonNullable<OpenAIChatAssistantMessage['tool_calls']>[number]> | null) =>
    call?.type === 'function' && call.function ? [{ id: String(call.id ?? ''), name: String(call.function.name ?? ''), args: call.function.arguments }] : [],
  );
  return withUniqueIds(requests, 'openai');
}
export { openAIChatToolMessage, openAIChatToolMessages, type OpenAIChatAttachmentPart, type OpenAIChatToolMessage } from './openai-result';
