/**
 * The TypeScript snippets of README.md and docs/**\/*.md (every ```ts or ```typescript block), with the marker a page
 * puts on the line before a block that cannot be checked in full. docs/README.md ("Snippets") documents the markers:
 *
 * - `<!-- snippet continues -->`: the block continues the page's previous block (a walkthrough); the two are checked
 *   as one file.
 * - `<!-- snippet no-run: <why> -->`: the block compiles but does not run offline (it calls a provider's API, needs a
 *   server or an image the page names). The reason is required.
 * - `<!-- snippet needs-bwrap -->`, `<!-- snippet needs-docker -->`: the block runs where that engine is available,
 *   and is skipped with that reason elsewhere.
 * - `<!-- snippet fragment: <why> -->`: the block is not a file at all (a signature, lines of a method body); it is
 *   neither compiled nor run. The reason is required, and the marker is for the rare case no complete file can show.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

/** What a marker says about a snippet: `check` for a block with no marker. */
export type SnippetKind = 'check' | 'continues' | 'no-run' | 'needs-bwrap' | 'needs-docker' | 'fragment';

/** One block: its page (relative to the repository), the markdown line of its first code line, its code and marker. */
export interface MarkdownSnippet {
  readonly page: string;
  readonly line: number;
  readonly code: string;
  readonly kind: SnippetKind;
  readonly reason?: string;
}

const MARKER = /^<!-- snippet (continues|no-run|needs-bwrap|needs-docker|fragment)(?:: (.+?))? -->$/;
const NEEDS_REASON = new Set<SnippetKind>(['no-run', 'fragment']);

/** README.md and every .md under docs/, in a stable order. */
export function markdownPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages;
}

/**
 * The TypeScript blocks of a page. Throws for a malformed marker (an unknown kind, a missing reason) or a block left
 * open, so a typo cannot silently turn a check off.
 */
export function markdownSnippets(page: string, text = readFileSync(join(ROOT, page), 'utf8')): MarkdownSnippet[] {
  const lines = text.split('\n');
  const out: MarkdownSnippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('<!-- snippet') && !MARKER.test(line)) throw new Error(`${page}:${i + 1}: malformed snippet marker ${JSON.stringify(line)}: see docs/README.md, "Snippets"`);
    if (!/^```(ts|typescript)\s*$/.test(line)) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${page}:${i + 1}: the code block is never closed`);
    const marker = MARKER.exec(lines[i - 1] ?? '');
    const kind = (marker?.[1] ?? 'check') as SnippetKind;
    const reason = marker?.[2];
    if (NEEDS_REASON.has(kind) && reason === undefined) throw new Error(`${page}:${i}: a "${kind}" marker says why: <!-- snippet ${kind}: <why> -->`);
    if (kind === 'continues' && !out.some((s) => s.kind !== 'fragment')) throw new Error(`${page}:${i}: "continues" needs an earlier block on the page`);
    out.push({ page, line: i + 2, code: lines.slice(i + 1, end).join('\n'), kind, ...(reason === undefined ? {} : { reason }) });
    i = end;
  }
  return out;
}

/**
 * A snippet as the file it is checked as: a `continues` block after the blocks it continues (back to the first block
 * that is not a continuation), with the markdown line of each part, so an error maps back to the page.
 */
export interface SnippetFile {
  readonly snippet: MarkdownSnippet;
  readonly source: string;
  /** The markdown line of each source line. */
  readonly lines: readonly number[];
}

/** The files to check: one per block, fragments left out. */
export function snippetFiles(snippets: readonly MarkdownSnippet[]): SnippetFile[] {
  const files: SnippetFile[] = [];
  const checked = snippets.filter((s) => s.kind !== 'fragment');
  checked.forEach((snippet, index) => {
    let first = index;
    while (checked[first]!.kind === 'continues' && first > 0 && checked[first - 1]!.page === snippet.page) first--;
    const parts = checked.slice(first, index + 1);
    const source = parts.map((p) => p.code).join('\n');
    const lines = parts.flatMap((p) => p.code.split('\n').map((_, n) => p.line + n));
    files.push({ snippet, source, lines });
  });
  return files;
}
