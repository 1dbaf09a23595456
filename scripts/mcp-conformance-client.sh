#!/usr/bin/env bash
# Runs the MCP project's conformance suite (@modelcontextprotocol/conformance) against the everything-client built on
# agenttoolkit's MCP client adapter (spec/mcp/conformance/client/everything-client.ts), three times:
#   1. suite 0.1.16, every client scenario, the adapter on SDK 1.x (`sdk: 1`);
#   2. suite 0.2.0-alpha.12, `--requirements 2026-07-28`, the adapter on SDK v2 (`sdk: 2`, negotiation `auto`);
#   3. the same suite, `--requirements 2025-11-25`, the adapter on SDK v2 against the servers of that revision.
# Each exits non-zero on a failure outside its baseline (spec/mcp/conformance/client/expected-failures.yml for the
# first, expected-failures-2026-07-28.yml for the other two) or on a listed scenario that passes (the baselines only
# shrink). The suite runs its scenarios in parallel, one client process each: on a loaded 2-core machine a scenario
# needs more than the suite's default 30 s, so each gets $MCP_CONFORMANCE_TIMEOUT_MS (default 120000).
#
# The suite needs Node 22 while the library supports Node 20: both suite versions and a Node 22 binary are installed
# OUTSIDE the project's dependencies (scripts/mcp-conformance-suite.sh), in $MCP_CONFORMANCE_CLIENT_DIR (default
# /opt/mcp-conformance-client) and $MCP_CONFORMANCE_NEXT_DIR (default /opt/mcp-conformance-next, shared with the
# server script); that binary runs both the suite and the client. Results (checks.json per scenario) go to
# $MCP_CONFORMANCE_RESULTS (default: a temp folder), one subfolder per run.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=mcp-conformance-suite.sh
source scripts/mcp-conformance-suite.sh

NODE22_VERSION=22.23.5
TIMEOUT="${MCP_CONFORMANCE_TIMEOUT_MS:-120000}"
conformance_suite "${MCP_CONFORMANCE_CLIENT_DIR:-/opt/mcp-conformance-client}" 0.1.16 "$NODE22_VERSION"
NODE22_V1="$NODE22" SUITE_V1="$SUITE"
conformance_suite "${MCP_CONFORMANCE_NEXT_DIR:-/opt/mcp-conformance-next}" 0.2.0-alpha.12 "$NODE22_VERSION"
NODE22_NEXT="$NODE22" SUITE_NEXT="$SUITE"

# The client is TypeScript: compile it with the library into build/mcp-conformance-client.
npx tsc -p spec/mcp/conformance/client/tsconfig.json
CLIENT="$PWD/build/mcp-conformance-client/spec/mcp/conformance/client/everything-client.js"
BASELINES=spec/mcp/conformance/client
RESULTS="${MCP_CONFORMANCE_RESULTS:-$(mktemp -d /tmp/mcp-conformance-client.XXXXXX)}"

# Scenarios that measure the client's timing (sse-retry: the reconnect must come 450-700 ms after the server's
# `retry: 500`). Run beside 25 other scenario processes on 2 cores, one can be late for want of CPU, not of
# correctness: when such a scenario is the only failure outside the baseline, it runs again alone, and that run decides.
TIMING_SCENARIOS=(sse-retry)

# run_suite NAME NODE SUITE CLIENT_COMMAND BASELINE [SUITE_ARGS...]: one suite run, with the timing retry above.
run_suite() {
  local name=$1 node=$2 suite=$3 command=$4 baseline=$5
  shift 5
  local log="$RESULTS/$name.log"
  if "$node" "$suite" client "$@" --timeout "$TIMEOUT" --command "$command" --expected-failures "$baseline" \
    --output-dir "$RESULTS/$name" 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" = 0 ]; then
    return 0
  fi
  mapfile -t unexpected < <(sed -n '/Unexpected failures (not in baseline)/,/^$/p' "$log" | sed -n 's/^ *✗ //p' | sed 's/\x1b\[[0-9;]*m//g')
  [ ${#unexpected[@]} -gt 0 ] || return 1
  grep -q 'passed unexpectedly\|no longer fail\|Stale' "$log" && return 1
  for scenario in "${unexpected[@]}"; do
    [[ " ${TIMING_SCENARIOS[*]} " == *" $scenario "* ]] || return 1
  done
  for scenario in "${unexpected[@]}"; do
    echo "::: $name: $scenario failed beside the other scenarios; running it again alone"
    "$node" "$suite" client --scenario "$scenario" --timeout "$TIMEOUT" --command "$command" \
      --output-dir "$RESULTS/$name-alone" || return 1
    # A warning fails the baseline check, so it fails the run alone too.
    ! grep -rqE '"status": "(FAILURE|WARNING)"' "$RESULTS/$name-alone" || return 1
  done
}

status=0
echo "::: suite 0.1.16, all client scenarios, SDK 1.x client, on $("$NODE22_V1" --version); results in $RESULTS/0.1.16"
run_suite 0.1.16 "$NODE22_V1" "$SUITE_V1" "$NODE22_V1 $CLIENT" "$BASELINES/expected-failures.yml" --suite all || status=1
for revision in 2026-07-28 2025-11-25; do
  echo "::: suite 0.2.0-alpha.12, --requirements $revision, SDK v2 client; results in $RESULTS/$revision"
  run_suite "$revision" "$NODE22_NEXT" "$SUITE_NEXT" "$NODE22_NEXT $CLIENT --sdk=2" "$BASELINES/expected-failures-2026-07-28.yml" \
    --requirements "$revision" || status=1
done
exit "$status"
