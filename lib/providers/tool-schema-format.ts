import { anthropicFormat, anthropicStrictFormat } from './anthropic';
import { geminiFormat } from './gemini';
import { mcpFormat } from './mcp';
import { openAIChatFormat, openAIChatStrictFormat } from './openai-chat';
import { openAIResponsesFormat, openAIResponsesStrictFormat } from './openai-responses';

/**
 * The built-in provider formats for `tools.getSchema(format)`. A format is a
 * {@link ToolFormat} value, so an application can pass its own.
 *
 * - `OPENAI`: Chat Completions, `strict: false`. `OPENAI_STRICT`: Chat Completions in strict mode.
 * - `OPENAI_RESPONSES` / `OPENAI_RESPONSES_STRICT`: the Responses API's flat function tools, same two modes.
 * - `ANTHROPIC`: Messages `tools` (`input_schema`). `ANTHROPIC_STRICT`: the same with strict tool use (`strict: true`).
 * - `GEMINI`: function declarations in the OpenAPI subset.
 * - `MCP`: `tools/list` entries with annotations.
 *
 * Each reads as its `id` in text: `${ToolSchemaFormat.OPENAI}` and `String(ToolSchemaFormat.OPENAI)` give `"openai"`.
 */
export const ToolSchemaFormat = {
  OPENAI: openAIChatFormat,
  OPENAI_STRICT: openAIChatStrictFormat,
  OPENAI_RESPONSES: openAIResponsesFormat,
  OPENAI_RESPONSES_STRICT: openAIResponsesStrictFormat,
  ANTHROPIC: anthropicFormat,
  ANTHROPIC_STRICT: anthropicStrictFormat,
  GEMINI: geminiFormat,
  MCP: mcpFormat,
} as const;

// In text (a template literal, String(), a log line) a built-in format reads as its id, not "[object Object]".
for (const format of Object.values(ToolSchemaFormat)) {
  Object.defineProperty(format, 'toString', { value: () => format.id, enumerable: false, configurable: true });
}
