/**
 * Tool search benchmarks: retrieval quality (recall@1, @5, @10 of the committed queries over the committed corpus of
 * MCP server tools, target recall@5 >= 0.9) and search latency over 10,000 tools (the corpus and generated variants
 * of it; target median < 1 ms per search, read on the individually timed searches; the batch figure, an average
 * over consecutive queries, is held to the same target). `npm run bench -- search`.
 */
import { ToolSearch } from '../lib/search';
import { datasetQueries, datasetRegistry, recallAt } from './data/tool-search/dataset';
import { formatNs, measure, measureOnce, printTable } from './harness';

const SCALE = 10_000;
const met = (ok: boolean, target: string) => (ok ? `met (${target})` : `NOT met (${target})`);

export default async function (): Promise<void> {
  const queries = datasetQueries();
  const corpus = datasetRegistry();
  const search = new ToolSearch(corpus.tools, { maxResults: 10 });
  const [r1, r5, r10] = [1, 5, 10].map((k) => recallAt(search, queries, k).recall);
  const pct = (r: number) => `${(r * 100).toFixed(1)} %`;
  printTable(`Tool search: retrieval over ${corpus.tools.list().length} MCP server tools, ${queries.length} queries`, ['measure', 'value', 'target'], [
    ['recall@1', pct(r1!), '-'],
    ['recall@5', pct(r5!), met(r5! >= 0.9, '>= 90 %')],
    ['recall@10', pct(r10!), '-'],
  ]);

  const large = datasetRegistry(Math.ceil(SCALE / corpus.tools.list().length), SCALE);
  const big = new ToolSearch(large.tools);
  const buildMs = await measureOnce(() => new ToolSearch(large.tools).search('warm up the index'), 3);
  big.search('warm up the index');
  const texts = queries.map((q) => q.query);
  let added = 0;
  const updateMs = await measureOnce(() => {
    large.tools.action({ name: `added_tool_${added++}`, description: 'A tool registered after the index was built.', params: { type: 'object', properties: {} } as never }, () => 'ok');
    return big.search('update the index');
  }, 3);
  const latency = await measure(`search over ${SCALE} tools`, (i) => big.search(texts[i % texts.length]!));
  const session = big.session(large.tools.list().slice(100, 105).map((tool) => tool.name));
  const listing = await measure('session listing (getSchema, 5 discovered)', () => large.tools.getSchema({ id: 'names', render: (tool) => tool.name }, undefined, session), { batches: 10 });
  printTable(`Tool search: latency over ${SCALE} tools (3 more registered for the index-update row)`, ['operation', 'median', 'target'], [
    [`search, each timed (the ${texts.length} queries in turn; p99 ${formatNs(latency.callP99Ns)})`, formatNs(latency.callP50Ns), met(latency.callP50Ns < 1e6, 'median < 1 ms')],
    [`search, batches of ${latency.itersPerBatch} consecutive queries (time per search)`, formatNs(latency.medianNs), met(latency.medianNs < 1e6, '< 1 ms')],
    ['first search (index build)', formatNs(buildMs * 1e6), '-'],
    ['first search after one more registration (index update)', formatNs(updateMs * 1e6), '-'],
    ['listing with a session (5 discovered)', formatNs(listing.medianNs), '-'],
  ]);
}
