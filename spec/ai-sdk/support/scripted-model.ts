import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { ToolLogger } from '../../../lib';

/** A logger for specs whose failing tools are expected. */
export const quiet: ToolLogger = { warn: () => undefined, error: () => undefined };

export const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A tool-call content part; `input` as JSON text (a string is sent as is, to script malformed arguments). */
export function call(id: string, name: string, input: unknown): LanguageModelV4Content {
  return { type: 'tool-call', toolCallId: id, toolName: name, input: typeof input === 'string' ? input : JSON.stringify(input) };
}

/** One model step answering `content`, finishing with tool calls when it holds any. */
export function turn(content: LanguageModelV4Content[]): LanguageModelV4GenerateResult {
  const calls = content.some((part) => part.type === 'tool-call');
  return { content, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
}

/** A mock model that answers each step with the next scripted turn and records the prompts it was sent. */
export function scripted(...turns: LanguageModelV4Content[][]) {
  const prompts: LanguageModelV4CallOptions['prompt'][] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const next = turns[prompts.length - 1] ?? [{ type: 'text', text: 'done' }];
      return turn(next);
    },
  });
  return { model, prompts };
}

/** The tool-result parts the model was sent in a prompt, by call id. */
export function toolOutputs(prompt: LanguageModelV4CallOptions['prompt']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') out[part.toolCallId] = part.output;
  }
  return out;
}
