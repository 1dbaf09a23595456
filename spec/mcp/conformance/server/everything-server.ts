/**
 * The MCP conformance suite's server ("everything server"): every tool is an `@Action` method with the name and
 * behaviour a scenario of `@modelcontextprotocol/conformance` expects, served by `serveTools` over `serveHttp`.
 * Run by scripts/mcp-conformance-server.sh: `node everything-server.js <port>` prints the endpoint URL on stdout.
 */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Action, ActionResult, Inject, Tools, ToolChunk } from '../../../../lib';
import { McpMemoryEventStore, McpRequest, serveHttp, serveTools } from '../../../../lib/mcp';

/** A 1x1 red PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
/** A minimal WAV file (RIFF header, no samples). */
export const WAV = Buffer.from('UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=', 'base64');

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The conformance tools. */
export class ConformanceTools {
  @Action('Returns simple text content.', { effects: [] })
  test_simple_text(): string {
    return 'This is a simple text response for testing.';
  }

  @Action('Returns image content.', { effects: [] })
  test_image_content(): ActionResult<unknown> {
    return ActionResult.image(PNG, 'image/png');
  }

  @Action('Returns audio content.', { effects: [] })
  test_audio_content(): ActionResult<unknown> {
    return ActionResult.file(WAV, 'audio/wav');
  }

  @Action('Returns an embedded resource.', { effects: [] })
  test_embedded_resource(): ActionResult<unknown> {
    return ActionResult.file(Buffer.from('This is an embedded resource content.'), 'text/plain', 'resource.txt');
  }

  @Action('Returns text, image and resource content.', { effects: [] })
  async *test_multiple_content_types(): AsyncGenerator<ToolChunk> {
    yield ToolChunk.text('Multiple content types test:');
    yield new ToolChunk({ content: [{ type: 'data', source: { type: 'base64', mediaType: 'image/png', data: PNG.toString('base64') } }] });
    yield new ToolChunk({ content: [{ type: 'data', name: 'data.json', source: { type: 'base64', mediaType: 'application/json', data: Buffer.from('{"test":"data","value":123}').toString('base64') } }] });
  }

  @Action('Sends three log messages while it runs.', { effects: [] })
  async test_tool_with_logging(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    await mcp.log('info', 'Tool execution started');
    await delay(50);
    await mcp.log('info', 'Tool processing data');
    await delay(50);
    await mcp.log('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Action('Always fails.', { effects: [] })
  test_error_handling(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  @Action('Reports progress while it runs.', { effects: [] })
  async test_tool_with_progress(@Inject(McpRequest, { optional: true }) mcp: McpRequest | undefined): Promise<string> {
    await mcp?.progress(0, 100);
    await delay(50);
    await mcp?.progress(50, 100);
    await delay(50);
    await mcp?.progress(100, 100);
    return 'Tool with progress executed successfully';
  }

  @Action('Asks the client model (sampling).', { params: { type: 'object', properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } }, required: ['prompt'] }, effects: [] })
  async test_sampling(params: Record<string, unknown>, @Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: String(params.prompt) } }], maxTokens: 100 });
    return `LLM response: ${answer.content.type === 'text' ? answer.content.text : JSON.stringify(answer.content)}`;
  }

  @Action('Asks the user for input (elicitation).', { params: { type: 'object', properties: { message: { type: 'string', description: 'The message to show the user' } }, required: ['message'] }, effects: [] })
  async test_elicitation(params: Record<string, unknown>, @Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.elicitInput({
      message: String(params.message),
      requestedSchema: { type: 'object', properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } }, required: ['username', 'email'] },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Action('Asks the user with defaults for every primitive type.', { effects: [] })
  async test_elicitation_sep1034_defaults(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.elicitInput({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Action('Asks the user with every enum variant.', { effects: [] })
  async test_elicitation_sep1330_enums(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.elicitInput({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
          legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
          untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: { type: 'array', description: 'Select multiple options with titles', minItems: 1, maxItems: 3, items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } },
        },
      },
    } as never);
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Action('Closes its SSE stream mid-call, then answers: the client reconnects with Last-Event-ID (SEP-1699 polling).', { effects: [] })
  async test_reconnection(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    await delay(50);
    mcp.closeSseStream();
    await delay(200);
    return 'Reconnection test completed';
  }

  @Action('Tool with JSON Schema 2020-12 features', {
    name: 'json_schema_2020_12_tool',
    params: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    effects: [],
  })
  jsonSchema202012(params: Record<string, unknown>): string {
    return `Received: ${JSON.stringify(params)}`;
  }
}

/** An `McpServer` serving the conformance tools. */
export function conformanceServer(): McpServer {
  const server = new McpServer({ name: 'agenttoolkit-conformance', version: '1.0.0' });
  serveTools(server, new Tools({ logger: { warn: () => undefined, error: () => undefined } }).register(new ConformanceTools()));
  return server;
}

if (require.main === module) {
  void serveHttp(conformanceServer, { port: Number(process.argv[2] ?? 0), eventStore: new McpMemoryEventStore(), retryIntervalMs: 500 }).then((endpoint) => console.log(endpoint.url));
}
