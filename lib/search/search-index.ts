import type MiniSearch from 'minisearch';
import type { QueryCombination, SearchOptions } from 'minisearch';
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

/** BM25 parameters (MiniSearch's defaults, set here because {@link maxTermScore} relies on them): term saturation `k`, length normalisation `b`, and `d`, a floor added to every match (BM25+). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const;

/** How the query words are combined and fields weighted (MiniSearch search options); each word's own options are set by {@link SearchIndex.search}. */
const SEARCH_OPTIONS: SearchOptions = { boost: FIELD_BOOST, combineWith: 'OR', maxFuzzy: 1, bm25: BM25 };

/**
 * A query word is not searched in a long field where more than this share of the tools have it (by field, in
 * {@link FIELDS} order; 1: always searched), once more than {@link COMMON_MIN_TOOLS} tools have it there. Such a word
 * tells few tools apart there (BM25 gives it a low weight) while its matches are most of a search's work: over 10,000
 * tools, `project` is in 29 % of the descriptions and `id` in 56 % of the parameter texts. It is still searched in the
 * name and tags, and in the other long field when it is not common there.
 */
const COMMON_SHARE: readonly number[] = [1, 0.25, 0.05, 1];

/** Below this many tools having a word in a field, the word is always searched there (small registries are fast anyway). */
const COMMON_MIN_TOOLS = 20;

/**
 * A query word is rare in a field when at most this share of the tools have it there: the tools matching a rare word
 * are the candidates of a search's first pass (see {@link SearchIndex.search}).
 */
const RARE_SHARE = 0.02;

/**
 * The most a word can add to one field's score (before the field's weight and the number of matched words, which
 * MiniSearch multiplies the score by) when `matching` of `total` tools have it there: its BM25 IDF times the limit of
 * the rest of the formula (a word repeated without end in a field of length 0: `d + k + 1`).
 */
function maxTermScore(matching: number, total: number): number {
  return Math.log(1 + (total - matching + 0.5) / (matching + 0.5)) * (BM25.d + BM25.k + 1);
}

/** A query word (its index) searched in a field where it is not rare, and the most it can add to a tool's score there. */
interface CommonField {
  readonly word: number;
  readonly field: (typeof FIELDS)[number];
  readonly bound: number;
  /** How many tools have the word in the field. */
  readonly tools: number;
}

/**
 * The common fields whose tools must join the candidates so that a tool matching only the other common fields cannot
 * score `score` or more (none when no such tool can already): the fields of largest bound first. A tool's score is
 * at most the sum of the bounds of the fields it matches, times the number of query words it matches. `undefined`
 * when those fields hold more than half of the common fields' matches: scoring every match is then cheaper.
 */
function fieldsToWiden(common: readonly CommonField[], score: number): CommonField[] | undefined {
  const rest = [...common].sort((a, b) => b.bound - a.bound);
  const budget = common.reduce((sum, entry) => sum + entry.tools, 0) / 2;
  const widen: CommonField[] = [];
  let matches = 0;
  const most = () => rest.reduce((sum, entry) => sum + entry.bound, 0) * new Set(rest.map((entry) => entry.word)).size;
  while (rest.length > 0 && most() >= score) {
    const next = rest.shift()!;
    matches += next.tools;
    if (matches > budget) return undefined;
    widen.push(next);
  }
  return widen;
}

/** Words of five letters or more may match indexed words one edit away. */
const FUZZY_MIN_LENGTH = 5;

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
  /** For each indexed word, how many tools have it in each field ({@link FIELDS} order). */
  private readonly frequency = new Map<string, number[]>();
  /** Each tool's description as indexed (a rendered description may differ later), by id, to count its words out on removal. */
  private readonly descriptions = new Map<number, string>();
  private nextId = 0;

  /**
   * @param rareShare - the share of tools below which a word is rare in a field (default {@link RARE_SHARE}); 0 turns
   *   the candidate pass off, so every search scores every match (the reference the fast path is checked against).
   */
  constructor(private readonly rareShare = RARE_SHARE) {
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
      this.count({ ...document(tool), description: this.descriptions.get(id)! }, -1);
      this.engine.discard(id);
      this.ids.delete(tool);
      this.tools.delete(id);
      this.descriptions.delete(id);
    }
    for (const tool of tools) {
      if (this.ids.has(tool)) continue;
      const id = this.nextId++;
      const text = document(tool);
      this.count(text, 1);
      this.engine.add({ id, ...text });
      this.ids.set(tool, id);
      this.tools.set(id, tool);
      this.descriptions.set(id, text.description);
    }
  }

  /**
   * The tools matching `query` that `accept` keeps, best first; at most `limit`.
   *
   * Each query word is searched as a whole word, in every field where it is not common (see {@link COMMON_SHARE}).
   * A word no tool has is searched differently: as the last word, also as the start of longer words (`pul` finds
   * `pull`); with five letters or more, also one edit away (`kubernets`). When fewer than `limit` tools are found,
   * the search is run again with every word of five letters or more also matching words one edit away.
   *
   * Over many tools most matches come from words many tools have, and MiniSearch scores and sorts every match. So a
   * search first collects the candidates: the tools that have a rare query word (see {@link RARE_SHARE}) in a field,
   * or match a word searched as a prefix or with a typo. It then scores the query over the candidates only
   * (MiniSearch's `boostDocument` gives the others weight 0, which skips them). Any other tool matches common words
   * only, so its score is at most the sum of those words' largest possible scores ({@link maxTermScore}), times their
   * number: when the last of the `limit` best candidates scores above that, they are the best of all tools. Otherwise
   * the tools of the common words' fields of largest bound join the candidates until that holds ({@link fieldsToWiden}),
   * or, when that would take most of the matches (or with fewer than `limit` candidates), every match is scored. The
   * hits and scores are the same as scoring every match.
   */
  search(query: string, limit: number, accept: (tool: Tool) => boolean): IndexHit[] {
    const words: Array<{ word: string; term: string; known: boolean }> = [];
    for (const word of tokenize(query)) {
      const term = normalizeTerm(word);
      if (term !== null) words.push({ word, term, known: this.frequency.has(term) });
    }
    if (words.length === 0) return [];
    const hits = this.run(words, false, limit, accept);
    if (hits.length >= limit || !words.some(({ term, known }) => known && term.length >= FUZZY_MIN_LENGTH)) return hits;
    return this.run(words, true, limit, accept);
  }

  private run(words: ReadonlyArray<{ word: string; term: string; known: boolean }>, fuzzyAll: boolean, limit: number, accept: (tool: Tool) => boolean): IndexHit[] {
    const queries: QueryCombination[] = [];
    const rare: QueryCombination[] = [];
    const common: CommonField[] = [];
    const tools = this.ids.size;
    words.forEach(({ word, term, known }, i) => {
      const leaf = { queries: [word], fields: this.fieldsFor(term), prefix: !known && i === words.length - 1, fuzzy: term.length >= FUZZY_MIN_LENGTH && (fuzzyAll || !known) ? 1 : (false as const) };
      queries.push(leaf);
      const counts = this.frequency.get(term);
      if (counts === undefined || leaf.prefix || leaf.fuzzy !== false) {
        rare.push(leaf);
        return;
      }
      const count = (field: (typeof FIELDS)[number]): number => counts[FIELDS.indexOf(field)]!;
      const rareFields = leaf.fields.filter((field) => count(field) > 0 && count(field) <= this.rareShare * tools);
      if (rareFields.length > 0) rare.push({ ...leaf, fields: rareFields });
      for (const field of leaf.fields) if (count(field) > this.rareShare * tools) common.push({ word: i, field, bound: FIELD_BOOST[field] * maxTermScore(count(field), tools), tools: count(field) });
    });
    if (common.length > 0 && rare.length > 0 && this.rareShare > 0) {
      const candidates = new Set<unknown>();
      const addCandidates = (leaves: QueryCombination[]) => {
        for (const result of this.engine.search({ combineWith: 'OR', queries: leaves })) candidates.add(result.id);
      };
      const restricted = () => this.collect(this.engine.search({ combineWith: 'OR', queries, boostDocument: (id) => (candidates.has(id) ? 1 : 0) }), limit, accept);
      addCandidates(rare);
      if (candidates.size >= limit) {
        const hits = restricted();
        if (hits.length === limit) {
          const widen = fieldsToWiden(common, hits[limit - 1]!.score);
          if (widen?.length === 0) return hits;
          if (widen !== undefined) {
            addCandidates(widen.map(({ word, field }) => ({ ...queries[word]!, fields: [field] })));
            return restricted();
          }
        }
      }
    }
    return this.collect(this.engine.search({ combineWith: 'OR', queries }), limit, accept);
  }

  private collect(results: ReadonlyArray<{ id: unknown; score: number }>, limit: number, accept: (tool: Tool) => boolean): IndexHit[] {
    const hits: IndexHit[] = [];
    for (const result of results) {
      const tool = this.tools.get(result.id as number)!;
      if (accept(tool)) hits.push({ tool, score: result.score });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  /** The fields where `term` is searched: those where it is not common. */
  private fieldsFor(term: string): Array<(typeof FIELDS)[number]> {
    const counts = this.frequency.get(term);
    if (counts === undefined) return [...FIELDS];
    const tools = this.ids.size;
    return FIELDS.filter((_, f) => counts[f]! <= COMMON_MIN_TOOLS || counts[f]! <= COMMON_SHARE[f]! * tools);
  }

  /** Adds `delta` to the tool counts of the words of `document`, each word once per field. */
  private count(document: ToolDocument, delta: number): void {
    FIELDS.forEach((field, f) => {
      const terms = new Set<string>();
      for (const word of tokenize(document[field])) {
        const term = normalizeTerm(word);
        if (term !== null) terms.add(term);
      }
      for (const term of terms) {
        let counts = this.frequency.get(term);
        if (counts === undefined) this.frequency.set(term, (counts = [0, 0, 0, 0]));
        counts[f] = Math.max(0, counts[f]! + delta);
        if (delta < 0 && counts.every((n) => n === 0)) this.frequency.delete(term);
      }
    });
  }
}
