/**
 * Type-level tests against the official SDKs (checked by `npm run typecheck`, which includes spec/): every emitted
 * entry `satisfies` the SDK's tool type, every result builder the SDK's input type, and every parser accepts the SDK's
 * response type. The runtime assertions check what TypeScript cannot: Gemini's enum values.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Content, FunctionCall, FunctionDeclaration, FunctionResponse, GenerateContentResponse, Part, Schema, Type as GeminiSdkType } from '@google/genai' with { 'resolution-mode': 'import' };
import type { CallToolResult, ListToolsResult, Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionMessage, ChatCompletionTool, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { FunctionTool, Response as OpenAIResponse, ResponseInputItem } from 'openai/resources/responses/responses';
import { Type } from '@sinclair/typebox';
import { anthropicToolResult, anthropicToolResultMessage, anthropicToolUses } from '../../lib/providers/anthropic';
import {
  geminiFunctionCalls,
  geminiFunctionResponse,
  geminiFunctionResponseContent,
  type GeminiSchema,
  type GeminiType,
  withGeminiTypeEnum,
} from '../../lib/providers/gemini';
import { mcpListTools, mcpToolResult } from '../../lib/providers/mcp';
import {
  openAIChatToolCalls,
  openAIChatToolMessage,
  openAIResponsesToolCalls,
  openAIResponsesToolOutput,
} from '../../lib/providers/openai';
import {
  ActionResult,
  ToolSchemaFormat,
  Tools,
  type ToolCallRequest,
} from '../../lib';
import { GOLDEN_CASES } from './golden-cases';

// @google/genai is an ES module: its types are imported as such, its runtime (the CommonJS build) through jest.
const genai = jest.requireActual<typeof import('@google/genai', { with: { 'resolution-mode': 'import' } })>('@google/genai');

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** The SDK's `Schema` with its nominal `Type` enum replaced by the enum's string values, at every level. */
type StringTypedSchema = Omit<Schema, 'type' | 'anyOf' | 'items' | 'properties'> & {
  type?: `${GeminiSdkType}`;
  anyOf?: StringTypedSchema[];
  items?: StringTypedSchema;
  properties?: Record<string, StringTypedSchema>;
};

function registry(): Tools {
  const tools = new Tools({ logger: { warn: () => undefined, error: () => undefined } });
  for (const c of GOLDEN_CASES) tools.action({ name: c.name, description: `Case ${c.name}.`, params: c.params, strict: c.strict }, (params) => params);
  return tools;
}

const ok = ActionResult.success({ answer: 42 });
const failed = ActionResult.fail('It broke.');
const call: ToolCallRequest = { id: 'call_1', name: 'no_parameters', args: {} };

describe('type compatibility with the official SDKs', () => {
  const tools = registry();

  it('OpenAI: Chat Completions and Responses tools, calls and results', () => {
    const chat = tools.getSchema(ToolSchemaFormat.OPENAI) satisfies ChatCompletionTool[];
    const chatStrict = tools.getSchema(ToolSchemaFormat.OPENAI_STRICT) satisfies ChatCompletionTool[];
    const responses = tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES) satisfies FunctionTool[];
    const responsesStrict = tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES_STRICT) satisfies FunctionTool[];
    expect([chat, chatStrict, responses, responsesStrict].map((list) => list.length)).toEqual([20, 20, 20, 20]);
    const message: ChatCompletionMessage = {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'no_parameters', arguments: '{}' } },
        { id: 'c2', type: 'custom', custom: { name: 'grammar', input: 'x' } },
      ],
    };
    expect(openAIChatToolCalls(message)).toEqual([{ id: 'c1', name: 'no_parameters', args: '{}' }]);
    const response = { output: [{ type: 'function_call', call_id: 'r1', name: 'no_parameters', arguments: '{}' }] } as unknown as OpenAIResponse;
    expect(openAIResponsesToolCalls(response)).toEqual([{ id: 'r1', name: 'no_parameters', args: '{}' }]);
    expect(openAIResponsesToolCalls(response.output)).toHaveLength(1);
    const toolMessage = openAIChatToolMessage('c1', ok) satisfies ChatCompletionToolMessageParam;
    const output = openAIResponsesToolOutput('r1', failed) satisfies ResponseInputItem.FunctionCallOutput;
    expect(toolMessage.content).toBe('{"answer":42}');
    expect(output.output).toBe('Error: It broke.');
  });

  it('Anthropic: tools, tool_use blocks and tool_result blocks', () => {
    const list = tools.getSchema(ToolSchemaFormat.ANTHROPIC) satisfies Anthropic.Tool[];
    expect(list).toHaveLength(20);
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'no_parameters', input: {} }],
    } as unknown as Anthropic.Message;
    expect(anthropicToolUses(message)).toEqual([{ id: 'toolu_1', name: 'no_parameters', args: {} }]);
    const block = anthropicToolResult('toolu_1', failed) satisfies Anthropic.ToolResultBlockParam;
    const reply = anthropicToolResultMessage([{ call, result: ok }]) satisfies Anthropic.MessageParam;
    expect(block.is_error).toBe(true);
    expect(reply.content[0]!.is_error).toBe(false);
  });

  it('Gemini: declarations match the SDK field for field, with the enum values of its Type', () => {
    const declarations = tools.getSchema(ToolSchemaFormat.GEMINI);
    const parameters = declarations.map((declaration) => declaration.parameters) satisfies StringTypedSchema[];
    const sameTypes: Equal<GeminiType | 'TYPE_UNSPECIFIED', `${GeminiSdkType}`> = true;
    expect(sameTypes).toBe(true);
    const sdkTypes = new Set<string>(Object.values(genai.Type));
    const visit = (schema: GeminiSchema): void => {
      if (schema.type !== undefined) expect(sdkTypes.has(schema.type)).toBe(true);
      schema.anyOf?.forEach(visit);
      if (schema.items) visit(schema.items);
      Object.values(schema.properties ?? {}).forEach(visit);
    };
    parameters.forEach(visit);
    const typed = withGeminiTypeEnum(declarations, genai.Type) satisfies FunctionDeclaration[];
    expect(typed).toEqual(declarations);
    const functionCall: FunctionCall = { id: 'g1', name: 'no_parameters', args: {} };
    const response = { candidates: [{ content: { role: 'model', parts: [{ functionCall }] } }] } as unknown as GenerateContentResponse;
    expect(geminiFunctionCalls(response)).toEqual([{ id: 'g1', name: 'no_parameters', args: {} }]);
    const content: Content = { role: 'model', parts: [{ functionCall }, { text: 'hi' }] };
    expect(geminiFunctionCalls(content)).toHaveLength(1);
    const part = geminiFunctionResponse(call, ok) satisfies Part;
    const reply = geminiFunctionResponseContent([{ call, result: failed }]) satisfies Content;
    expect(part.functionResponse satisfies FunctionResponse).toEqual({ id: 'call_1', name: 'no_parameters', response: { output: { answer: 42 } } });
    expect(reply.parts[0]!.functionResponse.response).toEqual({ error: 'It broke.' });
  });

  it('MCP: tools/list entries and CallToolResult', () => {
    const listed = mcpListTools(tools) satisfies ListToolsResult;
    const entries = tools.getSchema(ToolSchemaFormat.MCP) satisfies McpSdkTool[];
    expect(listed.tools).toEqual(entries);
    expect(mcpToolResult(ok) satisfies CallToolResult).toEqual({ content: [{ type: 'text', text: '{"answer":42}' }], structuredContent: { answer: 42 }, isError: false });
    expect(mcpToolResult(ActionResult.success([1, 2]))).toEqual({ content: [{ type: 'text', text: '[1,2]' }], isError: false });
  });

  it('keeps strings and missing values readable in every result channel', () => {
    const tools2 = new Tools();
    tools2.action({ name: 'noop', description: 'Nothing.', params: Type.Object({}) }, () => undefined);
    expect(openAIChatToolMessage('c', ActionResult.success(undefined)).content).toBe('');
    expect(geminiFunctionResponse(call, ActionResult.success(undefined)).functionResponse.response).toEqual({ output: null });
    expect(geminiFunctionResponse({ id: '', name: 'x', args: {} }, ActionResult.fail('')).functionResponse).toEqual({ name: 'x', response: { error: 'The tool failed without a message.' } });
  });
});
