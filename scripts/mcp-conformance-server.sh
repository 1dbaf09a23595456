#!/usr/bin/env bash
# Runs the MCP project's conformance suite (@modelcontextprotocol/conformance) against agenttoolkit's MCP server, over
# Streamable HTTP on loopback, three times:
#   1. suite 0.1.16, every server scenario, against everything-server.ts (serveTools on an SDK 1.x McpServer);
#   2. suite 0.2.0-alpha.12, `--requirements 2026-07-28`, against everything-server-v2.ts (serveTools on an SDK v2
#      McpServer, serveHttp's stateless 2026-07-28 side);
#   3. the same suite, `--requirements 2025-11-25`, against the same v2 endpoint (serveHttp's legacy sessions).
# Each run has its own expected-failures baseline under spec/mcp/conformance/server/ and exits non-zero when a
# scenario fails that it does not list, or when a listed one passes (the baselines only shrink). The suite needs
# Node 22: both suite versions and a Node 22 binary are installed outside the project (scripts/mcp-conformance-suite.sh),
# under $MCP_CONFORMANCE_DIR (default /opt/mcp-conformance) and $MCP_CONFORMANCE_NEXT_DIR (default
# /opt/mcp-conformance-next), so the library's own npm scripts keep the project's Node. Extra arguments go to every run.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=mcp-conformance-suite.sh
source scripts/mcp-conformance-suite.sh

NODE22_VERSION=22.23.5
conformance_suite "${MCP_CONFORMANCE_DIR:-/opt/mcp-conformance}" 0.1.16 "$NODE22_VERSION"
NODE22_V1="$NODE22" SUITE_V1="$SUITE"
conformance_suite "${MCP_CONFORMANCE_NEXT_DIR:-/opt/mcp-conformance-next}" 0.2.0-alpha.12 "$NODE22_VERSION"
NODE22_NEXT="$NODE22" SUITE_NEXT="$SUITE"

npx tsc -p spec/mcp/conformance/server/tsconfig.json
BUILT=build/mcp-conformance/spec/mcp/conformance/server
BASELINES="$PWD/spec/mcp/conformance/server"
OUT="$(mktemp -d /tmp/agenttoolkit-mcp-conformance.XXXXXX)"
SERVERS=()
trap 'for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT

# Starts `node $1 0` in the background; it prints its endpoint URL, which goes to $OUT/$2.url.
start() {
  node "$BUILT/$1" 0 >"$OUT/$2.url" 2>"$OUT/$2.log" &
  SERVERS+=($!)
}
url() {
  for _ in $(seq 1 100); do [ -s "$OUT/$1.url" ] && break; sleep 0.1; done
  head -n1 "$OUT/$1.url" | grep . || { echo "the conformance server $1 did not start:" >&2; cat "$OUT/$1.log" >&2; exit 1; }
}
start everything-server.js v1
start everything-server-v2.js v2
URL_V1="$(url v1)"
URL_V2="$(url v2)"

# The DNS-rebinding scenario needs a localhost URL: the endpoints are on 127.0.0.1. The suite writes into its cwd.
cd "$OUT"
status=0
echo "::: suite 0.1.16, all server scenarios, SDK 1.x server"
"$NODE22_V1" "$SUITE_V1" server --url "$URL_V1" --suite all --expected-failures "$BASELINES/expected-failures.yml" "$@" || status=1
echo "::: suite 0.2.0-alpha.12, --requirements 2026-07-28, SDK v2 server"
"$NODE22_NEXT" "$SUITE_NEXT" server --url "$URL_V2" --requirements 2026-07-28 --expected-failures "$BASELINES/expected-failures-2026-07-28.yml" "$@" || status=1
echo "::: suite 0.2.0-alpha.12, --requirements 2025-11-25, SDK v2 server (legacy sessions)"
"$NODE22_NEXT" "$SUITE_NEXT" server --url "$URL_V2" --requirements 2025-11-25 --expected-failures "$BASELINES/expected-failures-v2-2025-11-25.yml" "$@" || status=1
exit "$status"
