/**
 * Traces across an MCP proxy chain (remote server -> our client -> our server -> an SDK client) through the real
 * OpenTelemetry SDK, on each protocol line: SDK 1.x (2025-11-25) and SDK v2 (2026-07-28, and 2025-11-25 negotiated by
 * a v2 client). One trace from the SDK client's span: our server's execute_tool span, our client's CLIENT span
 * `tools/call {tool}` under it, the remote registry's execute_tool span under that.
 */
import { context, propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as V2McpServer } from '@modelcontextprotocol/server';
import { Tools } from '../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../lib/mcp';
import { openTelemetry, type ContentRecorder } from '../../lib/otel';
import { capturingLogger } from '../support/capturing-logger';
import { otelSdk, parentOf, withContextManager } from './otel-harness';

withContextManager();
beforeAll(() => propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] })));
afterAll(() => propagation.disable());

type Sdk = ReturnType<typeof otelSdk>;
type Line = 'sdk1' | 'sdk2-modern' | 'sdk2-legacy';

const wordParams = { type: 'object', properties: { word: { type: 'string' }, secret: { type: 'string' } }, required: ['word'] } as never;
const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

function lookupTools(sdk: Sdk, recordContent?: ContentRecorder): Tools {
  const tools = new Tools({ telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, recordContent }), logger: capturingLogger() });
  tools.action({ name: 'lookup', description: 'Look a word up.', params: wordParams, effects: [] }, ({ word }: { word: string }) => `${word}: found`);
  tools.action({ name: 'broken', description: 'Always fails.', params: { type: 'object', properties: {} } as never, effects: [] }, () => {
    throw new Error('the dictionary is gone');
  });
  return tools;
}

/** `tools` served over Streamable HTTP on the SDK line `line` speaks. */
function endpoint(line: Line, tools: Tools): Promise<McpHttpEndpoint> {
  return serveHttp(
    () => {
      const server = line === 'sdk1' ? new V1McpServer({ name: 'words', version: '1.0.0' }) : new V2McpServer({ name: 'words', version: '1.0.0' });
      serveTools(server as never, tools);
      return server as never;
    },
    { registries: [tools] },
  );
}

/** The SDK client at the end of the chain, connected to `url` in the revision `line` stands for. */
async function endClient(line: Line, url: string): Promise<V1Client | V2Client> {
  if (line === 'sdk2-modern') {
    const client = new V2Client({ name: 'end', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2HttpTransport(new URL(url)));
    return client;
  }
  const client = new V1Client({ name: 'end', version: '1' });
  await client.connect(new V1HttpTransport(new URL(url)));
  return client;
}

/** Calls `name` from the end client inside a span of its own, sending that span's context in `_meta` as an instrumented SDK client would. */
async function callTraced(sdk: Sdk, client: V1Client | V2Client, name: string, args: Record<string, unknown>) {
  const tracer = sdk.tracerProvider.getTracer('end-client');
  return tracer.startActiveSpan('agent turn', { kind: SpanKind.CLIENT }, async (span) => {
    const meta: Record<string, string> = {};
    propagation.inject(context.active(), meta);
    try {
      return await (client as V1Client).callTool({ name, arguments: args, _meta: meta });
    } finally {
      span.end();
    }
  });
}

async function chain(line: Line, recordContent?: ContentRecorder) {
  const sdk = otelSdk();
  const remote = await endpoint(line, lookupTools(sdk, recordContent));
  const proxyTools = new Tools({ telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, recordContent }), logger: capturingLogger() });
  const upstream = await McpClientTools.connect(proxyTools, { name: 'up', url: remote.url, sdk: line === 'sdk1' ? 1 : 2 });
  const proxy = await endpoint(line, proxyTools);
  const client = await endClient(line, proxy.url);
  return {
    sdk,
    client,
    remote,
    close: async () => {
      await client.close();
      await proxy.close();
      await upstream.close();
      await remote.close();
      await sdk.shutdown();
    },
  };
}

const REVISION: Record<Line, string> = { sdk1: '2025-11-25', 'sdk2-modern': '2026-07-28', 'sdk2-legacy': '2025-11-25' };

describe.each(['sdk1', 'sdk2-modern'] as const)('the MCP proxy chain on %s: remote server -> our client -> our server -> an SDK client', (line) => {
  it('is one trace: execute_tool under the SDK client span, tools/call under it (CLIENT), the remote execute_tool under that', async () => {
    const { sdk, client, remote, close } = await chain(line);
    try {
      expect(text(await callTraced(sdk, client, 'mcp__up__lookup', { word: 'otter' }))).toBe('otter: found');
      const root = sdk.span('agent turn');
      const served = sdk.span('execute_tool mcp__up__lookup');
      const request = sdk.span('tools/call lookup');
      const executed = sdk.span('execute_tool lookup');
      const traceId = root.spanContext().traceId;
      for (const span of [served, request, executed]) expect(span.spanContext().traceId).toBe(traceId);
      expect(parentOf(served)).toBe(root.spanContext().spanId);
      expect(parentOf(request)).toBe(served.spanContext().spanId);
      expect(parentOf(executed)).toBe(request.spanContext().spanId);
      expect(executed.parentSpanContext?.isRemote).toBe(true);
      expect([served.kind, request.kind, executed.kind]).toEqual([SpanKind.INTERNAL, SpanKind.CLIENT, SpanKind.INTERNAL]);
      expect(served.attributes['gen_ai.tool.type']).toBe('extension');
      expect(executed.attributes['gen_ai.tool.type']).toBe('function');
      const port = Number(new URL(remote.url).port);
      expect(request.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'lookup',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': REVISION[line],
        'network.transport': 'tcp',
        'server.address': '127.0.0.1',
        'server.port': port,
        'agenttoolkit.mcp.server': 'up',
      });
      expect(request.status.code).toBe(SpanStatusCode.UNSET);
      // A 2025-11-25 Streamable HTTP connection is a session; a 2026-07-28 one is stateless.
      if (line === 'sdk1') expect(request.attributes['mcp.session.id']).toEqual(expect.any(String));
      else expect(request.attributes['mcp.session.id']).toBeUndefined();
      // No server span besides the execute_tool spans: each hop adds exactly one span per role.
      expect(sdk.spans().filter((s) => s.spanContext().traceId === traceId).map((s) => s.name).sort()).toEqual(['agent turn', 'execute_tool lookup', 'execute_tool mcp__up__lookup', 'tools/call lookup']);
    } finally {
      await close();
    }
  });

  it('records the listing as a CLIENT span tools/list without a target, and a failed remote tool as tool_error on both hops', async () => {
    const { sdk, client, close } = await chain(line);
    try {
      const listing = sdk.spans().filter((s) => s.name === 'tools/list');
      expect(listing.length).toBeGreaterThanOrEqual(1);
      expect(listing[0]!.kind).toBe(SpanKind.CLIENT);
      expect(listing[0]!.attributes['mcp.method.name']).toBe('tools/list');
      expect(listing[0]!.attributes['gen_ai.tool.name']).toBeUndefined();
      expect(listing[0]!.attributes['gen_ai.operation.name']).toBeUndefined();
      const result = await callTraced(sdk, client, 'mcp__up__broken', {});
      expect((result as { isError?: boolean }).isError).toBe(true);
      const request = sdk.span('tools/call broken');
      expect([request.attributes['error.type'], request.status.code]).toEqual(['tool_error', SpanStatusCode.ERROR]);
      expect(sdk.span('execute_tool broken').attributes['error.type']).toBe('tool_error');
      expect(sdk.span('execute_tool mcp__up__broken').attributes['error.type']).toBe('tool_error');
    } finally {
      await close();
    }
  });

  it('records arguments only through the redaction hook, on the execute_tool spans and never on the request span', async () => {
    const redact: ContentRecorder = (content) => (content.kind === 'arguments' ? JSON.stringify({ ...(content.value as object), secret: '[redacted]' }) : undefined);
    const { sdk, client, close } = await chain(line, redact);
    try {
      await callTraced(sdk, client, 'mcp__up__lookup', { word: 'otter', secret: 'hunter2' });
      for (const name of ['execute_tool mcp__up__lookup', 'execute_tool lookup']) {
        expect(JSON.parse(String(sdk.span(name).attributes['gen_ai.tool.call.arguments']))).toEqual({ word: 'otter', secret: '[redacted]' });
      }
      expect(sdk.span('tools/call lookup').attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(JSON.stringify(sdk.spans().map((s) => s.attributes))).not.toContain('hunter2');
    } finally {
      await close();
    }
  });
});

describe('a v2 client negotiating 2025-11-25 with an SDK 1.x server', () => {
  it('records the legacy revision and the session on its request spans (logging/setLevel, tools/call)', async () => {
    const sdk = otelSdk();
    const remote = await endpoint('sdk1', lookupTools(sdk));
    const tools = new Tools({ telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider }) });
    const upstream = await McpClientTools.connect(tools, { name: 'up', url: remote.url, sdk: 2, logLevel: 'warning' });
    try {
      const level = sdk.span('logging/setLevel');
      expect([level.kind, level.status.code, level.attributes['mcp.session.id']]).toEqual([SpanKind.CLIENT, SpanStatusCode.UNSET, expect.any(String)]);
      expect((await tools.execute('mcp__up__lookup', { word: 'heron' })).ok).toBe(true);
      const request = sdk.span('tools/call lookup');
      expect(request.attributes['mcp.protocol.version']).toBe(REVISION['sdk2-legacy']);
      expect(request.attributes['mcp.session.id']).toEqual(expect.any(String));
      expect(parentOf(sdk.span('execute_tool lookup'))).toBe(request.spanContext().spanId);
    } finally {
      await upstream.close();
      await remote.close();
      await sdk.shutdown();
    }
  });
});
