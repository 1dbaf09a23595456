import { BinaryContent, toBinaryContent } from '../media/binary-content';
import { isMediaType } from '../media/media-type';
import { isLinkedContent, type ResourceLink } from '../media/resource-link';
import type { ActionResult } from '../result';
import { isContentBlocks } from '../streaming/tool-response';
import type { ContentBlock } from '../streaming/tool-chunk';
import { toWellFormed } from '../text/cut-text';
import { jsonText, resultText } from './result-text';
import { wellFormedJsonText } from './well-formed';

/** One piece of a result as providers with content lists take it: text, or binary content. */
export type ResultPart = { readonly type: 'text'; readonly text: string } | { readonly type: 'binary'; readonly content: BinaryContent };

/**
 * A result as content parts: binary content for a successful result whose value is bytes or `BinaryContent` (or a
 * list of them), or the content blocks of a streamed call mixing text and media; otherwise one text part holding
 * {@link resultText}. Failures are always one text part.
 */
export function resultParts(result: ActionResult<unknown>): ResultPart[] {
  if (result.ok) {
    const value = result.result;
    const binary = toBinaryContent(value);
    if (binary !== undefined) return [{ type: 'binary', content: binary }];
    if (isContentBlocks(value)) return value.map(blockPart);
    if (Array.isArray(value) && value.length > 0 && value.every((item) => toBinaryContent(item) !== undefined)) {
      return value.map((item) => ({ type: 'binary', content: toBinaryContent(item)! }));
    }
  }
  return [{ type: 'text', text: resultText(result) }];
}

/**
 * The resource links of a successful result built by `ActionResult.resourceLink` (or cut by an output budget that
 * saved the full output), in order; empty for any other result. Formats without resource links send only the text.
 */
export function resultLinks(result: ActionResult<unknown>): readonly ResourceLink[] {
  return result.ok && isLinkedContent(result.result) ? result.result.links : [];
}

/** Whether any part is binary (else the provider's plain text channel carries the result). */
export function hasBinary(parts: readonly ResultPart[]): boolean {
  return parts.some((part) => part.type === 'binary');
}

/** The text a model reads for binary content a provider cannot take natively: its base64 JSON form. */
export function binaryText(content: BinaryContent): string {
  return wellFormedJsonText(JSON.stringify(content));
}

/** A file name for binary content: its own, else `<prefix><n>.<extension>` from its media type. */
export function displayName(content: BinaryContent, index: number, extension: string): string {
  return content.name !== undefined && content.name !== '' ? toWellFormed(content.name) : `attachment-${index + 1}.${extension}`;
}

function blockPart(block: ContentBlock): ResultPart {
  if (block.type === 'text') return { type: 'text', text: toWellFormed(block.text) };
  const source = block.source;
  if (source.type === 'base64') {
    const bytes = Buffer.from(source.data, 'base64');
    let content: BinaryContent;
    try {
      content = BinaryContent.from(bytes, isMediaType(source.mediaType) ? source.mediaType : undefined, block.name);
    } catch {
      // A declared image type the bytes contradict: the type is detected instead (a result builder never throws).
      content = BinaryContent.from(bytes, undefined, block.name);
    }
    return { type: 'binary', content };
  }
  if (source.type === 'url') return { type: 'text', text: toWellFormed(JSON.stringify({ type: 'url', url: source.url, mediaType: source.mediaType })) };
  const text = jsonText(source.value);
  return { type: 'text', text: text === undefined ? '(a value with no JSON form)' : wellFormedJsonText(text) };
}
