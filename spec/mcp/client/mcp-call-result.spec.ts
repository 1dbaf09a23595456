import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { anthropicToolResult } from '../../../lib/providers/anthropic';
import { BinaryContent, isContentBlocks, Tools } from '../../../lib';
import { mcpToolResult } from '../../../lib/providers/mcp';
import { McpClientTools, mcpToolOutput } from '../../../lib/mcp';
import { connectInMemory, recordingLogger } from './support';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex').toString('base64');
const WAV = Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVEfmt ').toString('base64');

/** A registry holding one remote tool `show` that answers with `result`. */
async function answering(result: CallToolResult): Promise<Tools> {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('show', { description: 'Show.' }, () => result);
  const tools = new Tools({ logger: recordingLogger() });
  await McpClientTools.connect(tools, { name: 'media', client: await connectInMemory(server) });
  return tools;
}

describe('MCP results turned into ActionResults', () => {
  it('an image becomes binary content, sent to providers as their native image', async () => {
    const tools = await answering({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] });
    const result = await tools.execute('mcp__media__show', {});
    expect(result.result).toBeInstanceOf(BinaryContent);
    expect(result.result).toMatchObject({ mediaType: 'image/png', data: PNG });
    expect(anthropicToolResult('toolu_1', result).content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]);
    expect(mcpToolResult(result).content).toEqual([{ type: 'image', data: PNG, mimeType: 'image/png' }]);
  });

  it('audio becomes binary content with its media type', async () => {
    const tools = await answering({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] });
    const result = await tools.execute('mcp__media__show', {});
    expect(result.result).toMatchObject({ mediaType: 'audio/wav', data: WAV });
    expect(mcpToolResult(result).content).toEqual([{ type: 'audio', data: WAV, mimeType: 'audio/wav' }]);
  });

  it('an embedded text resource becomes its text; a blob resource binary content named by its URI', async () => {
    const text = await answering({ content: [{ type: 'resource', resource: { uri: 'file:///notes/a.md', mimeType: 'text/markdown', text: '# A' } }] });
    expect((await text.execute('mcp__media__show', {})).result).toBe('# A');
    const blob = await answering({ content: [{ type: 'resource', resource: { uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } }] });
    expect((await blob.execute('mcp__media__show', {})).result).toMatchObject({ mediaType: 'application/pdf', name: 'file:///r.pdf', data: 'JVBERi0=' });
  });

  it('mixed content keeps every block in order; a resource link becomes a URL block', async () => {
    const tools = await answering({
      content: [
        { type: 'text', text: 'Here is the chart:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource_link', uri: 'https://example.com/data.csv', name: 'data.csv', mimeType: 'text/csv' },
      ],
    });
    const result = await tools.execute('mcp__media__show', {});
    expect(isContentBlocks(result.result)).toBe(true);
    expect(result.result).toEqual([
      { type: 'text', text: 'Here is the chart:' },
      { type: 'data', source: { type: 'base64', mediaType: 'image/png', data: PNG } },
      { type: 'data', source: { type: 'url', url: 'https://example.com/data.csv', mediaType: 'text/csv' }, name: 'data.csv' },
    ]);
    expect(mcpToolResult(result).content.map((c) => c.type)).toEqual(['text', 'image', 'text']);
  });

  it('several text blocks are joined by newlines; structured content with other content follows as a JSON block', async () => {
    expect((await (await answering({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).execute('mcp__media__show', {})).result).toBe('a\nb');
    const tools = await answering({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }], structuredContent: { width: 1 } });
    expect((await tools.execute('mcp__media__show', {})).result).toEqual([
      { type: 'data', source: { type: 'base64', mediaType: 'image/png', data: PNG } },
      { type: 'data', source: { type: 'json', value: { width: 1 } } },
    ]);
  });

  it('an error result without text still tells the model which tool failed', async () => {
    const tools = await answering({ content: [], isError: true });
    expect((await tools.execute('mcp__media__show', {})).error).toBe("Tool 'mcp__media__show' failed on MCP server 'media' without a message.");
  });

  it('reads what older or unusual servers send: toolResult, unknown blocks, bad media types, empty content', () => {
    expect(mcpToolOutput({ toolResult: { legacy: true } }, 's', 't')).toEqual({ legacy: true });
    expect(mcpToolOutput({ content: [] }, 's', 't')).toBe('');
    expect(mcpToolOutput({ content: [{ type: 'text', text: 'x' }, { type: 'future', value: 1 }] }, 's', 't')).toBe('x\n{"type":"future","value":1}');
    expect(mcpToolOutput({ content: [{ type: 'image', data: PNG, mimeType: 'not a type' }] }, 's', 't')).toMatchObject({ mediaType: 'application/octet-stream' });
    expect(mcpToolOutput({ content: [{ type: 'resource', resource: { uri: 1 } }] }, 's', 't')).toMatchObject({ mediaType: 'application/octet-stream', name: undefined, byteLength: 0 });
    expect(() => mcpToolOutput({ content: [{ type: 'text' }], isError: true }, 's', 't')).toThrow("Tool 't' failed on MCP server 's' without a message.");
    const link = mcpToolOutput({ content: [{ type: 'resource_link' }, { type: 'text', text: 'y' }] }, 's', 't') as { content: unknown[] };
    expect(link.content[0]).toEqual({ type: 'data', source: { type: 'url', url: '' } });
  });
});
