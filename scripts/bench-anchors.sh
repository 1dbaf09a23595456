#!/usr/bin/env bash
# Runs ../shared/bench-anchors (the peers' execute paths on one workload) with agenttoolkit added as one more adapter,
# so every figure comes from the same run. Usage: scripts/bench-anchors.sh [ADAPTERS...]  (BENCH_QUICK=1 for a smoke run,
# COLD_ONLY=1 for the cold-start table alone). See docs/benchmarks.md.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
anchors="${ANCHORS_DIR:-$here/../shared/bench-anchors}"
work="${ANCHORS_WORK:-/tmp/agenttoolkit-bench-anchors}"
mkdir -p "$work"
cp -r "$anchors/." "$work/"
chmod -R u+w "$work"
cp "$here"/bench/anchors/*.mjs "$work/adapters/"
(cd "$here" && npm run build >/dev/null)
export AGENTTOOLKIT_DIR="$here"
cd "$work"
if [ "${COLD_ONLY:-}" = 1 ]; then
  # Cold start only (a few seconds per run): COLD_ONLY=1 scripts/bench-anchors.sh baseline agenttoolkit ai-sdk mastra
  [ -d node_modules ] || npm ci --no-audit --no-fund
  out="results/cold-$(date -u +%Y%m%dT%H%M%SZ).json"
  mkdir -p results
  # shellcheck disable=SC2086
  node cold.mjs "$out" ${*:-baseline agenttoolkit agenttoolkit-user-typebox agenttoolkit-user-typebox1 agenttoolkit-json ai-sdk mastra}
  exit 0
fi
ADAPTERS="${*:-baseline agenttoolkit agenttoolkit-user-typebox agenttoolkit-user-typebox1 agenttoolkit-json langchain ai-sdk openai-agents mastra mcp}" ./run.sh
