/**
 * The everything-client of the MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios), built on
 * agenttoolkit's MCP client adapter: every scenario connects with `McpClientTools.connect` to the URL the suite
 * appends to the command, and calls the scenario's tools through a `Tools` registry (`tools.execute`), as an agent
 * would. The scenario name comes from `MCP_CONFORMANCE_SCENARIO`. Run by scripts/mcp-conformance-client.sh:
 * `everything-client.js [--sdk=2] <server-url>`; with `--sdk=2` the adapter connects through SDK v2
 * (`@modelcontextprotocol/client`, `sdk: 2`, version negotiation `auto`: 2026-07-28 when the server speaks it).
 */
import { ClientCredentialsProvider as V2ClientCredentialsProvider, PrivateKeyJwtProvider as V2PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Tools, type ActionResult } from '../../../../lib';
import { McpClientTools, type McpClientOptions } from '../../../../lib/mcp';

type Scenario = (url: string) => Promise<void>;

/** The SDK line the adapter connects with (`--sdk=2` on the command line: SDK v2, else 1.x). */
const SDK: 1 | 2 = process.argv.includes('--sdk=2') ? 2 : 1;

/** Connects, runs `body` over the registry, closes; a failed tool call fails the scenario. */
async function withServer(url: string, body: (tools: Tools, mcp: McpClientTools) => Promise<void>, options: Partial<McpClientOptions> = {}): Promise<void> {
  const tools = new Tools();
  const mcp = await McpClientTools.connect(tools, { name: 'conformance', url, sdk: SDK, clientInfo: { name: 'agenttoolkit-everything-client', version: '1.0.0' }, ...options });
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
      ...accepting({}),
    }),
  // 2026-07-28 multi-round-trip requests: each tool answers input_required; the SDK's loop asks the elicitation
  // handler, then retries with the answer and the server's requestState (echoed unchanged, a new JSON-RPC id).
  'sep-2322-client-request-state': (url) =>
    withServer(
      url,
      async (tools, mcp) => {
        const names = mcp.toolNames.map((name) => name.slice('mcp__conformance__'.length));
        const results = await Promise.all(names.map((name) => tools.execute(`mcp__conformance__${name}`, {})));
        results.forEach((result, i) => console.log(`${names[i]}: ${result.ok ? JSON.stringify(result.result) : `failed: ${result.error}`}`));
      },
      { clientOptions: { capabilities: { elicitation: { form: {} } } }, ...accepting({ confirmed: true }) },
    ),
  // The tool call's SSE stream closes before the answer: the transport reconnects after the server's retry delay.
  'sse-retry': (url) => withServer(url, (tools) => call(tools, 'test_reconnection', {})),
  // OAuth client credentials (an extension): the SDK's auth provider, passed through `transportOptions`.
  // The SDK drops the tools whose x-mcp-header declarations are invalid (SEP-2243); the valid one stays callable.
  'http-invalid-tool-headers': (url) => withServer(url, (tools) => call(tools, 'valid_tool', { region: 'us-west1' })),
  'auth/client-credentials-basic': (url) => {
    const context = scenarioContext();
    const credentials = { clientId: context.client_id!, clientSecret: context.client_secret! };
    const authProvider = SDK === 2 ? new V2ClientCredentialsProvider(credentials) : new ClientCredentialsProvider(credentials);
    return withServer(url, async () => undefined, { transportOptions: { authProvider } as never });
  },
  'auth/client-credentials-jwt': (url) => {
    const context = scenarioContext();
    const key = { clientId: context.client_id!, privateKey: context.private_key_pem!, algorithm: context.signing_algorithm ?? 'ES256' };
    const authProvider = SDK === 2 ? new V2PrivateKeyJwtProvider(key) : new PrivateKeyJwtProvider(key);
    return withServer(url, async () => undefined, { transportOptions: { authProvider } as never });
  },
};

/** Client options answering every elicitation with an accept of `content`, on the SDK line in use. */
function accepting(content: Record<string, unknown>): Partial<McpClientOptions> {
  if (SDK === 2) return { setupSdk2Client: (client) => client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content }) as never) };
  return { setupClient: (client) => client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content })) };
}

/** The scenario's data (`MCP_CONFORMANCE_CONTEXT`, JSON), for the scenarios that have some. */
function scenarioContext(): Record<string, string | undefined> & { toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }> } {
  return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ReturnType<typeof scenarioContext>;
}

/**
 * Scenarios without a handler of their own (authorization flows, HTTP header scenarios): connect, list, then make
 * the calls the scenario's context names (`toolCalls`), or call `test-tool` when listed.
 */
const fallback: Scenario = (url) =>
  withServer(url, async (tools, mcp) => {
    const { toolCalls } = scenarioContext();
    if (toolCalls !== undefined) {
      for (const { name, arguments: args } of toolCalls) await call(tools, name, args ?? {});
      return;
    }
    if (mcp.toolNames.includes('mcp__conformance__test-tool')) await call(tools, 'test-tool', {});
  });

async function main(): Promise<void> {
  const url = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
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
