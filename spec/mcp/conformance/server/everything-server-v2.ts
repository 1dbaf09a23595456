/**
 * The MCP conformance suite's server on SDK v2 (`@modelcontextprotocol/server` 2.x): the tools of
 * everything-server.ts, served by `serveTools` on an SDK v2 `McpServer` over `serveHttp`, so one endpoint answers the
 * suite's 2026-07-28 scenarios (stateless, `server/discover`, `input_required`) and its 2025-11-25 ones (sessions).
 * The `input_required` scenarios' tools ask through `McpRequest` (elicitInput, createMessage, listRoots: input
 * requests of an `input_required` result, answered on the retry) or need approval (one elicitation form under the
 * key `approval`); every state is signed and single-use, and the server's `requestState.verify` hook answers a
 * tampered one with -32602.
 * Run by scripts/mcp-conformance-server.sh: `node everything-server-v2.js <port>` prints the endpoint URL on stdout.
 */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/server';
import { Action, Inject, Tools } from '../../../../lib';
import { McpMemoryEventStore, McpRequest, McpRequestStates, serveHttp, serveTools } from '../../../../lib/mcp';
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

  @Action('Asks the user for their name (input_required under the key user_name) and greets them.', { effects: [] })
  async test_input_required_result_elicitation(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.elicitInput({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { key: 'user_name' });
    return `Hello, ${String(answer.content?.name)}!`;
  }

  @Action("Asks the client's model a question (input_required under the key capital_question).", { effects: [] })
  async test_input_required_result_sampling(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 }, { key: 'capital_question' });
    return answer.content.type === 'text' ? answer.content.text : JSON.stringify(answer.content);
  }

  @Action("Asks the client for its roots (input_required under the key client_roots).", { effects: [] })
  async test_input_required_result_list_roots(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const { roots } = await mcp.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
  }

  @Action('Asks three questions in one round: elicitation, sampling and roots.', { effects: [] })
  async test_input_required_result_multiple_inputs(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const [name, greeting, { roots }] = await Promise.all([
      mcp.elicitInput({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { key: 'user_name' }),
      mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }, { key: 'greeting' }),
      mcp.listRoots({ key: 'client_roots' }),
    ]);
    return `${String(name.content?.name)}: ${greeting.content.type === 'text' ? greeting.content.text : ''} (${roots.length} roots)`;
  }

  @Action('Asks two questions in two rounds.', { effects: [] })
  async test_input_required_result_multi_round(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const name = await mcp.elicitInput({ message: 'Step 1: What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { key: 'step1' });
    const color = await mcp.elicitInput({ message: 'Step 2: What is your favorite color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } }, { key: 'step2' });
    return `${String(name.content?.name)} likes ${String(color.content?.color)}`;
  }

  @Action('Asks only through capabilities the client declared (sampling and/or elicitation).', { effects: [] })
  async test_input_required_result_capabilities(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const capabilities = mcp.clientCapabilities ?? {};
    const asked: Array<Promise<unknown>> = [];
    if (capabilities.sampling !== undefined) asked.push(mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }, { key: 'sample' }));
    if (capabilities.elicitation !== undefined) asked.push(mcp.elicitInput({ message: 'Say hi', requestedSchema: { type: 'object', properties: {} } }, { key: 'elicit' }));
    await Promise.all(asked);
    return `answered ${asked.length}`;
  }

  @Action('Runs after the user approves it (input_required with a signed requestState).', { effects: [], requiresApproval: true })
  test_input_required_result_request_state(): string {
    return 'approved';
  }

  @Action('Runs after the user approves it; a tampered requestState is refused.', { effects: [], requiresApproval: true })
  test_input_required_result_tampered_state(): string {
    return 'approved';
  }
}

/**
 * Adds `test_trigger_tool_change` to `tools`: each call registers or removes the tool `test_dynamic_tool`, so the
 * listing changes and `subscriptions/listen` streams get `notifications/tools/list_changed`.
 */
export function withTriggerTool(tools: Tools): Tools {
  tools.action({ name: 'test_trigger_tool_change', description: 'Adds or removes the tool test_dynamic_tool (the tool list changes).', params: { type: 'object', properties: {} }, effects: [] }, () => {
    if (tools.get('test_dynamic_tool') !== undefined) {
      tools.unregister('test_dynamic_tool');
      return 'removed test_dynamic_tool';
    }
    tools.action({ name: 'test_dynamic_tool', description: 'A tool test_trigger_tool_change added.', params: { type: 'object', properties: {} }, effects: [] }, () => 'dynamic');
    return 'added test_dynamic_tool';
  });
  return tools;
}

/** The request states of every request's server: one key, one store of used states. */
const states = new McpRequestStates();

/** An SDK v2 `McpServer` serving the conformance tools; a tampered `requestState` gets -32602 from the SDK's hook. */
export function conformanceServerV2(tools: Tools): McpServer {
  const server = new McpServer({ name: 'agenttoolkit-conformance', version: '1.0.0' }, { requestState: { verify: states.verify } });
  serveTools(server, tools, { approvalState: states });
  return server;
}

if (require.main === module) {
  const tools = withTriggerTool(new Tools({ logger: { warn: () => undefined, error: () => undefined } }).register(new ConformanceTools()).register(new ConformanceToolsV2()));
  void serveHttp(() => conformanceServerV2(tools), { port: Number(process.argv[2] ?? 0), eventStore: new McpMemoryEventStore(), retryIntervalMs: 500, registries: [tools] }).then((endpoint) => console.log(endpoint.url));
}
