#!/bin/sh
# Runs each command given (one argument each) in turn, all of them even when one fails, so that a failing step does
# not hide the result of the next ones; exits 1 at the end, naming the steps that failed, when any did.
# Used by `npm test`: scripts/run-all.sh 'tsc -p tsconfig.json --noEmit' 'jest --coverage' ...
failed=''
for step in "$@"; do
  sh -c "$step" || failed="$failed
  $step"
done
if [ -n "$failed" ]; then
  printf 'npm test: these steps failed:%s\n' "$failed" >&2
  exit 1
fi
