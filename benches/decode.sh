#!/usr/bin/env bash
# Benchmark: decoding a Helm release record of ~1 MiB compressed, against the shell pipeline
# `base64 -d | base64 -d | gunzip` in the same run.
#
#   benches/decode.sh                 # builds the release binary, then measures
#   RUNS=50 benches/decode.sh         # timed runs per command (default 20), after WARMUP (default 2)
#   BIN=path/to/kubectl-releasex benches/decode.sh   # measure that binary, no build
#   KEEP=1 benches/decode.sh          # keep the temp dir with the generated record
#
# Targets (from the issue): wall time at most 1.4x the pipeline's; peak memory at most 4x the
# decompressed (JSON) size of the record.
#
# Commands measured, interleaved round by round (a, b, c, a, b, c, ...) so that load from other
# processes hits all three alike:
#   a  base64 -d < payload.txt | base64 -d | gunzip > /dev/null
#   b  kubectl-releasex release decode -f payload.txt --show record -o json --show-secrets > /dev/null
#      (full decode + parse + re-serialisation of the whole record)
#   c  kubectl-releasex release decode -f secret.json > /dev/null   (summary view from the Secret JSON)
# Each runs as `/bin/sh -c '...'` (b and c with `exec`), so all three pay the same shell start.
#
# How it measures: a python3 harness runs each command as `/usr/bin/time -f %M -o FILE /bin/sh -c
# CMD`. Wall time: perf_counter around that whole run (GNU time's own fork+exec, ~1 ms, is paid by
# all three alike). Peak memory: GNU time's %M, the maximum resident set size of the command (for
# the pipeline, of the largest of its processes), per run; the table shows the maximum over runs.
# GNU time is used rather than python's os.wait4()/RUSAGE_CHILDREN because a child that python
# spawns (vfork or fork, then exec) starts with python's own peak RSS as its ru_maxrss (Linux
# keeps the pre-exec high-water mark), so those read the harness's memory (~50 MiB here), not
# the command's. GNU time is a small C program, so its child starts at ~1 MiB. Without
# /usr/bin/time (Debian/Ubuntu: apt-get install -y time) the harness falls back to os.wait4()
# and says the memory figures are upper bounds (at least the harness's own peak RSS).
#
# Exit status: 0 when the measurements were taken, whether or not the targets are met (read the
# PASS/FAIL lines); non-zero only when the benchmark itself could not run (build failed, a
# command failed or printed something wrong).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
RUNS=${RUNS:-20}
WARMUP=${WARMUP:-2}

if [ -z "${BIN:-}" ]; then
    echo "building: cargo build --release (in $root)" >&2
    (cd "$root" && cargo build --release --bin kubectl-releasex) >&2
    target_dir=$(cd "$root" && cargo metadata --format-version 1 --no-deps \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
    BIN="$target_dir/release/kubectl-releasex"
fi
[ -x "$BIN" ] || { echo "error: binary $BIN not found or not executable" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/releasex-bench.XXXXXX")
if [ -n "${KEEP:-}" ]; then
    echo "keeping $tmp" >&2
else
    trap 'rm -rf "$tmp"' EXIT
fi

echo "generating the record in $tmp" >&2
python3 "$here/make_record.py" "$tmp" > "$tmp/sizes.txt"

BIN="$BIN" RUNS="$RUNS" WARMUP="$WARMUP" DIR="$tmp" python3 - <<'PY'
import json, os, resource, shlex, statistics, subprocess, sys, time

BIN, DIR = os.environ["BIN"], os.environ["DIR"]
RUNS, WARMUP = int(os.environ["RUNS"]), int(os.environ["WARMUP"])
sizes = dict(line.strip().split("=", 1) for line in open(os.path.join(DIR, "sizes.txt")) if "=" in line)
json_bytes, gzip_bytes = int(sizes["json_bytes"]), int(sizes["gzip_bytes"])
TIME_TARGET, MEM_FACTOR = 1.4, 4
mem_limit = MEM_FACTOR * json_bytes
q = shlex.quote
payload, secret = os.path.join(DIR, "payload.txt"), os.path.join(DIR, "secret.json")
record_json = os.path.join(DIR, "record.json")

CMDS = [
    ("a", "pipeline", f"base64 -d < {q(payload)} | base64 -d | gunzip"),
    ("b", "decode --show record -o json", f"exec {q(BIN)} release decode -f {q(payload)} --show record -o json --show-secrets"),
    ("c", "decode (summary, Secret JSON)", f"exec {q(BIN)} release decode -f {q(secret)}"),
]

GNU_TIME = "/usr/bin/time"
HAVE_GNU_TIME = os.access(GNU_TIME, os.X_OK)
rss_file = os.path.join(DIR, "rss.txt")

def run(shell_cmd):
    """Runs one command, stdout to /dev/null; returns (seconds, peak RSS in bytes, exit status)."""
    argv = ["/bin/sh", "-c", shell_cmd]
    if HAVE_GNU_TIME:
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file] + argv
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from waiting again
    if HAVE_GNU_TIME:
        with open(rss_file) as f:
            lines = f.read().split()
        # GNU time writes "Command exited with non-zero status N" before %M on failure.
        return dt, int(lines[-1]) * 1024, p.returncode
    return dt, ru.ru_maxrss * 1024, p.returncode

def fail(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(3)

# Correctness first: a benchmark of a command that fails or prints the wrong thing means nothing.
expected = open(record_json, "rb").read()
got = subprocess.run(["/bin/sh", "-c", CMDS[0][2]], capture_output=True)
if got.returncode or got.stdout != expected:
    fail(f"the pipeline did not reproduce the record JSON (status {got.returncode})")
got = subprocess.run(["/bin/sh", "-c", CMDS[1][2]], capture_output=True)
if got.returncode:
    fail(f"command b failed ({got.returncode}): {got.stderr.decode(errors='replace')[:500]}")
if json.loads(got.stdout) != json.loads(expected):
    fail("command b printed a record that differs from the one encoded")
b_out_bytes = len(got.stdout)
got = subprocess.run(["/bin/sh", "-c", CMDS[2][2]], capture_output=True)
if got.returncode or b"observability" not in got.stdout:
    fail(f"command c failed ({got.returncode}): {(got.stderr or got.stdout).decode(errors='replace')[:500]}")
summary_text = got.stdout.decode(errors="replace")

times = {k: [] for k, _, _ in CMDS}
rss = {k: [] for k, _, _ in CMDS}
for _ in range(WARMUP):
    for k, _, cmd in CMDS:
        run(cmd)
for i in range(RUNS):
    order = CMDS[i % 3:] + CMDS[:i % 3]  # rotate, so no command always runs first
    for k, _, cmd in order:
        dt, peak, status = run(cmd)
        if status:
            fail(f"command {k} exited with {status} in run {i + 1}")
        times[k].append(dt)
        rss[k].append(peak)

def mib(n):
    return f"{n / 1048576:.1f} MiB"

med = {k: statistics.median(v) for k, v in times.items()}
mn = {k: min(v) for k, v in times.items()}
peak = {k: max(v) for k, v in rss.items()}

print()
print("releasex decode benchmark")
print(f"  binary        {BIN}")
print(f"  machine       {os.cpu_count()} CPUs, load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
print(f"  record        JSON {json_bytes} B ({mib(json_bytes)}), gzip {gzip_bytes} B ({mib(gzip_bytes)}, "
      f"{json_bytes / gzip_bytes:.1f}x), Helm base64 {sizes['helm_base64_bytes']} B, payload.txt {sizes['payload_bytes']} B, "
      f"{sizes['documents']} manifest documents, {sizes['templates']} chart templates")
print(f"  b prints      {b_out_bytes} B ({mib(b_out_bytes)}) of pretty JSON")
print(f"  runs          {RUNS} timed per command after {WARMUP} warm-up, interleaved; "
      f"peak RSS: " + ("GNU time %M, max over runs" if HAVE_GNU_TIME else
      "os.wait4 ru_maxrss, max over runs (NO GNU time: UPPER BOUNDS, floor = this harness's peak RSS "
      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB)"))
print()
hdr = f"{'':2} {'command':32} {'median':>9} {'min':>9} {'x a (med)':>9} {'x a (min)':>9} {'peak RSS':>10} {'RSS/JSON':>8}"
print(hdr)
print("-" * len(hdr))
for k, label, _ in CMDS:
    print(f"{k:2} {label:32} {med[k] * 1000:7.1f}ms {mn[k] * 1000:7.1f}ms {med[k] / med['a']:8.2f}x {mn[k] / mn['a']:8.2f}x "
          f"{mib(peak[k]):>10} {peak[k] / json_bytes:7.2f}x")
print()

results = []
for k in ("b", "c"):
    ratio = med[k] / med["a"]
    ok = ratio <= TIME_TARGET
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'}  time    {k}: median {med[k] * 1000:.1f} ms = {ratio:.2f}x the pipeline's "
          f"{med['a'] * 1000:.1f} ms (target <= {TIME_TARGET}x)")
for k in ("b", "c"):
    ok = peak[k] <= mem_limit
    results.append(ok)
    bound = "" if HAVE_GNU_TIME else " [upper bound: no GNU time]"
    print(f"{'PASS' if ok else 'FAIL'}  memory  {k}: peak RSS {mib(peak[k])} = {peak[k] / json_bytes:.2f}x the JSON size "
          f"(target <= {MEM_FACTOR}x = {mib(mem_limit)}){bound}")
print()
print(f"OVERALL {'PASS' if all(results) else 'FAIL'} ({sum(results)} of {len(results)} checks met)")
PY
