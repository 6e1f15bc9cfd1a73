#!/usr/bin/env bash
# `kubectl-releasex template` (the native render) against `helm template` of the real Helm v4.1.4
# binary, both as whole processes, on kube-prometheus-stack 88.5.3 (benches/charts: the chart and
# its 5 subcharts, ~390 files, 7.7 MB unpacked), unpacked into a temp dir. Cases, each rendered by
# both with `template kps CHART --kube-version 1.30.0`:
#
#   plain   the unpacked chart directory, its own values only;
#   ci      the same plus `-f ci/03-non-defaults-values.yaml` (one of the chart's CI values files:
#           non-default values all over the chart; CI_VALUES=ci/OTHER.yaml picks another);
#   tgz     the packed .tgz itself (decompression and tar reading included).
#
# It prints:
#
#   - per case, the median and min wall time of each side (hyperfine, WARMUP warm-up runs, then
#     RUNS timed runs, no shell in between, output to /dev/null), and helm's median over ours;
#     target (issue 22) at least 10x;
#   - instructions of our whole process per case (valgrind --tool=callgrind; they do not move with
#     machine noise), and with VERBOSE=1 the top inclusive and self functions of the `ci` case
#     (callgrind_annotate; build with CARGO_PROFILE_RELEASE_DEBUG=true for function names);
#   - whether the outputs agree: both outputs with blank lines dropped and the lines that differ
#     from run to run in both (grafana's randAlphaNum admin password and the checksum annotation
#     computed from it) masked; "outputs agree", or a diff summary.
#
# Usage: benches/render.sh       RUNS=N (default 20), WARMUP=N (default 3), BIN=path (no build),
#                                RELEASEX_HELM4=path (default: what scripts/real-binaries.sh prints),
#                                CASES="plain ci tgz", VERBOSE=1
# Needs hyperfine and valgrind (instruction counts skipped with a note without it).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
warmup=${WARMUP:-3}
cases=${CASES:-"plain ci tgz"}
ci_values=${CI_VALUES:-ci/03-non-defaults-values.yaml}
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked -q
  BIN=target/release/kubectl-releasex
fi
helm=${RELEASEX_HELM4:-}
if [ -z "$helm" ]; then
  helm=$(scripts/real-binaries.sh | sed -n 's/^helm4=//p')
fi
tgz=benches/charts/kube-prometheus-stack-88.5.3.tgz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/releasex-render.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$tgz" -C "$tmp"
cp "$tgz" "$tmp/kps.tgz"
# Helm's own state out of the way (no repositories, no plugins, no cache of the person running it).
export HELM_CONFIG_HOME="$tmp/helm/config" HELM_CACHE_HOME="$tmp/helm/cache" HELM_DATA_HOME="$tmp/helm/data"
python3 - "$BIN" "$helm" "$tmp" "$runs" "$warmup" "$ci_values" "${VERBOSE:-0}" $cases <<'PY'
import difflib, json, os, platform, re, shutil, subprocess, sys
bin_, helm, tmp, runs, warmup, ci_values, verbose = sys.argv[1:8]
cases = sys.argv[8:]
chart = os.path.join(tmp, "kube-prometheus-stack")
have_valgrind = shutil.which("valgrind") is not None
args = {
    "plain": [chart],
    "ci": [chart, "-f", os.path.join(chart, ci_values)],
    "tgz": [os.path.join(tmp, "kps.tgz")],
}

def argv(tool, case):
    return [tool, "template", "kps"] + args[case] + ["--kube-version", "1.30.0"]

def hyperfine(ours, theirs):
    out = os.path.join(tmp, "hyperfine.json")
    cmd = ["hyperfine", "-N", "--style", "none", "--warmup", warmup, "--runs", runs, "--export-json", out,
           "-n", "ours", " ".join(ours), "-n", "helm", " ".join(theirs)]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    res = {r["command"]: r for r in json.load(open(out))["results"]}
    return res["ours"], res["helm"]

def instructions(cmd, keep=None):
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={keep or '/dev/null'}"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    return int(m.group(1)) if m else None

# Lines that differ between two runs of the same render: grafana's admin password
# (randAlphaNum 40, base64) and the pod annotation that checksums the secret.
RANDOM = re.compile(r"^\s*(admin-password|checksum/secret):")

def normalized(text):
    return [("<masked " + RANDOM.match(l).group(1) + ">") if RANDOM.match(l) else l
            for l in text.splitlines() if l.strip()]

def compare(case):
    ours = subprocess.run(argv(bin_, case), capture_output=True, text=True, check=True).stdout
    theirs = subprocess.run(argv(helm, case), capture_output=True, text=True, check=True).stdout
    a, b = normalized(ours), normalized(theirs)
    if a == b:
        return f"outputs agree ({len(a)} non-blank lines)"
    diff = [l for l in difflib.unified_diff(b, a, "helm", "ours", n=0, lineterm="") if l[:1] in "+-" and l[:3] not in ("+++", "---")]
    return f"outputs differ: {len(diff)} lines (-helm +ours), first: " + " | ".join(diff[:6])

version = subprocess.run([helm, "version", "--short"], capture_output=True, text=True).stdout.strip()
print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, load {os.getloadavg()[0]:.2f}")
print(f"ours: {bin_}; helm: {helm} ({version}); {warmup} warm-up + {runs} runs each")
print(f"{'case':6} {'instr':>8} {'ours med':>9} {'min':>7} {'helm med':>9} {'min':>7} {'ratio':>6}  verdict")
ok = True
notes = []
for case in cases:
    ours_cmd, helm_cmd = argv(bin_, case), argv(helm, case)
    keep = os.path.join(tmp, "callgrind.out") if verbose == "1" and case == "ci" else None
    ins = instructions(ours_cmd, keep) if have_valgrind else None
    o, h = hyperfine(ours_cmd, helm_cmd)
    ratio = h["median"] / o["median"]
    ok &= ratio >= 10
    ins_s = f"{ins / 1e6:6.1f}M" if ins is not None else "     -"
    print(f"{case:6} {ins_s:>8} {o['median']*1000:7.1f}ms {o['min']*1000:5.1f}ms {h['median']*1000:7.1f}ms {h['min']*1000:5.1f}ms {ratio:5.1f}x  {'PASS' if ratio >= 10 else 'FAIL'}")
    notes.append(f"{case}: {compare(case)}")
for n in notes:
    print(n)
print("instr = instructions of our whole process (callgrind); ratio = helm median / ours; target >= 10x")
if not have_valgrind:
    print("note: no valgrind, instruction counts skipped")
keep = os.path.join(tmp, "callgrind.out")
if verbose == "1" and os.path.exists(keep):
    for flag, title in (("--inclusive=yes", "inclusive"), ("--inclusive=no", "self")):
        p = subprocess.run(["callgrind_annotate", flag, keep], capture_output=True, text=True)
        rows = [l for l in p.stdout.splitlines() if re.match(r"^\s*[\d,]+ \(", l)]
        print(f"--- top {title} (case ci) ---")
        for l in rows[:30]:
            print(l[:200])
print("OVERALL", "PASS" if ok else "FAIL")
PY
