#!/usr/bin/env bash
# Runs ../shared/bench-anchors (the peers' execute paths on one workload) with agenttoolkit added as one more adapter,
# so every figure comes from the same run. Usage: scripts/bench-anchors.sh [ADAPTERS...]  (BENCH_QUICK=1 for a smoke run)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
anchors="${ANCHORS_DIR:-$here/../shared/bench-anchors}"
work="${ANCHORS_WORK:-/tmp/agenttoolkit-bench-anchors}"
mkdir -p "$work"
cp -r "$anchors/." "$work/"
chmod -R u+w "$work"
cp "$here/bench/anchors/agenttoolkit.mjs" "$work/adapters/agenttoolkit.mjs"
(cd "$here" && npm run build >/dev/null)
export AGENTTOOLKIT_DIR="$here"
cd "$work"
ADAPTERS="${*:-baseline agenttoolkit langchain ai-sdk openai-agents mastra mcp}" ./run.sh
