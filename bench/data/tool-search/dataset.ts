/**
 * The tool-search benchmark corpus (tools.json, built by scripts/build-tool-search-data.mjs from the tool lists of
 * public MCP servers) and its queries (queries.json), loaded into a registry. Shared by bench/search.bench.ts and the
 * recall floor spec.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tools } from '../../../lib';
import type { ToolSearch } from '../../../lib/search';

export interface DatasetTool {
  readonly server: string;
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface DatasetQuery {
  readonly query: string;
  readonly expected: readonly string[];
}

const DIR = join(__dirname, '../../../../bench/data/tool-search');
const SOURCE_DIR = join(__dirname);

function read<T>(file: string): T {
  for (const dir of [SOURCE_DIR, DIR]) {
    try {
      return JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
    } catch {
      // compiled copies (build/bench/...) read the JSON from the source tree
    }
  }
  return JSON.parse(readFileSync(join(process.cwd(), 'bench/data/tool-search', file), 'utf8')) as T;
}

export const datasetTools = (): DatasetTool[] => read<DatasetTool[]>('tools.json');
export const datasetQueries = (): DatasetQuery[] => read<{ queries: DatasetQuery[] }>('queries.json').queries;

const quiet = { warn: () => undefined, error: () => undefined };

/**
 * A registry holding the corpus: each tool under its dataset name, in its server's group, its input schema as given
 * (a schema the registry refuses is replaced by an empty object schema, so the definition still counts; its
 * parameters are then not searched). `copies` > 1 adds variants (`<name>_c<k>`) up to that many times the corpus.
 */
export function datasetRegistry(copies = 1, limit = Number.POSITIVE_INFINITY): { tools: Tools; refusedSchemas: number } {
  const tools = new Tools({ logger: quiet });
  let refusedSchemas = 0;
  let count = 0;
  const corpus = datasetTools();
  for (let k = 0; k < copies; k++) {
    for (const entry of corpus) {
      if (count >= limit) return { tools, refusedSchemas };
      const name = k === 0 ? entry.name : `${entry.name.slice(0, 58)}_c${k}`;
      const description = k === 0 ? entry.description : `${entry.description} (copy ${k} for tenant ${k})`;
      try {
        tools.action({ name, description, params: entry.inputSchema as never, group: entry.server }, () => 'ok');
      } catch {
        if (k === 0) refusedSchemas++;
        tools.action({ name, description, params: { type: 'object', properties: {} } as never, group: entry.server }, () => 'ok');
      }
      count++;
    }
  }
  return { tools, refusedSchemas };
}

/** recall@k: the share of queries whose top `k` hits include one of their expected tools. */
export function recallAt(search: ToolSearch, queries: readonly DatasetQuery[], k: number): { recall: number; misses: Array<{ query: string; expected: readonly string[]; got: string[] }> } {
  const misses: Array<{ query: string; expected: readonly string[]; got: string[] }> = [];
  for (const q of queries) {
    const got = search.search(q.query, { limit: k }).map((hit) => hit.tool.name);
    if (!got.some((name) => q.expected.includes(name))) misses.push({ query: q.query, expected: q.expected, got });
  }
  return { recall: (queries.length - misses.length) / queries.length, misses };
}
