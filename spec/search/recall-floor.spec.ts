/**
 * Retrieval quality floor on the committed benchmark data (bench/data/tool-search: tool lists of public MCP servers,
 * and queries written before the search was tuned). Not timed; `npm run bench -- search` reports the figures.
 */
import { ToolSearch } from '../../lib/search';
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
});
