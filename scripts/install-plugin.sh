#!/usr/bin/env sh
# Helm plugin install/update hook: puts kubectl-releasex into $HELM_PLUGIN_DIR/bin.
# In order:
#  1. keep a binary already there when its version is the plugin's (no network needed);
#  2. copy one built in this checkout (target/release) of the plugin's version;
#  3. download the release archive for this OS/arch and VERIFY its sha256 against
#     plugins/checksums.txt (written by scripts/release.sh and committed with the release tag,
#     so the checksum comes from the checkout Helm installed, not from the download site);
#     a missing checksum or a mismatch fails the install, nothing is installed;
#  4. only when asked (RELEASEX_BUILD=1): build with cargo.
# RELEASEX_DOWNLOAD_BASE overrides where archives are fetched (else plugins/download-base.txt, else GitHub).
set -eu
dir="${HELM_PLUGIN_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
bin="$dir/bin/kubectl-releasex"
version=$(sed -n 's/^version: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$dir/plugin.yaml")
base="${RELEASEX_DOWNLOAD_BASE:-}"
[ -n "$base" ] || [ ! -f "$dir/plugins/download-base.txt" ] || base=$(cat "$dir/plugins/download-base.txt")
[ -n "$base" ] || base="https://github.com/releasex/releasex/releases/download"
mkdir -p "$dir/bin"

has_version() { [ -x "$1" ] && "$1" --version 2>/dev/null | grep -q " $version "; }

if has_version "$bin"; then
  exit 0
fi
if has_version "$dir/target/release/kubectl-releasex"; then
  cp "$dir/target/release/kubectl-releasex" "$bin"
  exit 0
fi

build() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "releasex: RELEASEX_BUILD=1 asks for a build, but there is no cargo (Rust 1.89+) on PATH" >&2
    exit 1
  fi
  echo "releasex: building kubectl-releasex with cargo (a few minutes)" >&2
  (cd "$dir" && cargo build --release --locked)
  cp "$dir/target/release/kubectl-releasex" "$bin"
  exit 0
}
[ "${RELEASEX_BUILD:-0}" = 1 ] && build

os=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch=$(uname -m) ;;
esac
archive="kubectl-releasex_v${version}_${os}_${arch}.tar.gz"
url="$base/v$version/$archive"
sums="$dir/plugins/checksums.txt"
want=""
[ -f "$sums" ] && want=$(awk -v a="$archive" '$2 == a || $2 == "*" a { print $1 }' "$sums")
if [ -z "$want" ]; then
  echo "releasex: no sha256 for $archive in $sums, so a download could not be verified; install a release" >&2
  echo "  (helm plugin install https://github.com/releasex/releasex --version v$version), or set RELEASEX_BUILD=1 to build with cargo" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL "$1" -o "$2"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q "$1" -O "$2"; }
else
  echo "releasex: neither curl nor wget to download $url (or set RELEASEX_BUILD=1 to build with cargo)" >&2
  exit 1
fi
if ! fetch "$url" "$tmp/$archive"; then
  echo "releasex: could not download $url (or set RELEASEX_BUILD=1 to build with cargo)" >&2
  exit 1
fi
if command -v sha256sum >/dev/null 2>&1; then
  got=$(sha256sum "$tmp/$archive" | cut -d' ' -f1)
else
  got=$(shasum -a 256 "$tmp/$archive" | cut -d' ' -f1)
fi
if [ "$got" != "$want" ]; then
  echo "releasex: $url has sha256 $got, but $sums says $want: not installed" >&2
  exit 1
fi
tar -xzf "$tmp/$archive" -C "$tmp" kubectl-releasex
chmod +x "$tmp/kubectl-releasex"
mv "$tmp/kubectl-releasex" "$bin"
