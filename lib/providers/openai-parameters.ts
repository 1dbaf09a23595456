import { toStrictSchema } from '../schema/strict-schema';
import type { Tool } from '../tool/tool';
import { objectParameters, type JsonObject } from './object-parameters';

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
 * @throws ToolDefinitionError when the strict schema cannot be built (registration already refuses such tools).
 */
export function openAIFunctionParameters(tool: Tool, strict: boolean): OpenAIFunctionParameters {
  if (strict && tool.strict) return { parameters: toStrictSchema(tool.parameters, tool.source) as JsonObject, strict: true };
  return { parameters: objectParameters(tool), strict: false };
}
