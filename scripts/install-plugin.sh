#!/usr/bin/env sh
# Helm plugin install/update hook: puts kubectl-releasex into $HELM_PLUGIN_DIR/bin.
# In order: keep a binary already there when its version is the plugin's
# (no network needed); else copy one built in this checkout (target/release);
# else download the release archive for this OS/arch; else build with cargo.
set -eu
dir="${HELM_PLUGIN_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
bin="$dir/bin/kubectl-releasex"
version=$(sed -n 's/^version: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$dir/plugin.yaml")
# Where release archives live (the krew manifest plugins/releasex.yaml uses the same names).
base="${RELEASEX_DOWNLOAD_BASE:-https://github.com/releasex/releasex/releases/download}"
mkdir -p "$dir/bin"

if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q " $version "; then
  exit 0
fi
if [ -x "$dir/target/release/kubectl-releasex" ]; then
  cp "$dir/target/release/kubectl-releasex" "$bin"
  exit 0
fi

os=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch=$(uname -m) ;;
esac
url="$base/v$version/kubectl-releasex_v${version}_${os}_${arch}.tar.gz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetched=false
if command -v curl >/dev/null 2>&1; then
  curl -fsSL "$url" -o "$tmp/a.tgz" 2>/dev/null && fetched=true
elif command -v wget >/dev/null 2>&1; then
  wget -q "$url" -O "$tmp/a.tgz" 2>/dev/null && fetched=true
fi
if $fetched && tar -xzf "$tmp/a.tgz" -C "$tmp" kubectl-releasex 2>/dev/null; then
  cp "$tmp/kubectl-releasex" "$bin"
  chmod +x "$bin"
  exit 0
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "releasex: no binary at $bin, none built in $dir/target/release, $url not downloadable, and no cargo to build one" >&2
  exit 1
fi
echo "releasex: building kubectl-releasex with cargo (a few minutes)" >&2
(cd "$dir" && cargo build --release --locked)
cp "$dir/target/release/kubectl-releasex" "$bin"
