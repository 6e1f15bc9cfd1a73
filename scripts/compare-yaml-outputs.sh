#!/usr/bin/env bash
# Byte-for-byte comparison of two kubectl-releasex binaries over YAML input: every
# .yaml/.yml file under tests/ read as a values file (`explain CHART -f FILE -o json`
# and text, on a one-line chart), every chart under tests/data/corpus, and the
# generated charts of benches/make_chart.py (every construct mix, SEEDS seeds).
# stdout, stderr and the exit code must be identical. For parser changes.
#
#   scripts/compare-yaml-outputs.sh OLD_BIN NEW_BIN      (SEEDS="1 2 3" by default)
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2
seeds=${SEEDS:-"1 2 3"}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/releasex-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/chart"
printf 'apiVersion: v2\nname: c\nversion: 1.0.0\n' > "$tmp/chart/Chart.yaml"
n=0 diffs=0
same() {
  local a b
  a=$("$old" "$@" 2>&1; echo "exit $?") || true
  b=$("$new" "$@" 2>&1; echo "exit $?") || true
  n=$((n + 1))
  if [ "$a" != "$b" ]; then
    diffs=$((diffs + 1))
    echo "DIFFERS: $*"
    diff <(echo "$a") <(echo "$b") | head -10
  fi
}
while IFS= read -r -d '' f; do
  same explain "$tmp/chart" -f "$f" -o json
  same explain "$tmp/chart" -f "$f"
done < <(find tests \( -name '*.yaml' -o -name '*.yml' \) -not -path '*/.venv/*' -print0 | sort -z)
for c in tests/data/corpus/*/; do
  same explain "$c" -o json
done
for seed in $seeds; do
  for mix in block flow anchors scalars comments docs crlf all; do
    python3 benches/make_chart.py "$tmp/gen-$seed-$mix" "$seed" "$mix" > /dev/null
    same explain "$tmp/gen-$seed-$mix" -o json
    same explain "$tmp/gen-$seed-$mix"
  done
done
echo "$n comparisons, $diffs differ"
[ "$diffs" -eq 0 ]
