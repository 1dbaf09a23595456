import type { Tool } from '../tool/tool';
import type { SchemaNode } from '../schema/schema-walk';
import { assertProviderRules, GEMINI_RULES } from './provider-rules';
import type { ToolFormat } from '../tool/tool-format';
import { toGeminiSchema, type GeminiFunctionDeclaration } from './gemini-schema';
import { withUniqueIds } from './call-ids';
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
 * tool calls. Every call gets an id of its own: one without an id (the Gemini API often sends none), or with an id an
 * earlier call of the response has, gets a made-up one, and `providerId` keeps what Gemini sent (`""` for none); the
 * function response then carries Gemini's id, or none (Gemini matches results by name and order), never the made-up one.
 */
export function geminiFunctionCalls(response: { candidates?: ReadonlyArray<{ content?: GeminiParts }> } | GeminiParts): ToolCallRequest[] {
  if (response === null || typeof response !== 'object') return [];
  const content = 'candidates' in response ? response.candidates?.[0]?.content : (response as GeminiParts);
  const parts = content?.parts;
  const calls = (Array.isArray(parts) ? parts : []).flatMap((part: { functionCall?: GeminiFunctionCall } | null) => {
    const functionCall = part?.functionCall;
    return functionCall?.name ? [{ id: String(functionCall.id ?? ''), name: functionCall.name, args: functionCall.args ?? {} }] : [];
  });
  return withUniqueIds(calls, 'gemini');
}

export { geminiFunctionResponse, geminiFunctionResponseContent, type GeminiFunctionResponseInlinePart, type GeminiFunctionResponsePart } from './gemini-result';
