#!/usr/bin/env sh
# Install/update hook of the Helm plugin `diff` (releasex as helm-diff):
# puts kubectl-releasex into $HELM_PLUGIN_DIR/bin. In order: keep a binary
# already there of the right version; else copy `kubectl-releasex` from PATH
# (`cargo install --path .`) when its version is this plugin's; else run the
# `preview` plugin's hook of the checkout this directory belongs to (which
# copies target/release, downloads the release archive, or builds).
set -eu
dir="${HELM_PLUGIN_DIR:-$(cd "$(dirname "$0")" && pwd)}"
bin="$dir/bin/kubectl-releasex"
# "3.15.11+releasex.0.1.0" -> "0.1.0"
version=$(sed -n 's/^version: *"\{0,1\}[^+]*+releasex\.\([^"]*\)"\{0,1\}$/\1/p' "$dir/plugin.yaml")
mkdir -p "$dir/bin"
# Outside Helm's plugin environment: with HELM_PLUGIN_NAME=diff the binary answers as helm-diff.
right_version() { HELM_PLUGIN_NAME='' "$1" --version 2>/dev/null | grep -q " $version "; }

if [ -x "$bin" ] && right_version "$bin"; then
  exit 0
fi
if found=$(command -v kubectl-releasex 2>/dev/null) && right_version "$found"; then
  cp "$found" "$bin"
  exit 0
fi
checkout=$(cd -P "$dir" && cd ../.. && pwd)
if [ -x "$checkout/scripts/install-plugin.sh" ]; then
  HELM_PLUGIN_DIR="$checkout" "$checkout/scripts/install-plugin.sh"
  cp "$checkout/bin/kubectl-releasex" "$bin"
  exit 0
fi
echo "releasex: no kubectl-releasex $version on PATH and no checkout at $checkout; install it first (cargo install --locked --path .)" >&2
exit 1
