import { LinkedContent, type ResourceLinkInit } from '../../media/resource-link';

/**
 * A remote result made of text and `resource_link` blocks only, with at least one link, as the `LinkedContent` that
 * `ActionResult.resourceLink` carries (the texts joined by newlines, each link with its `uri`, `name` and the optional
 * `title`, `description`, `mimeType` and `size` it has): served again over MCP, the links stay links. Undefined for
 * any other content (a link without a string `uri` included), which the caller maps as before.
 */
export function linkedOutput(content: ReadonlyArray<Record<string, unknown>>): LinkedContent | undefined {
  const texts: string[] = [];
  const links: ResourceLinkInit[] = [];
  for (const item of content) {
    if (item.type === 'text') texts.push(String(item.text ?? ''));
    else if (item.type === 'resource_link' && typeof item.uri === 'string' && item.uri !== '') links.push(linkInit(item, item.uri));
    else return undefined;
  }
  return links.length === 0 ? undefined : new LinkedContent(texts.join('\n'), links);
}

function linkInit(item: Record<string, unknown>, uri: string): ResourceLinkInit {
  const text = (key: string) => (typeof item[key] === 'string' ? { [key]: item[key] as string } : {});
  const size = typeof item.size === 'number' && Number.isFinite(item.size) && item.size >= 0 ? { size: item.size } : {};
  const name = typeof item.name === 'string' && item.name !== '' ? item.name : uri;
  return { uri, name, ...text('title'), ...text('description'), ...text('mimeType'), ...size };
}
