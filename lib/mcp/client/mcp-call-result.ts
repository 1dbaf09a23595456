import { ToolError } from '../../errors';
import { BinaryContent } from '../../media/binary-content';
import { isMediaType, OCTET_STREAM } from '../../media/media-type';
import { ToolChunk, ToolResultState, type ContentBlock } from '../../streaming/tool-chunk';
import { linkedOutput } from './mcp-resource-links';

/** The part of an MCP `CallToolResult` the adapter reads (the SDK's type is structurally compatible). */
export interface McpCallResult {
  readonly content?: ReadonlyArray<Record<string, unknown>> | undefined;
  readonly structuredContent?: Record<string, unknown> | undefined;
  readonly isError?: boolean | undefined;
  /** The result of a server on the 2024-10-07 protocol revision, which had no `content`. */
  readonly toolResult?: unknown;
}

/**
 * What a remote tool's call returns into the pipeline, from the server's `CallToolResult` (MCP specification
 * 2025-06-18, https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result):
 *
 * - `isError: true`: throws a `ToolError` whose message is the result's text (the server wrote it for the model), so
 *   the call fails with that text;
 * - `structuredContent` with text-only content: the structured object (the text is its serialized JSON by the
 *   specification), checked against the tool's `outputSchema`;
 * - text only: the texts joined by newlines;
 * - one image, audio or blob resource and nothing else: a `BinaryContent`, as `ActionResult.image`/`file` carry;
 * - text and resource links only: a `LinkedContent`, as `ActionResult.resourceLink` carries (see `linkedOutput`);
 * - anything else: a `ToolChunk` of content blocks (text; media as base64 data blocks; an embedded text resource as
 *   its text; a blob resource as base64 named by its URI; a resource link as a URL block), which becomes a result
 *   whose value is those blocks; `structuredContent` then follows as a JSON block;
 * - a `toolResult` (servers on the 2024-10-07 revision): that value.
 */
export function toolOutput(result: McpCallResult, serverName: string, toolName: string): unknown {
  if (result.content === undefined && 'toolResult' in result) return result.toolResult;
  const blocks = (result.content ?? []).map(contentBlock);
  if (result.isError === true) {
    const text = blocks
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
    throw new ToolError(text.trim() === '' ? `Tool '${toolName}' failed on MCP server '${serverName}' without a message.` : text);
  }
  const structured = result.structuredContent;
  const allText = blocks.every((block) => block.type === 'text');
  if (structured !== undefined && allText) return structured;
  if (allText) return blocks.map((block) => (block as { text: string }).text).join('\n');
  const linked = structured === undefined ? linkedOutput(result.content ?? []) : undefined;
  if (linked !== undefined) return linked;
  const only = blocks[0]!;
  if (structured === undefined && blocks.length === 1 && only.type === 'data' && only.source.type === 'base64') {
    return BinaryContent.from(Buffer.from(only.source.data, 'base64'), only.source.mediaType, only.name);
  }
  const content = structured === undefined ? blocks : [...blocks, { type: 'data', source: { type: 'json', value: structured } } satisfies ContentBlock];
  return new ToolChunk({ content, state: ToolResultState.SUCCESS, isLast: true });
}

function contentBlock(item: Record<string, unknown>): ContentBlock {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: String(item.text ?? '') };
    case 'image':
    case 'audio':
      return base64Block(item.data, item.mimeType, undefined);
    case 'resource': {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      if (typeof resource.text === 'string') return { type: 'text', text: resource.text };
      return base64Block(resource.blob, resource.mimeType, typeof resource.uri === 'string' ? resource.uri : undefined);
    }
    case 'resource_link': {
      const mediaType = typeof item.mimeType === 'string' ? { mediaType: item.mimeType } : {};
      const name = typeof item.name === 'string' ? { name: item.name } : {};
      return { type: 'data', source: { type: 'url', url: String(item.uri ?? ''), ...mediaType }, ...name };
    }
    default:
      return { type: 'text', text: JSON.stringify(item) };
  }
}

function base64Block(data: unknown, mimeType: unknown, name: string | undefined): ContentBlock {
  const mediaType = typeof mimeType === 'string' && isMediaType(mimeType) ? mimeType.toLowerCase() : OCTET_STREAM;
  return { type: 'data', source: { type: 'base64', mediaType, data: typeof data === 'string' ? data : '' }, ...(name === undefined ? {} : { name }) };
}
