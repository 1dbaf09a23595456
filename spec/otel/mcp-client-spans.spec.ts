/**
 * `McpClientTools` with telemetry: the trace context it sends in `params._meta`, as a server sees it, and the CLIENT
 * span of each request (errors, cancellation, stdio), through the real OpenTelemetry SDK and an SDK 1.x server.
 */
import { join } from 'node:path';
import { propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Tools } from '../../lib';
import { McpClientTools, type McpClientTelemetry, type McpClientOptions } from '../../lib/mcp';
import { openTelemetry } from '../../lib/otel';
import { capturingLogger } from '../support/capturing-logger';
import { otelSdk, parentOf, withContextManager } from './otel-harness';

withContextManager();
beforeAll(() => propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] })));
afterAll(() => propagation.disable());

const STDIO_SERVER = join(__dirname, '..', '..', 'examples', 'mcp-stdio-server.cjs');
const empty = { type: 'object', properties: {} } as const;

/** A low-level SDK server that answers with the `_meta` each request carried, and can refuse or hang. */
function metaServer() {
  const seen: Array<{ method: string; meta: Record<string, unknown> | undefined }> = [];
  const server = new Server({ name: 'meta', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    seen.push({ method: 'tools/list', meta: request.params?._meta });
    return { tools: ['echo', 'reject', 'hang'].map((name) => ({ name, description: `${name}.`, inputSchema: empty })) };
  });
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    seen.push({ method: 'logging/setLevel', meta: request.params._meta });
    return {};
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    seen.push({ method: `tools/call ${request.params.name}`, meta: request.params._meta });
    if (request.params.name === 'reject') throw new McpError(ErrorCode.InvalidParams, 'no such word');
    if (request.params.name === 'hang') await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  return { server, seen };
}

async function connected(tools: Tools, options: Partial<McpClientOptions> = {}) {
  const { server, seen } = metaServer();
  const client = new Client({ name: 'spec', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  const mcp = await McpClientTools.connect(tools, { name: 'meta', client, logger: capturingLogger(), ...options });
  return { mcp, seen, close: async () => (await mcp.close(), await client.close()) };
}

describe('McpClientTools with openTelemetry()', () => {
  let sdk: ReturnType<typeof otelSdk>;
  beforeEach(() => (sdk = otelSdk()));
  afterEach(() => sdk.shutdown());
  const traced = () => new Tools({ telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider }), logger: capturingLogger() });

  it("sends each request's span context as traceparent in params._meta, under the call's execute_tool span", async () => {
    const tools = traced();
    const { seen, close } = await connected(tools, { logLevel: 'warning' });
    try {
      expect((await tools.execute('mcp__meta__echo', {})).ok).toBe(true);
      const request = sdk.span('tools/call echo');
      const { traceId, spanId } = request.spanContext();
      expect(seen.find((s) => s.method === 'tools/call echo')!.meta).toMatchObject({ traceparent: `00-${traceId}-${spanId}-01` });
      expect(parentOf(request)).toBe(sdk.span('execute_tool mcp__meta__echo').spanContext().spanId);
      expect(request.attributes['network.transport']).toBeUndefined(); // a client the host passed: its transport is its own
      const listing = sdk.span('tools/list');
      expect(seen.find((s) => s.method === 'tools/list')!.meta?.['traceparent']).toBe(`00-${listing.spanContext().traceId}-${listing.spanContext().spanId}-01`);
      const level = sdk.span('logging/setLevel');
      expect([level.kind, level.attributes['mcp.method.name']]).toEqual([SpanKind.CLIENT, 'logging/setLevel']);
      expect(seen.find((s) => s.method === 'logging/setLevel')!.meta?.['traceparent']).toContain(level.spanContext().spanId);
    } finally {
      await close();
    }
  });

  it('records a JSON-RPC error as error.type and rpc.response.status_code with its message, and a cancelled call as cancelled', async () => {
    const tools = traced();
    const { close } = await connected(tools);
    try {
      expect((await tools.execute('mcp__meta__reject', {})).ok).toBe(false);
      const rejected = sdk.span('tools/call reject');
      expect(rejected.attributes).toMatchObject({ 'error.type': String(ErrorCode.InvalidParams), 'rpc.response.status_code': String(ErrorCode.InvalidParams) });
      expect([rejected.status.code, rejected.status.message]).toEqual([SpanStatusCode.ERROR, expect.stringContaining('no such word')]);
      const controller = new AbortController();
      const call = tools.execute('mcp__meta__hang', {}, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      expect((await call).ok).toBe(false);
      expect(sdk.span('tools/call hang').attributes['error.type']).toBe('cancelled');
    } finally {
      await close();
    }
  });

  it('sends no trace context and records nothing without a tracer provider, or with telemetry: false', async () => {
    const unlistened = new Tools({ telemetry: openTelemetry(), logger: capturingLogger() });
    const first = await connected(unlistened);
    await unlistened.execute('mcp__meta__echo', {});
    expect(first.seen.every((s) => s.meta?.['traceparent'] === undefined)).toBe(true);
    await first.close();
    const off = traced();
    const second = await connected(off, { telemetry: false });
    await off.execute('mcp__meta__echo', {});
    expect(second.seen.every((s) => s.meta?.['traceparent'] === undefined)).toBe(true);
    expect(sdk.spans().map((s) => s.name)).toEqual(['execute_tool mcp__meta__echo']);
    await second.close();
  });

  it('runs every request as without telemetry when the telemetry throws, declines, or fails to end a request', async () => {
    const throwing: McpClientTelemetry = {
      startMcpRequest: () => {
        throw new Error('broken telemetry');
      },
    };
    const ended: string[] = [];
    const failingEnd: McpClientTelemetry = {
      startMcpRequest: (start) => ({
        meta: { traceparent: 'x' },
        run: (fn) => fn(),
        end: () => {
          ended.push(start.method);
          throw new Error('broken end');
        },
      }),
    };
    for (const telemetry of [throwing, { startMcpRequest: () => undefined }, failingEnd]) {
      const tools = new Tools({ logger: capturingLogger() });
      const { close } = await connected(tools, { telemetry });
      expect(await tools.execute('mcp__meta__echo', {})).toMatchObject({ ok: true });
      expect((await tools.execute('mcp__meta__reject', {})).ok).toBe(false);
      await close();
    }
    expect(ended).toEqual(['tools/list', 'tools/call', 'tools/call']);
  });

  it('records a stdio server as network.transport pipe, with no server address', async () => {
    const tools = traced();
    const mcp = await McpClientTools.connect(tools, { name: 'notes', command: process.execPath, args: [STDIO_SERVER], stderr: 'ignore' });
    try {
      const listing = sdk.span('tools/list');
      expect(listing.attributes).toMatchObject({ 'network.transport': 'pipe', 'mcp.method.name': 'tools/list' });
      expect(listing.attributes['server.address']).toBeUndefined();
    } finally {
      await mcp.close();
    }
  });
});
