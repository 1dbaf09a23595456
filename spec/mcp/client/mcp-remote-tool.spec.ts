import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { ToolDefinitionError, ToolEffect } from '../../../lib';
import { McpRemoteTool, localToolName, toolFingerprint } from '../../../lib/mcp';
import { canonicalJson } from '../../../lib/mcp/client/mcp-tool-naming';

const init = { serverName: 'srv', localName: 'mcp__srv__t', group: 'basic', trustReadOnlyHint: false, fingerprint: 'f', call: async () => 'ok' };

function tool(definition: Partial<McpToolDefinition>, options: Partial<typeof init> = {}): McpRemoteTool {
  return McpRemoteTool.from({ name: 't', inputSchema: { type: 'object' }, ...definition } as McpToolDefinition, { ...init, ...options });
}

describe('McpRemoteTool: a server\'s tool definition as a Tool', () => {
  it('keeps title (or annotations.title), icons with a src, _meta; describes a tool without a description', () => {
    const full = tool({ title: 'Title', description: 'Desc.', icons: [{ src: 'https://x/i.png' }, { src: '' } as never], _meta: { 'x/y': 1 }, annotations: { title: 'Other' } });
    expect([full.extras.title, full.resolveDescription(), full.extras.icons, full.extras.meta]).toEqual(['Title', 'Desc.', [{ src: 'https://x/i.png' }], { 'x/y': 1 }]);
    const bare = tool({ annotations: { title: 'From annotations' } });
    expect([bare.extras.title, bare.resolveDescription()]).toEqual(['From annotations', 'From annotations']);
    const anonymous = tool({ title: '  ' });
    expect([anonymous.extras.title, anonymous.resolveDescription()]).toEqual([undefined, '  ']);
    expect(tool({}).resolveDescription()).toBe("Tool 't' of MCP server 'srv'.");
    expect(tool({}).metadata).toEqual({ mcpServer: 'srv', mcpTool: 't', fingerprint: 'f', annotations: {} });
  });

  it('openWorldHint false drops the network effect; readOnlyHint needs trust', () => {
    expect(tool({ annotations: { openWorldHint: false } }).effects).toEqual(new Set());
    expect(tool({}).effects).toEqual(new Set([ToolEffect.NETWORK]));
    expect(tool({ annotations: { readOnlyHint: true } }, { trustReadOnlyHint: true }).checkReadOnly({})).toBe(true);
    expect(tool({ annotations: { readOnlyHint: true } }).checkReadOnly({})).toBe(false);
  });

  it('is non-strict when strict formats cannot express its schema, strict otherwise', () => {
    expect(tool({ inputSchema: { type: 'object', properties: { a: { type: 'string' } } } }).strict).toBe(true);
    expect(tool({ inputSchema: { type: 'object', properties: { a: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } } } as never }).strict).toBe(false);
  });

  it('throws ToolDefinitionError for a schema that is not usable JSON Schema, and passes other errors through', () => {
    expect(() => tool({ inputSchema: { type: 'object', properties: { a: { type: 'strin' } } } as never })).toThrow(ToolDefinitionError);
    const poisoned = { name: 't', inputSchema: { type: 'object' }, get annotations(): never { throw new RangeError('bad getter'); } };
    expect(() => McpRemoteTool.from(poisoned as unknown as McpToolDefinition, init)).toThrow(RangeError);
  });
});

describe('tool names and fingerprints', () => {
  it('maps names into the registry\'s alphabet and length', () => {
    expect(localToolName('mcp__s__', 'a.b c')).toBe('mcp__s__a_b_c');
    const long = localToolName('mcp__s__', 'y'.repeat(80));
    expect(long).toHaveLength(64);
    expect(long).not.toBe(localToolName('mcp__s__', `${'y'.repeat(79)}z`));
  });

  it('fingerprints the definition canonically: key order does not matter, content does, _meta and icons do not', () => {
    const a = toolFingerprint({ name: 't', description: 'd', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } });
    expect(toolFingerprint({ inputSchema: { properties: { x: { type: 'string' } }, type: 'object' }, description: 'd', name: 't' })).toBe(a);
    expect(toolFingerprint({ name: 't', description: 'd ', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } })).not.toBe(a);
    expect(toolFingerprint({ name: 't', description: 'd', inputSchema: { type: 'object', properties: { x: { type: 'string' } } }, _meta: { z: 1 }, icons: [] } as never)).toBe(a);
    expect(canonicalJson({ b: [1, undefined, { d: 1, c: undefined }], a: undefined })).toBe('{"b":[1,null,{"d":1}]}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});
