import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import type { JsonObject } from './object-parameters';
import { openAIFunctionParameters } from './openai-parameters';
import { withUniqueIds } from './call-ids';
import type { ToolCallRequest } from './tool-call-request';

/**
 * One entry of the Responses API `tools` array (provider rule: flat `{"type": "function", "name", "description",
 * "parameters", "strict"}`, `strict` always explicit). Assignable to the `openai` SDK's `FunctionTool`.
 */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonObject;
  strict: boolean;
}

function responsesFormat(id: string, strict: boolean): ToolFormat<OpenAIResponsesTool> {
  return {
    id,
    render(tool: Tool, description: string): OpenAIResponsesTool {
      return { type: 'function', name: tool.name, description, ...openAIFunctionParameters(tool, strict, description) };
    },
  };
}

/** OpenAI Responses, `strict: false` sent explicitly: the params schema as written. */
export const openAIResponsesFormat: ToolFormat<OpenAIResponsesTool> = responsesFormat('openai-responses', false);

/** OpenAI Responses in strict mode (see `openAIChatStrictFormat` for the rules). */
export const openAIResponsesStrictFormat: ToolFormat<OpenAIResponsesTool> = responsesFormat('openai-responses-strict', true);

/** An item of a Responses `output` (the SDK's `ResponseOutputItem` fits); only `function_call` items are read. */
export interface OpenAIResponsesOutputItem {
  readonly type: string;
}

interface FunctionCallItem {
  readonly type: 'function_call';
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

/**
 * The `function_call` items of a response (`response.output`, or the items themselves), as tool calls keyed by
 * `call_id`; arguments kept as the JSON text the model sent (malformed JSON becomes a failed result in `execute`). A
 * call with no `call_id` or one an earlier call has gets a made-up `id`, and `providerId` keeps OpenAI's, which
 * `openAIResponsesToolOutput(call, result)` sends back.
 */
export function openAIResponsesToolCalls(response: { readonly output: ReadonlyArray<OpenAIResponsesOutputItem> } | ReadonlyArray<OpenAIResponsesOutputItem>): ToolCallRequest[] {
  const items = response !== null && typeof response === 'object' && 'output' in response ? response.output : response;
  const calls = (Array.isArray(items) ? items : []).flatMap((item: OpenAIResponsesOutputItem | null) => {
    if (item?.type !== 'function_call') return [];
    const call = item as FunctionCallItem;
    return [{ id: String(call.call_id ?? ''), name: String(call.name ?? ''), args: call.arguments }];
  });
  return withUniqueIds(calls, 'openai');
}
export { openAIResponsesToolOutput, type OpenAIResponsesOutputContent } from './openai-result';
