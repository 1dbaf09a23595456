# shellcheck shell=bash
# The step runner of .ci/run (sourced): every step runs under a time budget, prints its elapsed time, and lands in the
# summary table printed at the end, failed or not. One line adds a step:
#
#   step 10m "lint" npm run lint           # BUDGET NAME COMMAND...; BUDGET as timeout(1) takes it: 90s, 10m, 1h
#   step -r 10m "npm ci" npm ci            # -r: a required step; when it fails, the run stops (the rest needs it)
#   step 5m "engine" some_function arg     # a shell function works too (it is exported to the step's bash)
#
# A step that fails does not stop the run (so one run shows every failure), but the run exits non-zero. The whole
# run has a budget too, $CI_RUN_BUDGET (default 45m): a step gets at most what is left of it, and a step that would
# start with nothing left is recorded as not run. On expiry timeout(1) sends TERM to the step's process group (jest's
# workers, npm's children), then KILL 30 s later. `ci_summary` prints the table and returns the run's status.

CI_RUN_BUDGET="${CI_RUN_BUDGET:-45m}"
CI_STEPS=()
CI_FAILED=0
CI_STARTED=$SECONDS

# Seconds in a timeout(1) duration: 90, 90s, 10m, 1h, 2d.
ci_seconds() {
  local n="${1%[smhd]}" unit="${1##*[0-9.]}"
  case "$n" in '' | *[!0-9]*) echo "ci-steps: '$1' is not a whole number of s, m, h or d (say 90s, 10m)" >&2; return 2 ;; esac
  case "$unit" in '' | s) echo "$n" ;; m) echo $((n * 60)) ;; h) echo $((n * 3600)) ;; d) echo $((n * 86400)) ;; esac
}

ci_duration() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

step() {
  local required=0
  [ "$1" = -r ] && { required=1; shift; }
  local budget="$1" name="$2"
  shift 2
  local budget_s left limit
  budget_s="$(ci_seconds "$budget")" || exit 2
  left=$(($(ci_seconds "$CI_RUN_BUDGET") - (SECONDS - CI_STARTED)))
  limit=$((budget_s < left ? budget_s : left))
  if [ "$limit" -le 0 ]; then
    CI_STEPS+=("$name|$budget|0|not run: the run's $CI_RUN_BUDGET budget is spent")
    CI_FAILED=1
    echo "::: $name: not run, the run's $CI_RUN_BUDGET budget is spent" >&2
    return 0
  fi
  if [ "$(type -t "$1")" = function ]; then
    export -f "$1"
    set -- bash -c '"$@"' "$1" "$@"
  fi
  echo "::: $name (budget $budget$([ "$limit" -lt "$budget_s" ] && echo ", $(ci_duration "$limit") left in the run")) :::"
  local start=$SECONDS status=0 outcome
  timeout --kill-after=30 "$limit" "$@" || status=$?
  local took=$((SECONDS - start))
  case "$status" in
    0) outcome=ok ;;
    124 | 137) outcome="TIMED OUT (killed at $(ci_duration "$limit"))" ;;
    *) outcome="FAILED (exit $status)" ;;
  esac
  CI_STEPS+=("$name|$budget|$took|$outcome")
  echo "::: $name: $outcome in $(ci_duration "$took")"
  if [ "$status" != 0 ]; then
    CI_FAILED=1
    if [ "$required" = 1 ]; then
      echo "::: $name is required by the steps after it: stopping the run" >&2
      exit "$status"
    fi
  fi
  return 0
}

# Prints the table of steps (name, budget, time taken, outcome) and the total; returns 1 when a step failed.
ci_summary() {
  local total=$((SECONDS - CI_STARTED)) row name budget took outcome
  echo
  printf '%-48s %7s %9s  %s\n' STEP BUDGET TOOK OUTCOME
  for row in "${CI_STEPS[@]}"; do
    IFS='|' read -r name budget took outcome <<<"$row"
    printf '%-48s %7s %9s  %s\n' "$name" "$budget" "$(ci_duration "$took")" "$outcome"
  done
  printf '%-48s %7s %9s  %s\n' "whole run" "$CI_RUN_BUDGET" "$(ci_duration "$total")" "$([ "$CI_FAILED" = 0 ] && echo ok || echo FAILED)"
  return "$CI_FAILED"
}
