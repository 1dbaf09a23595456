/**
 * The main job (`npm run example`): the seed's quickstart tools, their OpenAI and Anthropic schemas, then real
 * provider responses (fixtures in the exact shape the Chat Completions and Messages APIs return) turned into tool
 * calls, approved or declined by a scripted user, executed, and answered with the tool-result messages each provider
 * expects. No network is used.
 */
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import {
  Action,
  Inject,
  Param,
  RequiresApproval,
  ToolContext,
  ToolEffect,
  Tools,
  ToolSchemaFormat,
  type ActionResult,
  type Static,
  type ToolCallRequest,
} from '../lib';
import { anthropicToolResult, anthropicToolUses } from '../lib/providers/anthropic';
import { openAIChatToolCalls, openAIChatToolMessage } from '../lib/providers/openai';
import { Type } from 'typebox';

export class SearchClient {
  async search(query: string, limit: number): Promise<string[]> {
    return Array.from({ length: limit }, (_, i) => `${query} (result ${i + 1})`);
  }
}

export class BillingClient {
  readonly refunds: Array<{ orderId: string; amount: number }> = [];
  refund(orderId: string, amount: number): void {
    this.refunds.push({ orderId, amount });
  }
}

const SearchParams = Type.Object({
  query: Type.String({ description: 'What to search for' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
});

const RefundParams = Type.Object({
  orderId: Type.String({ description: 'The order to refund' }),
  amount: Type.Number({ exclusiveMinimum: 0, description: 'Amount to refund, in USD' }),
});

export class KnowledgeBase {
  @Action('Search the connected knowledge base.', { params: SearchParams, status: 'Searching for {query}...', effects: [ToolEffect.NETWORK] })
  async search(params: Static<typeof SearchParams>, @Inject(SearchClient) client: SearchClient): Promise<string[]> {
    return client.search(params.query, params.limit ?? 5);
  }
}

export class Billing {
  @Action('Issue a refund for an order.', {
    params: RefundParams,
    effects: [ToolEffect.NETWORK],
    status: (p) => `Refunding ${p.amount} for order ${p.orderId}...`,
    tags: ['billing', 'write'],
    metadata: { owner: 'billing-team' },
  })
  @RequiresApproval()
  refund(params: Static<typeof RefundParams>, @Inject(BillingClient) client: BillingClient): string {
    client.refund(params.orderId, params.amount);
    return 'refunded';
  }
}

export class MathTools {
  @Action('Add two integers.')
  add(@Param('a', Type.Integer()) a: number, @Param('b', Type.Integer()) b: number): number {
    return a + b;
  }
}

/** The scripted user: shown what the call will do, answers no to every refund. */
export function scriptedApproval(name: string, status: string, log: (line: string) => void): boolean {
  const answer = name !== 'refund';
  log(`  approve "${status}"? ${answer ? 'yes' : 'no'} (scripted)`);
  return answer;
}

/**
 * Runs one call the way a host loop does: approval first, status line, then execute, told that the user approved
 * (`execute` does not run an approval-gated call without `approved`).
 */
async function run(tools: Tools, call: ToolCallRequest, log: (line: string) => void): Promise<ActionResult<unknown>> {
  const tool = tools.get(call.name);
  const asked = tool?.needsApproval(call.args) === true;
  if (asked && !scriptedApproval(call.name, tool.formatStatus(call.args), log)) {
    return tools.declined(call.name, 'refunds need a manager');
  }
  log(`  ${tool ? tool.formatStatus(call.args) : call.name}`);
  const result = await tools.execute(call.name, call.args, { callId: call.id, approved: asked });
  log(`  -> ${result.ok ? 'ok' : 'failed'}`);
  return result;
}

function fixture<T>(name: string): T {
  const root = __dirname.includes(`${sep}build${sep}`) ? join(__dirname, '..', '..') : join(__dirname, '..');
  return JSON.parse(readFileSync(join(root, 'examples', 'fixtures', name), 'utf8')) as T;
}

/** Runs the whole example; returns the messages to send back to each provider (and prints everything via `log`). */
export async function main(log: (line: string) => void = console.log) {
  const billing = new BillingClient();
  const tools = new Tools({ context: new ToolContext(new SearchClient(), billing) }).register(new KnowledgeBase(), new Billing(), new MathTools());

  log('# OpenAI tool schemas (Chat Completions `tools`)');
  log(JSON.stringify(tools.getSchema(ToolSchemaFormat.OPENAI), null, 2));
  log('# Anthropic tool schemas (Messages `tools`)');
  log(JSON.stringify(tools.getSchema(ToolSchemaFormat.ANTHROPIC), null, 2));

  const completion = fixture<ChatCompletion>('openai-chat-completion.json');
  log('# OpenAI: tool calls from the model');
  const openaiMessages = [];
  for (const call of openAIChatToolCalls(completion.choices[0]!.message)) {
    openaiMessages.push(openAIChatToolMessage(call, await run(tools, call, log)));
  }
  log('# OpenAI: `tool` messages to send back');
  log(JSON.stringify(openaiMessages, null, 2));

  const message = fixture<Message>('anthropic-message.json');
  log('# Anthropic: tool_use blocks from the model');
  const anthropicBlocks = [];
  for (const call of anthropicToolUses(message)) {
    anthropicBlocks.push(anthropicToolResult(call, await run(tools, call, log)));
  }
  const anthropicReply = { role: 'user' as const, content: anthropicBlocks };
  log('# Anthropic: the user message with tool_result blocks to send back');
  log(JSON.stringify(anthropicReply, null, 2));

  return { openaiMessages, anthropicReply, refunds: billing.refunds };
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
