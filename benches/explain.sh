#!/usr/bin/env bash
# `kubectl-releasex explain CHART -o json` on kube-prometheus-stack (tests/data/corpus: about
# 6,000 lines of values.yaml, 5 subcharts) and on generated charts of the same shape and size
# (benches/make_chart.py: 4 subcharts, ~9,300 lines, seeded) written with each construct mix
# real values files use (block only; flow collections with quoted strings and `{{ }}`; anchors,
# aliases and merge keys; block and multi-line scalars; comments everywhere; `---` documents;
# CRLF; all at once). Per chart it prints:
#
#   - instructions of the whole process (valgrind --tool=callgrind; they do not move with
#     machine noise), target at most 35 M;
#   - the median and min wall time of the whole process over RUNS runs, target at most 10 ms;
#   - Helm 4.2.3 computing .Values in-process for the same chart (the oracle, tests/oracle, as
#     a library with no per-call start-up: a batch of N requests minus a batch of 1, over N-1),
#     measured in the same run, and the ratio, target at least 5x.
#
# Usage: benches/explain.sh      RUNS=N (default 30), SEED=N (default 1), BIN=path (no build),
#                                HELM_N=N (default 20; 0 skips Helm), MIXES="block flow ...",
#                                SIZES="corpus dense" (make_chart.py's sizes: the corpus chart's
#                                ~2,000 values among documentation comments, or three times that)
# Needs valgrind for instruction counts (skipped with a note without it) and tests/oracle/setup.sh
# for the Helm column.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-30}
seed=${SEED:-1}
helm_n=${HELM_N:-20}
mixes=${MIXES:-"block flow anchors scalars comments docs crlf all"}
sizes=${SIZES:-"corpus dense"}
if [ -z "${BIN:-}" ]; then
  cargo build --release -q
  BIN=target/release/kubectl-releasex
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/releasex-explain.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
charts="corpus=tests/data/corpus/kube-prometheus-stack"
for size in $sizes; do
  for mix in $mixes; do
    python3 benches/make_chart.py "$tmp/$size-$mix" "$seed" "$mix" "$size" > "$tmp/$size-$mix.lines"
    charts="$charts $mix($size)=$tmp/$size-$mix"
  done
done
python3 - "$BIN" "$runs" "$helm_n" $charts <<'PY'
import json, os, platform, re, shutil, statistics, subprocess, sys, time
bin_, runs, helm_n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
charts = [a.split("=", 1) for a in sys.argv[4:]]
python = ".venv/bin/python"
have_helm = helm_n > 1 and os.access(python, os.X_OK)
have_valgrind = shutil.which("valgrind") is not None

def instructions(argv):
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    return int(m.group(1)) if m else None

def wall(argv):
    for _ in range(3):
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times)

def helm_batch(chart, n):
    lines = "".join(json.dumps(["values", chart]) + "\n" for _ in range(n))
    t = time.perf_counter()
    p = subprocess.run([python, "tests/oracle/helm_oracle.py", "batch"], input=lines, capture_output=True, text=True, check=True)
    dt = (time.perf_counter() - t) * 1000
    answers = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    assert len(answers) == n and all(a.get("status") == "ok" for a in answers), p.stdout[:300]
    return dt

def helm_in_process(chart):
    """(batch of N - batch of 1) / (N - 1), best of 3 of each: the per-request time of Helm
    computing .Values with the process, Python and the Helm library already started."""
    one = min(helm_batch(chart, 1) for _ in range(3))
    many = min(helm_batch(chart, helm_n) for _ in range(3))
    return (many - one) / (helm_n - 1)

print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, load {os.getloadavg()[0]:.2f}; binary {bin_}")
print(f"{'chart (explain CHART -o json)':34} {'values':>6} {'instr':>8} {'median':>8} {'min':>7} {'Helm':>8} {'ratio':>6}  verdict")
floor = []
for _ in range(runs):
    t = time.perf_counter()
    subprocess.run(["/bin/true"], check=True)
    floor.append((time.perf_counter() - t) * 1000)
print(f"{'(spawning /bin/true, for scale)':34} {'':>6} {'':>8} {statistics.median(floor):6.1f}ms {min(floor):5.1f}ms")
ok = True
for name, chart in charts:
    argv = [bin_, "explain", chart, "-o", "json"]
    values = len(json.loads(subprocess.run(argv, capture_output=True, check=True).stdout)["entries"])
    ins = instructions(argv) if have_valgrind else None
    med, mn = wall(argv)
    helm = helm_in_process(chart) if have_helm else None
    checks = [med <= 10]
    if ins is not None:
        checks.append(ins <= 35e6)
    if helm is not None:
        checks.append(helm / med >= 5)
    ok &= all(checks)
    ins_s = f"{ins / 1e6:6.1f}M" if ins is not None else "     -"
    helm_s = f"{helm:6.1f}ms" if helm is not None else "      -"
    ratio_s = f"{helm / med:5.1f}x" if helm is not None else "    -"
    print(f"{name:34} {values:>6} {ins_s:>8} {med:6.1f}ms {mn:5.1f}ms {helm_s:>8} {ratio_s:>6}  {'PASS' if all(checks) else 'FAIL'}")
print("values = entries explained; targets: <= 35 M instructions, <= 10 ms median whole process, >= 5x Helm in-process")
if not have_valgrind:
    print("note: no valgrind, instruction counts skipped")
if not have_helm:
    print("note: no Helm oracle (tests/oracle/setup.sh) or HELM_N <= 1, Helm column skipped")
print("OVERALL", "PASS" if ok else "FAIL")
PY
