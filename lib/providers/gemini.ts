import type { Tool } from '../tool/tool';
import type { SchemaNode } from '../schema/schema-walk';
import { assertProviderRules, GEMINI_RULES } from './provider-rules';
import type { ToolFormat } from '../tool/tool-format';
import { toGeminiSchema, type GeminiFunctionDeclaration } from './gemini-schema';
import type { ToolCallRequest } from './tool-call-request';

export { toGeminiSchema, type GeminiFunctionDeclaration, type GeminiSchema, type GeminiType } from './gemini-schema';
export { withGeminiTypeEnum, type GeminiFunctionDeclarationOf, type GeminiSchemaOf } from './gemini-type-enum';

/**
 * The Gemini function-declaration format. A tool Gemini cannot take (recursion, free-key maps, tuples, any type, a
 * name or parameter name outside Gemini's rules) is left out of the Gemini listing with a logged reason; the other tools
 * are listed. To refuse such tools at registration instead, pass `new Tools({ formats: [ToolSchemaFormat.GEMINI] })`.
 */
export const geminiFormat: ToolFormat<GeminiFunctionDeclaration> = {
  id: 'gemini',
  render(tool: Tool, description: string): GeminiFunctionDeclaration {
    const parameters = toGeminiSchema(tool.parameters, tool.source);
    assertProviderRules(tool, description, parameters as SchemaNode, GEMINI_RULES);
    return { name: tool.name, description, parameters };
  },
};

/** A Gemini `functionCall` (the SDK's `FunctionCall` fits). */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
}

/** Parts of a Gemini `Content` (the SDK's `Part` fits). */
export interface GeminiParts {
  parts?: ReadonlyArray<{ functionCall?: GeminiFunctionCall }>;
}

/**
 * The `functionCall` parts of a response (the first candidate of a `GenerateContentResponse`) or of one `Content`, as
 * tool calls. A call without an id (the Gemini API often sends none) gets `""`: results are matched by name and order.
 */
export function geminiFunctionCalls(response: { candidates?: ReadonlyArray<{ content?: GeminiParts }> } | GeminiParts): ToolCallRequest[] {
  if (response === null || typeof response !== 'object') return [];
  const content = 'candidates' in response ? response.candidates?.[0]?.content : (response as GeminiParts);
  const parts = content?.parts;
  return (Array.isArray(parts) ? parts : []).flatMap((part: { functionCall?: GeminiFunctionCall } | null) => {
    const functionCall = part?.functionCall;
    return functionCall?.name ? [{ id: functionCall.id ?? '', name: functionCall.name, args: functionCall.args ?? {} }] : [];
  });
}

export { geminiFunctionResponse, geminiFunctionResponseContent, type GeminiFunctionResponseInlinePart, type GeminiFunctionResponsePart } from './gemini-result';
