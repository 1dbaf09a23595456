import { toStrictSchema } from '../schema/strict-schema';
import type { Tool } from '../tool/tool';
import { objectParameters, type JsonObject } from './object-parameters';
import { assertProviderRules, OPENAI_RULES } from './provider-rules';

/** What both OpenAI APIs take for a function: the parameters schema and the `strict` flag, always explicit. */
export interface OpenAIFunctionParameters {
  parameters: JsonObject;
  strict: boolean;
}

/**
 * The parameters and `strict` flag of a tool for OpenAI. With `strict` asked for and the tool not opted out
 * (`strict: false`), the strict-mode schema (see `toStrictSchema`) and `strict: true`; otherwise the schema as written
 * and `strict: false`. `strict` is always sent: the Responses API has been reported to treat a missing flag as strict.
 *
 * @param description - the rendered description, checked against OpenAI's cap with the name (see `OPENAI_RULES`).
 * @throws ToolDefinitionError when the strict schema cannot be built (registration already refuses such tools), when
 *   the schema has a union at the root, or the name or description breaks OpenAI's rules.
 */
export function openAIFunctionParameters(tool: Tool, strict: boolean, description: string): OpenAIFunctionParameters {
  const out: OpenAIFunctionParameters =
    strict && tool.strict ? { parameters: toStrictSchema(tool.parameters, tool.source) as JsonObject, strict: true } : { parameters: objectParameters(tool, 'OpenAI'), strict: false };
  assertProviderRules(tool, description, out.parameters, OPENAI_RULES);
  return out;
}
