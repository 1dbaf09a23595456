import { anthropicFormat } from './anthropic';
import { openAIChatFormat } from './openai-chat';

/**
 * The built-in provider formats for `tools.getSchema(format)` (seed: `ToolSchemaFormat`): `OPENAI` (Chat
 * Completions) and `ANTHROPIC` (Messages). A format is a {@link ToolFormat} value, so an application can pass its own.
 */
export const ToolSchemaFormat = {
  OPENAI: openAIChatFormat,
  ANTHROPIC: anthropicFormat,
} as const;
