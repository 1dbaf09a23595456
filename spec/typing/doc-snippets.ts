/**
 * The TypeScript snippets of the user docs (docs/tools.md, docs/providers/*.md) as files to compile against the
 * emitted declarations. Each snippet is a complete file (spec/tooling/docs-snippets.spec.ts checks that against the
 * sources); here its imports stay at the top and its other lines run inside a function (a top-level `export` dropped),
 * so that top-level `await` compiles in these CommonJS files.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** The pages whose snippets are compiled. */
export function docPages(): string[] {
  return ['docs/tools.md', ...readdirSync(join(root, 'docs', 'providers')).filter((f) => f.endsWith('.md')).map((f) => `docs/providers/${f}`)];
}

/** Every ```ts block of a page, with its first line's number. */
export function snippets(page: string): Array<{ line: number; code: string }> {
  const out: Array<{ line: number; code: string }> = [];
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    out.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return out;
}

/**
 * Writes each snippet of the doc pages as a module under `dir` (named after its page and line) with a tsconfig that
 * extends spec/typing's, and returns the file names.
 */
export function writeSnippetFiles(dir: string): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const page of docPages()) {
    for (const { line, code } of snippets(page)) {
      const codeLines = code.split('\n');
      const imports = codeLines.filter((l) => /^import\s/.test(l));
      // A module-level `export` cannot stay on a declaration moved into the function.
      const body = codeLines.filter((l) => !/^import\s/.test(l)).map((l) => l.replace(/^export (?=(?:abstract |async )?(?:class|function|const|let|interface|type|enum)\b)/, ''));
      const name = `${page.replace(/[/.]/g, '_')}_${line}.ts`;
      const text = [
        `// ${page}:${line}`,
        ...imports,
        'export async function snippet() {',
        ...body,
        '}',
        '',
      ].join('\n');
      writeFileSync(join(dir, name), text);
      files.push(name);
    }
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../spec/typing/tsconfig.json', include: ['*.ts'] }, null, 2));
  return files;
}
