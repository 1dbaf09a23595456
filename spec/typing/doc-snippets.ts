/**
 * The TypeScript snippets of the user docs (docs/tools.md, docs/providers/*.md) as files to compile against the
 * emitted declarations: each snippet's imports stay at the top, its other lines run inside a function (a top-level
 * `export` dropped), names the library exports are imported from their entry point when the snippet imports nothing
 * itself, and the names a snippet
 * takes from the text around it are declared in CONTEXT (keyed by the snippet's first line). A snippet without an
 * entry compiles with no context: a new snippet that needs one fails until it gets one.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

const CONTEXT: Record<string, string> = {
  "import { Action, Inject, Param, ToolContext, ToolEffect, ToolError, ToolGroup, Tools, type Static } from 'agenttoolkit';":
    'declare class BillingClient { find(id: string): Promise<{ id: string } | undefined>; refund(order: { id: string }, amount: number): Promise<void>; }',
  'tools.action(': [
    "import { Type } from 'typebox';",
    'declare const tools: Tools;',
    'const SearchParams = Type.Object({ query: Type.String(), limit: Type.Optional(Type.Integer()) });',
    'declare class SearchClient { search(query: string, limit: number | undefined, signal: AbortSignal): Promise<string[]>; }',
  ].join('\n'),
  'tools.register(': ['declare const tools: Tools;', 'declare class Billing { constructor(client: unknown); }', 'declare const acmeClient: unknown;', 'declare const globexClient: unknown;'].join('\n'),
  "return ActionResult.image(await workspace.readBytes('shot.png'));            // media type detected: image/png": [
    "import type { Workspace } from 'agenttoolkit/workspace';",
    'declare const workspace: Workspace;',
    'declare const bytes: Uint8Array;',
    'declare const pdfBytes: Buffer;',
    'declare const data: ArrayBuffer;',
  ].join('\n'),
  'const Order = Type.Object({ id: Type.String(), total: Type.Number({ minimum: 0 }) });': [
    "import { Type } from 'typebox';",
    'const OrderParams = Type.Object({ id: Type.String() });',
    'declare const db: { orders: { get(id: string): Promise<{ id: string; total: number }> } };',
  ].join('\n'),
  'const audit: ToolMiddleware = {': 'declare const offline: boolean;',
  'const response = await openai.chat.completions.create({ model, messages, tools: tools.getSchema(ToolSchemaFormat.OPENAI_STRICT) });': [
    "import type OpenAI from 'openai';",
    "import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';",
    'declare const openai: OpenAI;',
    'declare const model: string;',
    'declare const messages: ChatCompletionMessageParam[];',
    'declare const tools: Tools;',
    'declare function askUser(name: string, args: unknown): Promise<boolean>;',
  ].join('\n'),
  'server.server.setRequestHandler(ListToolsRequestSchema, () => mcpListTools(tools));': [
    "import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';",
    'declare const server: McpServer;',
    'declare const tools: Tools;',
    'declare const approve: NonNullable<ToolCallOptions["approve"]>;',
  ].join('\n'),
};

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
 * Each public name with the entry point that exports it (scripts/entry-map.js), such as `agenttoolkit/permissions`, and
 * how to import it (`type X` for a type).
 */
function exportedNames(): Map<string, { entry: string; specifier: string }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository
  const { entryMap } = require('../../scripts/entry-map.js') as { entryMap(): Array<{ entry: string; names: string[]; typeOnly: string[] }> };
  const names = new Map<string, { entry: string; specifier: string }>();
  for (const { entry, names: exported, typeOnly } of entryMap()) {
    for (const name of exported) names.set(name, { entry, specifier: typeOnly.includes(name) ? `type ${name}` : name });
  }
  return names;
}

/**
 * Writes each snippet of the doc pages as a module under `dir` (named after its page and line) with a tsconfig that
 * extends spec/typing's, and returns the file names.
 */
export function writeSnippetFiles(dir: string): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const exported = exportedNames();
  const files: string[] = [];
  for (const page of docPages()) {
    for (const { line, code } of snippets(page)) {
      const codeLines = code.split('\n');
      const imports = codeLines.filter((l) => /^import\s/.test(l));
      // A module-level `export` cannot stay on a declaration moved into the function.
      const body = codeLines.filter((l) => !/^import\s/.test(l)).map((l) => l.replace(/^export (?=(?:abstract |async )?(?:class|function|const|let|interface|type|enum)\b)/, ''));
      const context = CONTEXT[codeLines[0]!] ?? '';
      const contextImports = context.split('\n').filter((l) => /^import\s/.test(l));
      const declarations = context.split('\n').filter((l) => l !== '' && !/^import\s/.test(l));
      const used = new Set([...`${body.join('\n')}\n${declarations.join('\n')}`.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]));
      const own = new Set([...[...imports, ...contextImports].join('\n').matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]));
      const library = new Map<string, string[]>();
      if (imports.length === 0) {
        for (const [name, { entry, specifier }] of exported) if (used.has(name) && !own.has(name)) library.set(entry, [...(library.get(entry) ?? []), specifier]);
      }
      const header = [...imports, ...contextImports, ...[...library].map(([entry, names]) => `import { ${names.join(', ')} } from '${entry}';`)];
      const name = `${page.replace(/[/.]/g, '_')}_${line}.ts`;
      const text = [
        `// ${page}:${line}`,
        ...header,
        ...declarations,
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
