import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A link of a markdown page: its target as written and the line it is on. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** The text of a page without fenced code blocks and inline code (links there are examples, not links). */
function prose(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opening = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      return '';
    }
    if (opening !== undefined) {
      fence = opening;
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** Every inline link `[text](target)` and image `![alt](target)` of a page, outside code. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  prose(text).forEach((line, index) => {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: index + 1 });
  });
  return links;
}

/**
 * The anchors of a page's headings as GitHub renders them: lower case, punctuation other than `-` and `_` removed,
 * each space a `-`, a repeated heading suffixed `-1`, `-2`, ...; plus explicit `<a id="...">` / `name="..."` anchors.
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const line of prose(text.replace(/`/g, ''))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = heading
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      anchors.add(seen === 0 ? base : `${base}-${seen}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** Every markdown file under `dir`, recursively. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * The broken relative links of a page, as `page:line target (why)`: a missing file or folder, or an anchor that no
 * heading of the target page (or of the page itself, for `#anchor`) produces. Links with a scheme (`https:`,
 * `mailto:`) are not checked.
 */
export function brokenLinks(page: string, root: string): string[] {
  const text = readFileSync(page, 'utf8');
  const broken: string[] = [];
  for (const { target, line } of markdownLinks(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const file = pathPart === '' ? page : resolve(dirname(page), decodeURIComponent(pathPart));
    const where = `${relative(root, page)}:${line} ${target}`;
    if (!existsSync(file)) {
      broken.push(`${where} (no such file)`);
    } else if (anchor !== undefined && anchor !== '') {
      if (!statSync(file).isFile() || !file.endsWith('.md')) broken.push(`${where} (an anchor into something that is not a markdown page)`);
      else if (!headingAnchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${where} (no heading makes #${anchor})`);
    }
  }
  return broken;
}
