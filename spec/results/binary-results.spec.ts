/**
 * Binary results reach each provider as its native content (images, documents, audio, files), never as a JSON map of
 * byte numbers; unknown bytes are base64 with `application/octet-stream`.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionResponse, Part } from '@google/genai' with { 'resolution-mode': 'import' };
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionMessageParam, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { Type } from '@sinclair/typebox';
import {
  ActionResult,
  BinaryContent,
  CoreError,
  detectMediaType,
  isBinaryContent,
  ToolChunk,
  ToolResultState,
  Tools,
} from '../../lib';
import { anthropicToolResult } from '../../lib/providers/anthropic';
import { geminiFunctionResponse } from '../../lib/providers/gemini';
import { mcpToolResult } from '../../lib/providers/mcp';
import { openAIChatToolMessage, openAIChatToolMessages, openAIResponsesToolOutput } from '../../lib/providers/openai';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PNG64 = PNG.toString('base64');
const bytes = (...values: Array<number | string>): Uint8Array =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...Buffer.from(v, 'latin1')] : [v])).concat(new Array<number>(16).fill(0)));

describe('media types from magic bytes', () => {
  it.each([
    ['PNG', new Uint8Array(PNG), 'image/png'],
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0), 'image/jpeg'],
    ['GIF87a', bytes('GIF87a'), 'image/gif'],
    ['GIF89a', bytes('GIF89a'), 'image/gif'],
    ['WebP', bytes('RIFF', 1, 2, 3, 4, 'WEBPVP8 '), 'image/webp'],
    ['WAV', bytes('RIFF', 1, 2, 3, 4, 'WAVEfmt '), 'audio/wav'],
    ['PDF', bytes('%PDF-1.7\n'), 'application/pdf'],
    ['MP3 with an ID3 tag', bytes('ID3', 4, 0), 'audio/mpeg'],
    ['MP3 frame (MPEG-1 layer III)', bytes(0xff, 0xfb, 0x90), 'audio/mpeg'],
    ['MP3 frame (MPEG-2 layer III)', bytes(0xff, 0xf3, 0x90), 'audio/mpeg'],
    ['Ogg', bytes('OggS', 0), 'audio/ogg'],
    ['FLAC', bytes('fLaC'), 'audio/flac'],
    ['ZIP', bytes('PK', 3, 4), 'application/zip'],
    ['gzip', bytes(0x1f, 0x8b, 8), 'application/gzip'],
  ])('%s', (_name, data, expected) => {
    expect(detectMediaType(data)).toBe(expected);
  });

  it.each([
    ['empty', new Uint8Array()],
    ['text', bytes('hello world')],
    ['a RIFF container of another kind', bytes('RIFF', 1, 2, 3, 4, 'AVI LIST')],
    ['a truncated PNG signature', new Uint8Array(PNG.subarray(0, 5))],
    ['0xFF followed by a non-frame byte', bytes(0xff, 0x00)],
  ])('%s is not recognised', (_name, data) => {
    expect(detectMediaType(data)).toBeUndefined();
    expect(BinaryContent.from(data).mediaType).toBe('application/octet-stream');
  });
});

describe('ActionResult.image and ActionResult.file', () => {
  it('detect or take the media type; copy the bytes at once', () => {
    const source = new Uint8Array(PNG);
    const image = ActionResult.image(source);
    source.fill(0);
    expect(image.ok).toBe(true);
    expect(isBinaryContent(image.result)).toBe(true);
    expect(image.result).toMatchObject({ mediaType: 'image/png', data: PNG64, byteLength: PNG.length, name: undefined });
    expect(ActionResult.image(PNG, 'IMAGE/PNG', 'shot.png').result).toMatchObject({ mediaType: 'image/png', name: 'shot.png' });
    expect(ActionResult.file(bytes('%PDF-1.4')).result!.mediaType).toBe('application/pdf');
    expect(ActionResult.file(bytes('x'), 'text/csv', 'data.csv').result).toMatchObject({ mediaType: 'text/csv', name: 'data.csv' });
    expect(ActionResult.file(new Uint16Array([1, 2]).buffer).result!.byteLength).toBe(4);
    expect(ActionResult.file(new DataView(PNG.buffer, PNG.byteOffset, 8)).result!.mediaType).toBe('image/png');
    expect(Object.isFrozen(image.result)).toBe(true);
  });

  it('refuse what is not an image or not a media type', () => {
    expect(() => ActionResult.image(bytes('plain text'))).toThrow(CoreError);
    expect(() => ActionResult.image(bytes('plain text'))).toThrow(/not a PNG, JPEG, GIF or WebP image/);
    expect(() => ActionResult.image(bytes('%PDF-'))).toThrow(/'application\/pdf' is not an image media type/);
    expect(() => ActionResult.image(PNG, 'application/pdf')).toThrow(/not an image media type/);
    expect(() => ActionResult.file(PNG, 'png')).toThrow(expect.objectContaining({ code: 'INVALID_RESULT' }));
    expect(() => ActionResult.file('abc' as unknown as Uint8Array)).toThrow(expect.objectContaining({ code: 'INVALID_RESULT' }));
    expect(() => ActionResult.image('abc' as unknown as Uint8Array, 'image/png')).toThrow(expect.objectContaining({ code: 'INVALID_RESULT' }));
  });

  it('JSON form is base64 with the media type', () => {
    expect(JSON.parse(JSON.stringify(ActionResult.image(PNG, undefined, 'a.png')))).toEqual({ ok: true, result: { type: 'binary', mediaType: 'image/png', name: 'a.png', data: PNG64 } });
    expect(BinaryContent.from(PNG).toDataUrl()).toBe(`data:image/png;base64,${PNG64}`);
    expect([...BinaryContent.from(PNG).bytes()]).toEqual([...PNG]);
  });
});

/** The reported input: a tool returning `workspace.readBytes('shot.png')`, a Buffer, an ArrayBuffer. */
async function executed(value: unknown): Promise<ActionResult<unknown>> {
  const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
  tools.action({ name: 'read', description: 'Reads.', params: Type.Object({}) }, () => value);
  return tools.execute('read', {});
}

describe('a PNG a tool returns, in each provider', () => {
  const forms: Array<[string, () => unknown]> = [
    ['Uint8Array', () => new Uint8Array(PNG)],
    ['Buffer', () => Buffer.from(PNG)],
    ['ArrayBuffer', () => PNG.buffer.slice(PNG.byteOffset, PNG.byteOffset + PNG.length)],
    ['ActionResult.image', () => ActionResult.image(PNG)],
  ];

  it.each(forms)('%s: Anthropic image block', async (_form, make) => {
    const block = anthropicToolResult('toolu_1', await executed(make())) satisfies Anthropic.ToolResultBlockParam;
    expect(block).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: false, content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG64 } }] });
  });

  it.each(forms)('%s: OpenAI Responses input_image', async (_form, make) => {
    const item = openAIResponsesToolOutput('r1', await executed(make())) satisfies ResponseInputItem.FunctionCallOutput;
    expect(item).toEqual({ type: 'function_call_output', call_id: 'r1', output: [{ type: 'input_image', image_url: `data:image/png;base64,${PNG64}`, detail: 'auto' }] });
  });

  it.each(forms)('%s: Chat Completions note plus a user message with the image', async (_form, make) => {
    const result = await executed(make());
    const messages = openAIChatToolMessages([
      { call: { id: 'c1', name: 'read', args: {} }, result },
      { call: { id: 'c2', name: 'other', args: {} }, result: ActionResult.success('plain') },
    ]) satisfies ChatCompletionMessageParam[];
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: `[attachment 'attachment-1.png' (image/png, ${PNG.length} bytes): in the next user message]` },
      { role: 'tool', tool_call_id: 'c2', content: 'plain' },
      {
        role: 'user',
        content: [
          { type: 'text', text: "Attachment 'attachment-1.png' from tool call c1 (read):" },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}`, detail: 'auto' } },
        ],
      },
    ]);
    expect(openAIChatToolMessage('c1', result) satisfies ChatCompletionToolMessageParam).toEqual(messages[0]);
  });

  it.each(forms)('%s: Gemini inline data referenced from the response', async (_form, make) => {
    const part = geminiFunctionResponse({ id: 'g1', name: 'read', args: {} }, await executed(make())) satisfies Part;
    expect(part.functionResponse satisfies FunctionResponse).toEqual({
      id: 'g1',
      name: 'read',
      response: { output: { $ref: 'attachment-1.png' } },
      parts: [{ inlineData: { mimeType: 'image/png', data: PNG64, displayName: 'attachment-1.png' } }],
    });
  });

  it.each(forms)('%s: MCP image content', async (_form, make) => {
    expect(mcpToolResult(await executed(make())) satisfies CallToolResult).toEqual({ content: [{ type: 'image', data: PNG64, mimeType: 'image/png' }], isError: false });
  });
});

describe('other media types', () => {
  const pdf = Buffer.from('%PDF-1.4\n%%EOF');
  const wav = bytes('RIFF', 1, 2, 3, 4, 'WAVEfmt ');
  const blob = bytes(1, 2, 3);
  const b64 = (data: Uint8Array) => Buffer.from(data).toString('base64');

  it('a PDF: Anthropic document, OpenAI input_file and a file attachment, Gemini inline, MCP resource', () => {
    const result = ActionResult.file(pdf, undefined, 'report.pdf');
    expect(anthropicToolResult('t', result).content).toEqual([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64(pdf) }, title: 'report.pdf' }]);
    expect(openAIResponsesToolOutput('r', result).output).toEqual([{ type: 'input_file', file_data: `data:application/pdf;base64,${b64(pdf)}`, filename: 'report.pdf' }]);
    const [, user] = openAIChatToolMessages([{ call: { id: 'c', name: 'f', args: {} }, result }]) satisfies ChatCompletionMessageParam[];
    expect(user).toEqual({ role: 'user', content: [{ type: 'text', text: "Attachment 'report.pdf' from tool call c (f):" }, { type: 'file', file: { file_data: `data:application/pdf;base64,${b64(pdf)}`, filename: 'report.pdf' } }] });
    expect(geminiFunctionResponse({ id: '', name: 'f', args: {} }, result).functionResponse.parts).toEqual([{ inlineData: { mimeType: 'application/pdf', data: b64(pdf), displayName: 'report.pdf' } }]);
    expect(mcpToolResult(result).content).toEqual([{ type: 'resource', resource: { uri: 'attachment:report.pdf', mimeType: 'application/pdf', blob: b64(pdf) } }]);
  });

  it('plain text: an Anthropic text document', () => {
    const result = ActionResult.file(Buffer.from('héllo'), 'text/plain; charset=utf-8');
    expect(anthropicToolResult('t', result).content).toEqual([{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } }]);
  });

  it('audio: MCP audio content; base64 JSON text where the provider has no audio input', () => {
    const result = ActionResult.file(wav);
    const json = JSON.stringify({ type: 'binary', mediaType: 'audio/wav', data: b64(wav) });
    expect(mcpToolResult(result).content).toEqual([{ type: 'audio', data: b64(wav), mimeType: 'audio/wav' }]);
    expect(anthropicToolResult('t', result).content).toEqual([{ type: 'text', text: json }]);
    expect(openAIResponsesToolOutput('r', result).output).toEqual([{ type: 'input_text', text: json }]);
    expect(openAIChatToolMessages([{ call: { id: 'c', name: 'f', args: {} }, result }])).toEqual([{ role: 'tool', tool_call_id: 'c', content: json }]);
    expect(geminiFunctionResponse({ id: '', name: 'f', args: {} }, result).functionResponse).toEqual({ name: 'f', response: { output: JSON.parse(json) } });
  });

  it('unknown bytes are base64 with application/octet-stream, never numbers', async () => {
    const result = await executed(blob);
    const json = JSON.stringify({ type: 'binary', mediaType: 'application/octet-stream', data: b64(blob) });
    expect(anthropicToolResult('t', result).content).toEqual([{ type: 'text', text: json }]);
    expect(mcpToolResult(result).content).toEqual([{ type: 'resource', resource: { uri: 'attachment:attachment-1.bin', mimeType: 'application/octet-stream', blob: b64(blob) } }]);
    for (const text of [JSON.stringify(anthropicToolResult('t', result)), JSON.stringify(openAIChatToolMessages([{ call: { id: 'c', name: 'f', args: {} }, result }])), JSON.stringify(geminiFunctionResponse({ id: '', name: 'f', args: {} }, result))]) {
      expect(text).not.toMatch(/"0":\s*\d/);
      expect(text).toContain(b64(blob));
    }
  });

  it('bytes nested in a JSON result are base64 JSON in every text channel and in structured data', async () => {
    const result = await executed({ path: 'shot.png', bytes: Buffer.from(PNG), raw: new Uint8Array([1, 2]), buffer: new Uint8Array([3]).buffer });
    const expected = {
      path: 'shot.png',
      bytes: { type: 'binary', mediaType: 'image/png', data: PNG64 },
      raw: { type: 'binary', mediaType: 'application/octet-stream', data: 'AQI=' },
      buffer: { type: 'binary', mediaType: 'application/octet-stream', data: 'Aw==' },
    };
    expect(JSON.parse(anthropicToolResult('t', result).content as string)).toEqual(expected);
    expect(JSON.parse(openAIChatToolMessage('c', result).content)).toEqual(expected);
    expect(JSON.parse(openAIResponsesToolOutput('r', result).output as string)).toEqual(expected);
    expect(mcpToolResult(result)).toEqual({ content: [{ type: 'text', text: JSON.stringify(expected) }], structuredContent: expected, isError: false });
    expect(geminiFunctionResponse({ id: '', name: 'f', args: {} }, result).functionResponse.response).toEqual({ output: expected });
  });

  it('bytes deep in a result, beside a lone surrogate, are base64 JSON and the strings well-formed', () => {
    let deep: Record<string, unknown> = { bytes: new Uint8Array([7]), text: 'a\ud800b' };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const result = ActionResult.success(deep);
    let leaf = (geminiFunctionResponse({ id: '', name: 'f', args: {} }, result).functionResponse.response as { output: Record<string, unknown> }).output;
    let structured = mcpToolResult(result).structuredContent!;
    for (let i = 0; i < 100; i++) {
      leaf = leaf.next as Record<string, unknown>;
      structured = structured.next as Record<string, unknown>;
    }
    for (const node of [leaf, structured]) expect(node).toEqual({ bytes: { type: 'binary', mediaType: 'application/octet-stream', data: 'Bw==' }, text: 'a\ufffdb' });
  });

  it('several images in one result, and names made unique per message', () => {
    const result = ActionResult.success([Buffer.from(PNG), BinaryContent.from(PNG, undefined, 'b.png')]);
    expect(mcpToolResult(result).content).toHaveLength(2);
    const gemini = geminiFunctionResponse({ id: '', name: 'f', args: {} }, result).functionResponse;
    expect(gemini.response).toEqual({ output: [{ $ref: 'attachment-1.png' }, { $ref: 'b.png' }] });
    const messages = openAIChatToolMessages([
      { call: { id: 'c1', name: 'f', args: {} }, result: ActionResult.image(PNG) },
      { call: { id: 'c2', name: 'f', args: {} }, result: ActionResult.image(PNG) },
    ]);
    expect(messages.map((m) => m.content)).toEqual([
      expect.stringContaining("'attachment-1.png'"),
      expect.stringContaining("'attachment-2.png'"),
      expect.arrayContaining([{ type: 'text', text: "Attachment 'attachment-2.png' from tool call c2 (f):" }]),
    ]);
    // A mixed array is data, not attachments.
    expect(mcpToolResult(ActionResult.success([Buffer.from(PNG), 'caption'])).content[0]!.type).toBe('text');
  });

  it('a failed result never becomes binary content', () => {
    const failed = ActionResult.fail('No file.');
    expect(anthropicToolResult('t', failed).content).toBe('No file.');
    expect(openAIResponsesToolOutput('r', failed).output).toBe('Error: No file.');
    expect(openAIChatToolMessages([{ call: { id: 'c', name: 'f', args: {} }, result: failed }])).toEqual([{ role: 'tool', tool_call_id: 'c', content: 'Error: No file.' }]);
  });
});

describe('streamed output mixing text and media', () => {
  async function streamed(): Promise<ActionResult<unknown>> {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'shoot', description: 'Screenshot.', params: Type.Object({}) }, async function* () {
      yield ToolChunk.text('Here it is:');
      yield new ToolChunk({ content: [{ type: 'data', name: 'shot.png', source: { type: 'base64', mediaType: 'image/png', data: PNG64 } }] });
      yield new ToolChunk({ content: [{ type: 'data', source: { type: 'url', url: 'https://example.com/a' } }, { type: 'data', source: { type: 'json', value: { n: 1 } } }], state: ToolResultState.SUCCESS });
    });
    return tools.execute('shoot', {});
  }

  it('is native content in each provider', async () => {
    const result = await streamed();
    const urlText = JSON.stringify({ type: 'url', url: 'https://example.com/a' });
    expect(anthropicToolResult('t', result).content).toEqual([
      { type: 'text', text: 'Here it is:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG64 } },
      { type: 'text', text: urlText },
      { type: 'text', text: '{"n":1}' },
    ]);
    expect(mcpToolResult(result).content).toEqual([
      { type: 'text', text: 'Here it is:' },
      { type: 'image', data: PNG64, mimeType: 'image/png' },
      { type: 'text', text: urlText },
      { type: 'text', text: '{"n":1}' },
    ]);
    expect(openAIResponsesToolOutput('r', result).output).toEqual([
      { type: 'input_text', text: 'Here it is:' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG64}`, detail: 'auto' },
      { type: 'input_text', text: urlText },
      { type: 'input_text', text: '{"n":1}' },
    ]);
    expect(openAIChatToolMessage('c', result).content).toBe(`Here it is:\n[attachment 'shot.png' (image/png, ${PNG.length} bytes): in the next user message]\n${urlText}\n{"n":1}`);
    expect(geminiFunctionResponse({ id: '', name: 'shoot', args: {} }, result).functionResponse).toEqual({
      name: 'shoot',
      response: { output: ['Here it is:', { $ref: 'shot.png' }, urlText, '{"n":1}'] },
      parts: [{ inlineData: { mimeType: 'image/png', data: PNG64, displayName: 'shot.png' } }],
    });
  });

  it('an empty text block is left out of Anthropic content (the API refuses empty text blocks)', () => {
    const tools = new Tools();
    void tools;
    const result = ActionResult.success([BinaryContent.from(PNG)]);
    expect(anthropicToolResult('t', result).content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG64 } }]);
  });
});
