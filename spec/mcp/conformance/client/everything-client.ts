/**
 * The everything-client of the MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios), built on
 * agenttoolkit's MCP client adapter: every scenario connects with `McpClientTools.connect` to the URL the suite
 * appends to the command, and calls the scenario's tools through a `Tools` registry (`tools.execute`), as an agent
 * would. The scenario name comes from `MCP_CONFORMANCE_SCENARIO`. Run by scripts/mcp-conformance-client.sh.
 */
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Tools, type ActionResult } from '../../../../lib';
import { McpClientTools, type McpClientOptions } from '../../../../lib/mcp';

type Scenario = (url: string) => Promise<void>;

/** Connects, runs `body` over the registry, closes; a failed tool call fails the scenario. */
async function withServer(url: string, body: (tools: Tools, mcp: McpClientTools) => Promise<void>, options: Partial<McpClientOptions> = {}): Promise<void> {
  const tools = new Tools();
  const mcp = await McpClientTools.connect(tools, { name: 'conformance', url, clientInfo: { name: 'agenttoolkit-everything-client', version: '1.0.0' }, ...options });
  try {
    await body(tools, mcp);
  } finally {
    await mcp.close();
  }
}

function expectSuccess(name: string, result: ActionResult<unknown>): void {
  if (!result.ok) throw new Error(`${name} failed: ${result.error}`);
  console.log(`${name}: ${JSON.stringify(result.result)}`);
}

/** Calls a tool by the server's name (registered as `mcp__conformance__<name>`). */
async function call(tools: Tools, name: string, args: Record<string, unknown>): Promise<void> {
  expectSuccess(name, await tools.execute(`mcp__conformance__${name}`, args));
}

const scenarios: Record<string, Scenario> = {
  // The handshake: protocol version and client info; the listing registers the (no) tools.
  initialize: (url) => withServer(url, async (_tools, mcp) => void console.log(`tools: ${mcp.toolNames.join(', ') || '(none)'}`)),
  // A tool with number arguments, validated locally and called through the pipeline.
  tools_call: (url) => withServer(url, (tools) => call(tools, 'add_numbers', { a: 5, b: 7 })),
  // The server elicits during a tool call; the SDK fills in the schema's defaults (form.applyDefaults) of an accept.
  'elicitation-sep1034-client-defaults': (url) =>
    withServer(url, (tools) => call(tools, 'test_client_elicitation_defaults', {}), {
      clientOptions: { capabilities: { elicitation: { form: { applyDefaults: true } } } },
      setupClient: (client) => client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: {} })),
    }),
  // The tool call's SSE stream closes before the answer: the transport reconnects after the server's retry delay.
  'sse-retry': (url) => withServer(url, (tools) => call(tools, 'test_reconnection', {})),
  // OAuth client credentials (an extension): the SDK's auth provider, passed through `transportOptions`.
  'auth/client-credentials-basic': (url) => {
    const context = scenarioContext();
    const authProvider = new ClientCredentialsProvider({ clientId: context.client_id!, clientSecret: context.client_secret! });
    return withServer(url, async () => undefined, { transportOptions: { authProvider } });
  },
  'auth/client-credentials-jwt': (url) => {
    const context = scenarioContext();
    const authProvider = new PrivateKeyJwtProvider({ clientId: context.client_id!, privateKey: context.private_key_pem!, algorithm: context.signing_algorithm ?? 'ES256' });
    return withServer(url, async () => undefined, { transportOptions: { authProvider } });
  },
};

/** The scenario's data (`MCP_CONFORMANCE_CONTEXT`, JSON), for the scenarios that have some. */
function scenarioContext(): Record<string, string | undefined> {
  return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
}

/** Scenarios without a handler of their own (authorization flows): connect, list, call `test-tool` when listed. */
const fallback: Scenario = (url) =>
  withServer(url, async (tools, mcp) => {
    if (mcp.toolNames.includes('mcp__conformance__test-tool')) await call(tools, 'test-tool', {});
  });

async function main(): Promise<void> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (url === undefined) throw new Error('usage: everything-client <server-url> (with MCP_CONFORMANCE_SCENARIO set)');
  await (scenarios[scenario] ?? fallback)(url);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
