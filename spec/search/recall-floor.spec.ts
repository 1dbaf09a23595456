/**
 * Retrieval quality floor on the committed benchmark data (bench/data/tool-search: tool lists of public MCP servers,
 * and queries written before the search was tuned). Not timed; `npm run bench -- search` reports the figures.
 */
import { ToolSearch } from '../../lib/search';
import { SearchIndex, toolDocument } from '../../lib/search/search-index';
import { datasetQueries, datasetRegistry, datasetTools, recallAt } from '../../bench/data/tool-search/dataset';

describe('tool search recall on the committed dataset', () => {
  const { tools } = datasetRegistry();
  const search = new ToolSearch(tools, { maxResults: 10 });
  const queries = datasetQueries();

  it('has at least 500 tools and 100 queries, each expecting tools of the corpus', () => {
    expect(datasetTools().length).toBeGreaterThanOrEqual(500);
    expect(tools.list().length).toBe(datasetTools().length);
    expect(queries.length).toBeGreaterThanOrEqual(100);
    for (const q of queries) for (const name of q.expected) expect(tools.get(name)?.name).toBe(name);
  });

  it('recall@5 is at least 0.9', () => {
    const { recall, misses } = recallAt(search, queries, 5);
    expect({ recall: recall >= 0.9, misses: misses.length <= queries.length * 0.1 }).toEqual({ recall: true, misses: true });
  });

  it('the candidate pass changes no hit nor score: every query at every limit, against a search that scores every match', () => {
    const document = (tool: Parameters<typeof toolDocument>[0]) => toolDocument(tool, tool.resolveDescription(tools.context));
    const fast = new SearchIndex();
    const exhaustive = new SearchIndex(0);
    fast.sync(tools.list(), document);
    exhaustive.sync(tools.list(), document);
    const accept = () => true;
    const seen = (tool: { name: string }) => !tool.name.startsWith('git');
    for (const q of queries) {
      for (const limit of [1, 5, 10]) {
        expect({ query: q.query, limit, hits: fast.search(q.query, limit, accept) }).toEqual({ query: q.query, limit, hits: exhaustive.search(q.query, limit, accept) });
      }
      expect({ query: q.query, hits: fast.search(q.query, 5, seen) }).toEqual({ query: q.query, hits: exhaustive.search(q.query, 5, seen) });
    }
  });
});
