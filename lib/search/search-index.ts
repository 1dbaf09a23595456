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

/** BM25 term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;
/** A query word matches longer indexed words that start with it (`deploy` finds `deployment`) at this weight. */
const PREFIX_WEIGHT = 0.6;
/** At most this many longer words per query word, so a short prefix cannot make a search slow. */
const MAX_PREFIX_TERMS = 40;
/** A query word the index does not hold matches indexed words one edit away (`kubernets`) at this weight. */
const FUZZY_WEIGHT = 0.4;

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

function terms(text: string): string[] {
  return tokenize(text).flatMap((word) => normalizeTerm(word) ?? []);
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

/** A document's indexed words, one list per field (name, description, parameters, tags). */
export type DocumentTerms = ReadonlyArray<readonly string[]>;

/** The indexed words of a document, per field: computed once per tool and kept, so a rebuild reads only new tools. */
export function documentTerms(document: ToolDocument): DocumentTerms {
  return FIELDS.map((field) => terms(document[field]));
}

/** One ranked hit: the position of the document in the indexed list and its score (higher is better). */
export interface IndexHit {
  readonly id: number;
  readonly score: number;
}

interface Postings {
  readonly docs: Int32Array;
  readonly weights: Float32Array;
}

/**
 * A BM25F full-text index over tool documents (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25
 * and Beyond", 2009): per-field weights and length normalisation, scores computed once at build time so a search only
 * adds precomputed weights. A query word also matches longer indexed words that start with it, and, when the index
 * does not hold it, words one edit away (a typo), each at a lower weight.
 */
export class SearchIndex {
  private readonly postings = new Map<string, Postings>();
  /** Every indexed word, sorted, for prefix and typo look-ups. */
  private readonly vocabulary: string[];
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;

  /** @param documents - each document's words per field, in {@link documentTerms} order (see there). */
  constructor(documents: ReadonlyArray<DocumentTerms>) {
    const count = documents.length;
    const perField = FIELDS.map((_, f) => documents.map((doc) => doc[f]!));
    const averages = perField.map((lists) => Math.max(1, lists.reduce((sum, list) => sum + list.length, 0) / Math.max(1, count)));
    // BM25F: each field's term frequency weighted and length-normalised, then summed into one pseudo frequency.
    const building = new Map<string, { docs: number[]; tfs: number[] }>();
    const local = new Map<string, number>();
    for (let doc = 0; doc < count; doc++) {
      local.clear();
      for (let f = 0; f < FIELDS.length; f++) {
        const list = perField[f]![doc]!;
        const weight = FIELD_BOOST[FIELDS[f]!] / (1 - B + (B * list.length) / averages[f]!);
        for (const term of list) local.set(term, (local.get(term) ?? 0) + weight);
      }
      for (const [term, tf] of local) {
        let entry = building.get(term);
        if (entry === undefined) building.set(term, (entry = { docs: [], tfs: [] }));
        entry.docs.push(doc);
        entry.tfs.push(tf);
      }
    }
    for (const [term, { docs, tfs }] of building) {
      const idf = Math.log(1 + (count - docs.length + 0.5) / (docs.length + 0.5));
      this.postings.set(term, { docs: Int32Array.from(docs), weights: Float32Array.from(tfs, (tf) => (idf * tf * (K1 + 1)) / (tf + K1)) });
    }
    this.vocabulary = [...this.postings.keys()].sort();
    this.scores = new Float64Array(count);
    this.touched = new Int32Array(count);
  }

  /** The documents matching any word of `query`, best first (ties in document order), that `accept` keeps; at most `limit`. */
  search(query: string, limit: number, accept: (id: number) => boolean): IndexHit[] {
    const scores = this.scores;
    let touchedCount = 0;
    const add = (postings: Postings, factor: number) => {
      const { docs, weights } = postings;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        if (scores[doc] === 0) this.touched[touchedCount++] = doc;
        scores[doc] = scores[doc]! + weights[i]! * factor;
      }
    };
    for (const term of new Set(terms(query))) {
      const exact = this.postings.get(term);
      if (exact !== undefined) add(exact, 1);
      const longer = term.length >= 3 ? this.withPrefix(term) : [];
      for (const word of longer) add(this.postings.get(word)!, PREFIX_WEIGHT);
      if (exact === undefined && longer.length === 0 && term.length >= 5) for (const word of this.oneEditAway(term)) add(this.postings.get(word)!, FUZZY_WEIGHT);
    }
    const hits = this.best(touchedCount, limit, accept);
    for (let i = 0; i < touchedCount; i++) scores[this.touched[i]!] = 0;
    return hits;
  }

  /**
   * The `limit` best accepted documents among the first `touchedCount` of `touched`: a bounded selection of the best
   * few (a full sort only when `accept` refuses too many of them).
   */
  private best(touchedCount: number, limit: number, accept: (id: number) => boolean): IndexHit[] {
    const scores = this.scores;
    const before = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
    let window = Math.min(touchedCount, limit * 4 + 16);
    for (;;) {
      const top: number[] = [];
      for (let i = 0; i < touchedCount; i++) {
        const id = this.touched[i]!;
        if (top.length === window && !before(id, top[window - 1]!)) continue;
        let at = top.length;
        while (at > 0 && before(id, top[at - 1]!)) at--;
        top.splice(at, 0, id);
        if (top.length > window) top.pop();
      }
      const hits: IndexHit[] = [];
      for (const id of top) {
        if (hits.length >= limit) break;
        if (accept(id)) hits.push({ id, score: scores[id]! });
      }
      if (hits.length >= limit || window >= touchedCount) return hits;
      window = Math.min(touchedCount, window * 8);
    }
  }

  /** Indexed words that start with `prefix` and are longer, at most {@link MAX_PREFIX_TERMS}. */
  private withPrefix(prefix: string): string[] {
    const vocabulary = this.vocabulary;
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (vocabulary[middle]! <= prefix) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let i = low; i < vocabulary.length && found.length < MAX_PREFIX_TERMS && vocabulary[i]!.startsWith(prefix); i++) found.push(vocabulary[i]!);
    return found;
  }

  /** Indexed words one insertion, deletion, substitution or swap of neighbours away from `word`. */
  private oneEditAway(word: string): string[] {
    return this.vocabulary.filter((candidate) => Math.abs(candidate.length - word.length) <= 1 && withinOneEdit(word, candidate));
  }
}

/** Whether `a` and `b` differ by at most one insertion, deletion, substitution or transposition of neighbours. */
function withinOneEdit(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.slice(i) === b.slice(i + 1);
}
