import type MiniSearch from 'minisearch';
import type { SearchOptions } from 'minisearch';
import type { JsonSchema } from '../schema/json-schema';
import type { Tool } from '../tool/tool';

/** The text of one tool that the search reads: each field is weighted on its own (see {@link FIELD_BOOST}). */
export interface ToolDocument {
  readonly name: string;
  readonly description: string;
  readonly parameters: string;
  readonly tags: string;
}

const FIELDS = ['name', 'description', 'parameters', 'tags'] as const;

/** Field weights: a word of the tool's name says more about what it does than a word of a parameter's description. */
const FIELD_BOOST: Readonly<Record<(typeof FIELDS)[number], number>> = { name: 3, description: 1, parameters: 0.5, tags: 1.5 };

/** Words too common in tool definitions and queries to tell tools apart. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by can do for from get has have how i in into is it its me my of on or that the this to use used uses using what when which with you your'.split(' '),
);

const WORD_CHAR = /[\p{L}\p{N}]/u;
const UPPER = /\p{Lu}/u;

/** 0: not part of a word; 1: lower case letter or digit (or a letter without case); 2: upper case letter. */
function charKind(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) {
    if (code >= 97 && code <= 122) return 1;
    if (code >= 65 && code <= 90) return 2;
    return code >= 48 && code <= 57 ? 1 : 0;
  }
  const char = text[i]!;
  if (!WORD_CHAR.test(char)) return 0;
  return UPPER.test(char) ? 2 : 1;
}

/**
 * The words of a text: split at anything that is not a letter or a digit and at camelCase humps (`getPullRequest`
 * gives `get`, `Pull`, `Request`; `HTTPServer` gives `HTTP`, `Server`). One pass over the text.
 */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  let previous = 0;
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? charKind(text, i) : 0;
    if (kind === 0) {
      if (start >= 0) words.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (kind === 2 && (previous === 1 || (previous === 2 && i + 1 < text.length && charKind(text, i + 1) === 1 && isLetter(text, i + 1)))) {
      words.push(text.slice(start, i));
      start = i;
    }
    previous = kind;
  }
  return words;
}

function isLetter(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code < 48 || code > 57;
}

/** A word as indexed and searched: lower case, a plural `s` dropped (`files` finds `file`); stop words give `null`. */
export function normalizeTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (STOP_WORDS.has(word)) return null;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** The names and descriptions of a schema's properties, nested objects and array items included (to `depth` levels). */
function parameterText(schema: JsonSchema | undefined, depth: number, out: string[]): void {
  if (schema === null || typeof schema !== 'object' || depth < 0) return;
  const node = schema as { properties?: unknown; items?: unknown };
  if (node.properties !== null && typeof node.properties === 'object') {
    for (const [name, property] of Object.entries(node.properties as Record<string, JsonSchema>)) {
      out.push(name);
      const description = (property as { description?: unknown } | null)?.description;
      if (typeof description === 'string') out.push(description);
      parameterText(property, depth - 1, out);
    }
  }
  if (node.items !== null && typeof node.items === 'object' && !Array.isArray(node.items)) parameterText(node.items as JsonSchema, depth - 1, out);
}

/** Parameter text past this many characters is not indexed: the first parameters say what a tool is about, and a huge schema must not make the index slow. */
const PARAMETER_CHARS = 2000;

function cutParameters(parts: string[]): string {
  const text = parts.join(' ');
  return text.length <= PARAMETER_CHARS ? text : text.slice(0, text.lastIndexOf(' ', PARAMETER_CHARS) + 1 || PARAMETER_CHARS);
}

/** The searchable text of a tool; `description` is its description as rendered for the registry's active context. */
export function toolDocument(tool: Tool, description: string): ToolDocument {
  const parameters: string[] = [];
  parameterText(tool.parameters, 2, parameters);
  return { name: tool.name, description, parameters: cutParameters(parameters), tags: [...tool.tags, tool.group].join(' ') };
}

/** One ranked hit: a tool and its score (higher is better). */
export interface IndexHit {
  readonly tool: Tool;
  readonly score: number;
}

/** A tool's searchable text as MiniSearch indexes it, under the index's own id of the tool. */
interface IndexedDocument extends ToolDocument {
  readonly id: number;
}

/**
 * How a query is matched (MiniSearch search options): any query word may match (`OR`), each field at its weight; the
 * last word also matches longer indexed words that start with it (`pul` finds `pull`), and a word of five letters or
 * more also matches indexed words one edit away (`kubernets`), each at MiniSearch's lower weight for such matches.
 */
const SEARCH_OPTIONS: SearchOptions = {
  boost: FIELD_BOOST,
  combineWith: 'OR',
  prefix: (_term, i, terms) => i === terms.length - 1,
  fuzzy: (term) => (term.length >= 5 ? 1 : false),
  maxFuzzy: 1,
};

let engine: typeof MiniSearch | undefined;

/** MiniSearch, required on the first index build: importing agenttoolkit/search does not load it. */
function miniSearch(): typeof MiniSearch {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (engine ??= require('minisearch') as typeof MiniSearch);
}

/**
 * A full-text index over tools, backed by MiniSearch (https://lucaong.github.io/minisearch/): BM25 ranking
 * (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) with per-field weights,
 * over the words {@link tokenize} and {@link normalizeTerm} make of each tool's {@link ToolDocument}. It follows a
 * registry by {@link sync}: only tools added since the last sync are read, and removed ones are discarded.
 */
export class SearchIndex {
  private readonly engine: MiniSearch<IndexedDocument>;
  private readonly ids = new Map<Tool, number>();
  private readonly tools = new Map<number, Tool>();
  private nextId = 0;

  constructor() {
    const MiniSearchEngine = miniSearch();
    const analysis = { tokenize, processTerm: (term: string) => normalizeTerm(term) };
    this.engine = new MiniSearchEngine<IndexedDocument>({ fields: [...FIELDS], storeFields: [], ...analysis, searchOptions: { ...analysis, ...SEARCH_OPTIONS } });
  }

  /**
   * Makes the index hold exactly `tools`: indexes the ones it does not hold yet (`document` gives their text) and
   * discards the ones no longer there.
   */
  sync(tools: readonly Tool[], document: (tool: Tool) => ToolDocument): void {
    const current = new Set(tools);
    for (const [tool, id] of this.ids) {
      if (current.has(tool)) continue;
      this.engine.discard(id);
      this.ids.delete(tool);
      this.tools.delete(id);
    }
    for (const tool of tools) {
      if (this.ids.has(tool)) continue;
      const id = this.nextId++;
      this.engine.add({ id, ...document(tool) });
      this.ids.set(tool, id);
      this.tools.set(id, tool);
    }
  }

  /** The tools matching `query` that `accept` keeps, best first; at most `limit`. */
  search(query: string, limit: number, accept: (tool: Tool) => boolean): IndexHit[] {
    const hits: IndexHit[] = [];
    for (const result of this.engine.search(query)) {
      const tool = this.tools.get(result.id as number)!;
      if (accept(tool)) hits.push({ tool, score: result.score });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}
