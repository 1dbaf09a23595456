/**
 * `npm run bench`: runs every `*.bench.js` file compiled beside this one, in name order, each printing its own
 * table. Pass name fragments to run a subset: `npm run bench -- core scale cold` (also `shell`, `bash`, `grep`,
 * `skills`, `mcp`, `workspace`, `sandbox`, ...). `BENCH_QUICK=1` gives a smoke run. The method, the targets and the
 * side-by-side comparison with other libraries (`scripts/bench-anchors.sh`) are described in docs/benchmarks.md.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  console.log(`# agenttoolkit benchmarks: node ${process.version}, medians of timed batches`);
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- bench files are compiled CommonJS beside this one
    const mod = require(join(__dirname, file)) as { default: () => Promise<void> };
    await mod.default();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
