#!/usr/bin/env bash
# Builds the release artefacts of one target into DIR (default dist/) and
# rewrites, from every archive in DIR, checksums.txt, the krew manifest and
# the Helm plugin (directory and tarball):
#
#   kubectl-releasex_vX.Y.Z_OS_ARCH.tar.gz   (.zip for windows): kubectl-releasex[.exe] and LICENSE, flat
#   checksums.txt                            sha256sum format, one line per archive
#   releasex.yaml                            krew manifest, one platform per archive, real URLs and sha256
#   helm-plugin/                             the Helm plugin `preview` as `helm plugin install` reads it,
#                                            with plugins/checksums.txt for its install hook
#   preview-X.Y.Z.tgz[.prov]                 that directory packaged by `helm plugin package` (Helm 4);
#                                            signed when RELEASEX_SIGN_KEY names a GnuPG key
#
# Usage: scripts/release.sh [--target TRIPLE] [--binary PATH] [--out DIR] [--base-url URL] [--update-repo]
#   --target    Rust target triple (default: the host's). Mapping to OS_ARCH:
#                 x86_64-unknown-linux-{gnu,musl} linux_amd64     aarch64-unknown-linux-{gnu,musl} linux_arm64
#                 x86_64-apple-darwin             darwin_amd64    aarch64-apple-darwin             darwin_arm64
#                 x86_64-pc-windows-{msvc,gnu}    windows_amd64
#               Other targets are built the same way on a machine (or CI runner) that has their
#               toolchain: `rustup target add TRIPLE` and its linker (macOS targets on macOS, windows-msvc on
#               Windows or with cargo-xwin); run the script once per target into the same --out; each run
#               adds its archive and rewrites checksums.txt and the manifests from all archives present.
#   --binary    use this already-built kubectl-releasex instead of `cargo build --profile dist` (tests, CI caches)
#   --out       output directory (default dist/)
#   --base-url  where the archives are published; URLs are BASE/vX.Y.Z/ARCHIVE
#               (default https://github.com/releasex/releasex/releases/download)
#   --update-repo  also copy releasex.yaml and checksums.txt into plugins/ (commit them with the tag, so that
#               `helm plugin install` of the tagged checkout verifies the archive it downloads)
# Environment: HELM (a Helm 4 binary for `helm plugin package`; without one the tarball is skipped),
#   RELEASEX_SIGN_KEY and RELEASEX_KEYRING (sign the plugin tarball), STRIP (strip tool for a foreign target),
#   SOURCE_DATE_EPOCH (archive timestamps; default: the last commit's time, for reproducible archives).
#
# Why a script and not cargo-dist: cargo-dist generates GitHub workflows and installers around its own archive
# names and manifest formats, but writes neither a krew manifest nor a Helm plugin; the names here are the ones
# krew and the plugin's install hook expect, and the whole job is ~150 lines that run offline, here and in CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -1)
target="" binary="" out="$root/dist" update_repo=false
base="https://github.com/releasex/releasex/releases/download"
while [ $# -gt 0 ]; do
  case $1 in
    --target) target=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --base-url) base=${2%/}; shift 2 ;;
    --update-repo) update_repo=true; shift ;;
    *) echo "release.sh: unknown argument $1 (see the comment at the top of $0)" >&2; exit 1 ;;
  esac
done
[ -n "$target" ] || target=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
[ -n "$target" ] || { echo "release.sh: no --target and no rustc to ask for the host's" >&2; exit 1; }
case $target in
  x86_64-unknown-linux-gnu | x86_64-unknown-linux-musl) os=linux arch=amd64 ;;
  aarch64-unknown-linux-gnu | aarch64-unknown-linux-musl) os=linux arch=arm64 ;;
  x86_64-apple-darwin) os=darwin arch=amd64 ;;
  aarch64-apple-darwin) os=darwin arch=arm64 ;;
  x86_64-pc-windows-msvc | x86_64-pc-windows-gnu) os=windows arch=amd64 ;;
  *) echo "release.sh: no OS_ARCH name for target $target (add it to the case above)" >&2; exit 1 ;;
esac
exe=kubectl-releasex
[ "$os" = windows ] && exe=kubectl-releasex.exe
if [ -z "$binary" ]; then
  # The dist profile (Cargo.toml): release with fat LTO and stripped symbols.
  (cd "$root" && cargo build --profile dist --locked --target "$target")
  binary="$root/target/$target/dist/$exe"
fi
[ -f "$binary" ] || { echo "release.sh: no binary at $binary" >&2; exit 1; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The archive: the binary (stripped: debug symbols are most of its size) and the licence, flat, as krew's
# `files` and the install hook expect them.
mkdir "$stage/archive"
cp "$binary" "$stage/archive/$exe"
chmod 755 "$stage/archive/$exe"
"${STRIP:-strip}" "$stage/archive/$exe" 2>/dev/null || echo "release.sh: warning: could not strip $exe (set STRIP for $target)" >&2
cp "$root/LICENSE" "$stage/archive/LICENSE"
touch -d "@$SOURCE_DATE_EPOCH" "$stage/archive/"*
name="kubectl-releasex_v${version}_${os}_${arch}"
if [ "$os" = windows ]; then
  archive="$name.zip"
  python3 - "$stage/archive" "$out/$archive" "$exe" <<'PY'
import sys, zipfile
src, dst, exe = sys.argv[1:]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for f in (exe, "LICENSE"):
        z.write(f"{src}/{f}", f)
PY
else
  archive="$name.tar.gz"
  tar -C "$stage/archive" --sort=name --owner=0 --group=0 --numeric-owner -cf - "$exe" LICENSE | gzip -n > "$out/$archive"
fi

# checksums.txt and the krew manifest, from every archive of this version in $out.
cd "$out"
shopt -s nullglob
archives=$(printf '%s\n' kubectl-releasex_v"${version}"_*.tar.gz kubectl-releasex_v"${version}"_*.zip | sort)
shopt -u nullglob
# shellcheck disable=SC2086 # archive names have no spaces
sha256sum $archives > checksums.txt
{
  cat <<EOF
# krew plugin manifest, written by scripts/release.sh from the archives of v$version.
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: releasex
spec:
  version: v$version
  homepage: https://github.com/releasex/releasex
  shortDescription: Preview Helm upgrades exactly and decode Helm releases
  description: |
    Explains where every Helm value comes from, previews what \`helm upgrade\`
    would change (values, patches, server-side apply conflicts, adoptions)
    exactly as Helm 4.2 computes it, and decodes the release records Helm
    stores in Secrets, ConfigMaps or SQL. Read-only: it only sends GET and
    LIST requests.
  caveats: |
    Shell completion for \`kubectl releasex <TAB>\` (kubectl 1.26+) needs a
    second name for the binary on PATH, which krew cannot create:
      ln -s "\$(command -v kubectl-releasex)" ~/.krew/bin/kubectl_complete-releasex
  platforms:
EOF
  for a in $archives; do
    rest=${a#kubectl-releasex_v"${version}"_}
    rest=${rest%.tar.gz}
    rest=${rest%.zip}
    a_os=${rest%_*} a_arch=${rest#*_}
    bin=kubectl-releasex
    [ "$a_os" = windows ] && bin=kubectl-releasex.exe
    cat <<EOF
    - selector:
        matchLabels:
          os: $a_os
          arch: $a_arch
      uri: $base/v$version/$a
      sha256: "$(sha256sum "$a" | cut -d' ' -f1)"
      files:
        - from: $bin
          to: .
        - from: LICENSE
          to: .
      bin: $bin
EOF
  done
} > releasex.yaml

# The Helm plugin: what a checkout holds for `helm plugin install`, plus the checksums its hook verifies.
rm -rf helm-plugin
mkdir -p helm-plugin/scripts helm-plugin/plugins
cp "$root/plugin.yaml" "$root/completion.yaml" "$root/plugin.complete" "$root/LICENSE" helm-plugin/
cp "$root/scripts/install-plugin.sh" helm-plugin/scripts/
cp checksums.txt releasex.yaml helm-plugin/plugins/
# The hook downloads from the same place the manifests name.
printf '%s\n' "$base" > helm-plugin/plugins/download-base.txt
helm=${HELM:-$(command -v helm || true)}
if [ -n "$helm" ] && "$helm" plugin package --help >/dev/null 2>&1; then
  rm -f preview-*.tgz preview-*.tgz.prov
  if [ -n "${RELEASEX_SIGN_KEY:-}" ]; then
    "$helm" plugin package helm-plugin -d . --sign --key "$RELEASEX_SIGN_KEY" ${RELEASEX_KEYRING:+--keyring "$RELEASEX_KEYRING"} >/dev/null
  else
    "$helm" plugin package helm-plugin -d . --sign=false >/dev/null
  fi
else
  echo "release.sh: no Helm 4 (set HELM): skipped the plugin tarball preview-$version.tgz" >&2
fi

if $update_repo; then
  cp releasex.yaml "$root/plugins/releasex.yaml"
  cp checksums.txt "$root/plugins/checksums.txt"
  printf '%s\n' "$base" > "$root/plugins/download-base.txt"
fi
echo "$out/$archive"
