/**
 * A served registry continues the trace an MCP client sends in `params._meta` (W3C `traceparent`, `tracestate`),
 * through the official SDK on both sides: the call's `execute_tool` span is the only span, a child of the client's.
 */
import 'reflect-metadata';
import { propagation, SpanKind } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Tools } from '../../lib';
import { serveTools } from '../../lib/mcp';
import { openTelemetry } from '../../lib/otel';
import { PermissionEngine } from '../../lib/permissions';
import { otelSdk, parentOf, withContextManager } from './otel-harness';

withContextManager();
beforeAll(() => propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] })));
afterAll(() => propagation.disable());

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

async function served(engine?: PermissionEngine) {
  const sdk = otelSdk();
  const tools = new Tools({ telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }) });
  tools.action({ name: 'lookup', description: 'Look a word up.', params: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } as never, effects: [] }, ({ word }: { word: string }) => `${word}: found`);
  const server = new McpServer({ name: 'served', version: '1.0.0' });
  serveTools(server, tools, { permissions: engine });
  const client = new Client({ name: 'caller', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return { sdk, client };
}

describe('a served registry and the trace context of MCP requests', () => {
  it('continues the trace a client sends in params._meta, with the execute_tool span as the only span', async () => {
    const { sdk, client } = await served();
    const result = await client.callTool({ name: 'lookup', arguments: { word: 'otter' }, _meta: { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01`, tracestate: 'vendor=abc', baggage: 'tenant=acme' } });
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe('otter: found');
    const spans = sdk.spans();
    expect(spans.map((s) => s.name)).toEqual(['execute_tool lookup']);
    const span = spans[0]!;
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(span)).toBe(CLIENT_SPAN);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().traceState?.get('vendor')).toBe('abc');
    expect(span.attributes['gen_ai.tool.call.id']).toMatch(/^\d+$/);
    await client.close();
    await sdk.shutdown();
  });

  it('starts a new trace when the client sends none, and records the served engine decision', async () => {
    const { sdk, client } = await served(new PermissionEngine({ settings: { allow: ['lookup'] } }));
    await client.callTool({ name: 'lookup', arguments: { word: 'heron' } });
    const span = sdk.span('execute_tool lookup');
    expect(parentOf(span)).toBeUndefined();
    expect(span.attributes).toMatchObject({ 'agenttoolkit.permission.behavior': 'allow', 'agenttoolkit.permission.reason': 'read_only', 'agenttoolkit.permission.mode': 'default' });
    await client.close();
    await sdk.shutdown();
  });

  it('ignores a malformed traceparent: the call runs and its span starts a trace of its own', async () => {
    const { sdk, client } = await served();
    await client.callTool({ name: 'lookup', arguments: { word: 'x' }, _meta: { traceparent: 'not-a-traceparent', tracestate: 42 } });
    const span = sdk.span('execute_tool lookup');
    expect(parentOf(span)).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(TRACE_ID);
    await client.close();
    await sdk.shutdown();
  });
});
