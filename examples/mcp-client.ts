/**
 * Another MCP server's tools in a registry (`tsc -p tsconfig.run.json && node build/examples/mcp-client.js`): starts
 * the small stdio server of examples/mcp-stdio-server.cjs (built with the official SDK alone), registers its tools as
 * `mcp__notes__<tool>`, lists them for Anthropic, and answers a model's tool calls through the permission engine: the
 * read-only tools of this trusted server run at once, the write asks a (scripted) user first. No network is used.
 */
import { join, sep } from 'node:path';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { anthropicToolResult, anthropicToolUses } from '../lib/providers/anthropic';
import { PermissionEngine, PermissionMiddleware } from '../lib/permissions';
import { Tools, ToolSchemaFormat } from '../lib';
import { McpClientTools } from '../lib/mcp';

/** The stdio server script (examples/ holds it; this file also runs compiled, from build/examples/). */
export function serverScript(): string {
  const root = __dirname.includes(`${sep}build${sep}`) ? join(__dirname, '..', '..') : join(__dirname, '..');
  return join(root, 'examples', 'mcp-stdio-server.cjs');
}

/** A model's turn calling the server's tools, in the exact shape the Messages API returns. */
const modelTurn: Message = {
  id: 'msg_01MCPexample',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  stop_reason: 'tool_use',
  stop_sequence: null,
  container: null,
  usage: { input_tokens: 512, output_tokens: 96, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: null, server_tool_use: null, service_tier: 'standard', inference_geo: null },
  content: [
    { type: 'tool_use', id: 'toolu_01List', name: 'mcp__notes__list_notes', input: {}, caller: { type: 'direct' } },
    { type: 'tool_use', id: 'toolu_02Write', name: 'mcp__notes__write_note', input: { id: 'todo', text: 'Ship the MCP client.' }, caller: { type: 'direct' } },
    { type: 'tool_use', id: 'toolu_03Read', name: 'mcp__notes__read_note', input: { id: 'todo' }, caller: { type: 'direct' } },
  ],
} as unknown as Message;

/** Runs the example; returns the tool_result blocks for the model and the fingerprints to keep for the next run. */
export async function main(log: (line: string) => void = console.log) {
  const asked: string[] = [];
  const engine = new PermissionEngine();
  const tools = new Tools({
    middleware: [new PermissionMiddleware(engine, { ask: (call, decision) => (asked.push(call.name), log(`  ask: ${decision.message} -> yes (scripted)`), true) })],
  });
  const notes = await McpClientTools.connect(tools, {
    name: 'notes',
    command: process.execPath,
    args: [serverScript()],
    trustReadOnlyHint: true,
    onDrift: (drift) => (log(`  ${drift.toolName} changed on the server since it was approved: refused`), false),
  });
  try {
    log(`# Registered from MCP server 'notes': ${notes.toolNames.join(', ')}`);
    log('# Anthropic tool schemas');
    log(JSON.stringify(tools.getSchema(ToolSchemaFormat.ANTHROPIC), null, 2));
    log('# The model calls the tools');
    const results = [];
    for (const call of anthropicToolUses(modelTurn)) {
      const result = await tools.execute(call.name, call.args, { callId: call.id });
      log(`  ${call.name} -> ${result.ok ? JSON.stringify(result.result) : `failed: ${result.error}`}`);
      results.push(anthropicToolResult(call.id, result));
    }
    log('# tool_result blocks to send back');
    log(JSON.stringify(results, null, 2));
    return { results, asked, fingerprints: notes.fingerprints() };
  } finally {
    await notes.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
