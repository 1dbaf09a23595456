#!/bin/sh
# Runs the shell analysis against what bash and dash execute, over the full corpus of tricky spellings
# (spec/builtins/shell/differential.ts): strace traces every program the shells execute from a PATH of stubs, and
# any program the analysis did not report is listed as a miss. Needs strace (apt-get install -y strace).
set -eu
cd "$(dirname "$0")/.."
SHELL_DIFFERENTIAL=full exec npx jest spec/builtins/shell/parser-differential.spec.ts --coverage=false "$@"
