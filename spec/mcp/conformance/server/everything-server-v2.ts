/**
 * The MCP conformance suite's server on SDK v2 (`@modelcontextprotocol/server` 2.x): the tools of
 * everything-server.ts, served by `serveTools` on an SDK v2 `McpServer` over `serveHttp`, so one endpoint answers the
 * suite's 2026-07-28 scenarios (stateless, `server/discover`, `input_required`) and its 2025-11-25 ones (sessions).
 * The `input_required` scenarios' tools are registry tools that need approval: they ask through agenttoolkit's
 * approval round trip (one elicitation form under the key `approval`, a signed single-use `requestState`).
 * Run by scripts/mcp-conformance-server.sh: `node everything-server-v2.js <port>` prints the endpoint URL on stdout.
 */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/server';
import { Action, Inject, Tools } from '../../../../lib';
import { McpMemoryEventStore, McpRequest, serveHttp, serveTools } from '../../../../lib/mcp';
import { ConformanceTools } from './everything-server';

/** The tools only the 2026-07-28 scenarios call. */
export class ConformanceToolsV2 {
  @Action('Needs sampling, which the client must declare (a missing capability is refused).', { effects: [] })
  async test_missing_capability(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }], maxTokens: 10 });
    return `LLM response: ${answer.content.type === 'text' ? answer.content.text : JSON.stringify(answer.content)}`;
  }

  @Action('Sends a log message while it runs (none reaches a 2026-07-28 client that set no log level).', { effects: [] })
  async test_logging_tool(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    await mcp.log('info', 'test_logging_tool ran');
    return 'logged';
  }

  @Action('Asks the user mid-call: over 2026-07-28 the question is an input_required result, never a request on the stream.', { effects: [], requiresApproval: true })
  test_streaming_elicitation(): string {
    return 'approved';
  }

  @Action('Runs after the user approves it (input_required).', { effects: [], requiresApproval: true })
  test_input_required_result_elicitation(): string {
    return 'approved';
  }

  @Action('Runs after the user approves it (input_required with a signed requestState).', { effects: [], requiresApproval: true })
  test_input_required_result_request_state(): string {
    return 'approved';
  }

  @Action('Runs after the user approves it; a tampered requestState is refused.', { effects: [], requiresApproval: true })
  test_input_required_result_tampered_state(): string {
    return 'approved';
  }

  @Action('Runs after the user approves it; asks only through capabilities the client declared.', { effects: [], requiresApproval: true })
  test_input_required_result_capabilities(): string {
    return 'approved';
  }
}

/** An SDK v2 `McpServer` serving the conformance tools. */
export function conformanceServerV2(tools: Tools): McpServer {
  const server = new McpServer({ name: 'agenttoolkit-conformance', version: '1.0.0' });
  serveTools(server, tools);
  return server;
}

if (require.main === module) {
  const tools = new Tools({ logger: { warn: () => undefined, error: () => undefined } }).register(new ConformanceTools()).register(new ConformanceToolsV2());
  void serveHttp(() => conformanceServerV2(tools), { port: Number(process.argv[2] ?? 0), eventStore: new McpMemoryEventStore(), retryIntervalMs: 500, registries: [tools] }).then((endpoint) => console.log(endpoint.url));
}
