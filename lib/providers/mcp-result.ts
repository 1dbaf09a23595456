import type { BinaryContent } from '../media/binary-content';
import { extensionOf } from '../media/media-type';
import type { ActionResult } from '../result';
import { isPlainObject } from '../schema/plain-copy';
import { displayName, hasBinary, resultLinks, resultParts } from './result-parts';
import { mayHoldBinary, jsonText, resultText } from './result-text';
import { wellFormedJson } from './well-formed';

/**
 * An item of a `CallToolResult`'s `content` (the MCP SDK's `ContentBlock`): text, image, audio, embedded resource or
 * resource link.
 */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType: string; blob: string } }
  | McpResourceLink;

/** A `resource_link` content block (MCP specification 2025-06-18, "Resource Links"). */
export interface McpResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** An MCP `CallToolResult`: content, the structured value when it is an object, `isError` on failure. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/**
 * A result as an MCP `CallToolResult` (provider rule: a failed call is a result with `isError: true`, not a protocol
 * error; its text is never blank). A successful result whose JSON form is an object also carries it as
 * `structuredContent`, beside its JSON text (MCP specification 2025-06-18, "Structured Content": "a tool that returns
 * structured content SHOULD also return the serialized JSON in a TextContent block"). Binary results (see
 * `ActionResult.image` / `ActionResult.file`) are `image` content for `image/*`, `audio` content for `audio/*`, and an
 * embedded `resource` with a base64 `blob` for any other media type, its `uri` `attachment:<name>`. A result with
 * resource links (`ActionResult.resourceLink`, or a text an output budget cut and saved) is its text then one
 * `resource_link` block per link (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#resource-links).
 */
export function mcpToolResult(result: ActionResult<unknown>): McpCallToolResult {
  const links = resultLinks(result);
  if (links.length > 0) {
    const text = resultText(result);
    const content: McpContent[] = text === '' ? [] : [{ type: 'text', text }];
    for (const link of links) content.push(link.toJSON());
    return { content, isError: false };
  }
  const parts = resultParts(result);
  if (hasBinary(parts)) {
    const content = parts.map((part, index): McpContent => (part.type === 'text' ? { type: 'text', text: part.text } : binaryContent(part.content, index)));
    return { content, isError: !result.ok };
  }
  const out: McpCallToolResult = { content: [{ type: 'text', text: resultText(result) }], isError: !result.ok };
  const structured = result.ok ? structuredContent(result.result) : undefined;
  if (structured !== undefined) out.structuredContent = structured;
  return out;
}

function binaryContent(content: BinaryContent, index: number): McpContent {
  const mimeType = content.essence;
  if (mimeType.startsWith('image/')) return { type: 'image', data: content.data, mimeType };
  if (mimeType.startsWith('audio/')) return { type: 'audio', data: content.data, mimeType };
  const name = displayName(content, index, extensionOf(mimeType));
  return { type: 'resource', resource: { uri: `attachment:${encodeURIComponent(name)}`, mimeType, blob: content.data } };
}

/** The value as a JSON object (well-formed, bytes as base64 JSON), or undefined when its JSON form is not an object. */
function structuredContent(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const text = jsonText(value);
  if (text === undefined || !text.startsWith('{')) return undefined;
  return wellFormedJson(isPlainObject(value) && !mayHoldBinary(text) ? value : JSON.parse(text), text) as Record<string, unknown>;
}
