#!/usr/bin/env sh
# Helm plugin install/update hook: puts kubectl-releasex into $HELM_PLUGIN_DIR/bin.
# Uses a binary that is already there, else one built from this checkout
# (target/release), else builds it with cargo. Needs no network when a binary exists.
set -eu
dir="${HELM_PLUGIN_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
bin="$dir/bin/kubectl-releasex"
mkdir -p "$dir/bin"
if [ -x "$bin" ]; then
  exit 0
fi
if [ ! -x "$dir/target/release/kubectl-releasex" ]; then
  if ! command -v cargo >/dev/null 2>&1; then
    echo "releasex: no binary at $bin and no cargo to build one; download a release archive or install Rust" >&2
    exit 1
  fi
  (cd "$dir" && cargo build --release --locked)
fi
cp "$dir/target/release/kubectl-releasex" "$bin"
