#!/usr/bin/env bash
# Benchmark: decoding a Helm release record of ~1 MiB compressed, against the shell pipeline
# `base64 -d | base64 -d | gunzip` in the same run.
#
#   benches/decode.sh                 # builds the release binary, then measures
#   RUNS=50 benches/decode.sh         # timed runs per command (default 20), after WARMUP (default 2)
#   BIN=path/to/kubectl-releasex benches/decode.sh   # measure that binary, no build
#   KEEP=1 benches/decode.sh          # keep the temp dir with the generated record
#   GNU_TIME=/path/to/time            # GNU time to use (default /usr/bin/time; a path that does
#                                     # not exist forces the os.wait4 fallback described below)
#
# Targets (from the issue): wall time at most 1.4x the pipeline's; peak memory at most 4x the
# decompressed (JSON) size of the record. The verdict uses median times.
#
# The record: benches/make_record.py (python3 stdlib), a Helm 4 record of an umbrella chart
# whose gzip is 0.9-1.0 MiB (~7 MiB of JSON), deterministic. See its docstring.
#
# Commands measured, interleaved round by round (a, b, c, then b, c, a, ...) so that load from
# other processes hits all three alike:
#   a  base64 -d < payload.txt | base64 -d | gunzip > /dev/null
#   b  kubectl-releasex release decode -f payload.txt --show record -o json --show-secrets > /dev/null
#      (full decode + parse + re-serialisation of the whole record)
#   c  kubectl-releasex release decode -f secret.json > /dev/null   (summary view from the Secret JSON)
# Each runs as `/bin/sh -c '...'` (b and c with `exec`), so all three pay the same shell start.
# Before timing, each command's output is checked once (a and b must give back the record that
# was encoded, c must print the summary); a wrong output stops the benchmark.
#
# How it measures: a python3 harness runs each command as `/usr/bin/time -f %M -o FILE /bin/sh -c
# CMD`. Wall time: perf_counter around that whole run (GNU time's own fork+exec, ~1 ms, is paid by
# all three alike). Peak memory: GNU time's %M, the maximum resident set size of the command (for
# the pipeline, of the largest of its processes), per run; the table shows the maximum over runs.
# GNU time is used rather than python's os.wait4()/RUSAGE_CHILDREN because a child that python
# spawns (vfork or fork, then exec) starts with python's own peak RSS as its ru_maxrss (Linux
# keeps the pre-exec high-water mark), so those read max(harness, command), not the command.
# GNU time is a small C program, so its child starts at ~1 MiB. Without /usr/bin/time
# (Debian/Ubuntu: apt-get install -y time) the harness falls back to os.wait4(): a reading above
# the harness's own peak RSS (printed; kept small) is the command's, one at or below it only says
# "at most that", and the memory verdict is then UNKNOWN unless that bound is within the target.
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

export BIN RUNS WARMUP DIR="$tmp" GNU_TIME="${GNU_TIME:-}"

# The three commands, one per line: key, label, shell command (tab-separated).
python3 - > "$tmp/commands.tsv" <<'PY'
import os, shlex
q, d, b = shlex.quote, os.environ["DIR"], os.environ["BIN"]
payload, secret = q(os.path.join(d, "payload.txt")), q(os.path.join(d, "secret.json"))
print(f"a\tpipeline\tbase64 -d < {payload} | base64 -d | gunzip")
print(f"b\tdecode --show record -o json\texec {q(b)} release decode -f {payload} --show record -o json --show-secrets")
print(f"c\tdecode (summary, Secret JSON)\texec {q(b)} release decode -f {secret}")
PY

# Correctness, in its own process (it holds the record twice; the timing harness stays small).
echo "checking the outputs once" >&2
python3 - <<'PY'
import json, os, subprocess, sys
d = os.environ["DIR"]
cmds = {k: c for k, _, c in (line.rstrip("\n").split("\t") for line in open(os.path.join(d, "commands.tsv")))}
expected = open(os.path.join(d, "record.json"), "rb").read()
def out(k):
    p = subprocess.run(["/bin/sh", "-c", cmds[k]], capture_output=True)
    if p.returncode:
        sys.exit(f"error: command {k} failed ({p.returncode}): {p.stderr.decode(errors='replace')[:500]}")
    return p.stdout
if out("a") != expected:
    sys.exit("error: the pipeline did not give back the record JSON")
b = out("b")
if json.loads(b) != json.loads(expected):
    sys.exit("error: command b printed a record that differs from the one encoded")
c = out("c").decode(errors="replace")
if "observability" not in c or "deployed" not in c:
    sys.exit(f"error: command c did not print the summary: {c[:300]}")
with open(os.path.join(d, "sizes.txt"), "a") as f:
    f.write(f"b_output_bytes={len(b)}\n")
PY

python3 - <<'PY'
import os, resource, statistics, subprocess, sys, time

BIN, DIR = os.environ["BIN"], os.environ["DIR"]
RUNS, WARMUP = int(os.environ["RUNS"]), int(os.environ["WARMUP"])
sizes = dict(line.strip().split("=", 1) for line in open(os.path.join(DIR, "sizes.txt")) if "=" in line)
json_bytes, gzip_bytes = int(sizes["json_bytes"]), int(sizes["gzip_bytes"])
CMDS = [tuple(line.rstrip("\n").split("\t")) for line in open(os.path.join(DIR, "commands.tsv"))]
TIME_TARGET, MEM_FACTOR = 1.4, 4
mem_limit = MEM_FACTOR * json_bytes

GNU_TIME = os.environ.get("GNU_TIME") or "/usr/bin/time"
HAVE_GNU_TIME = os.access(GNU_TIME, os.X_OK)
rss_file = os.path.join(DIR, "rss.txt")

def run(shell_cmd):
    """Runs one command, stdout to /dev/null; returns (wall seconds, CPU seconds, peak RSS in bytes,
    exit status). CPU = user + system of the command and its children (wait4's rusage includes
    the descendants it reaped), plus GNU time's own ~0.5 ms."""
    argv = ["/bin/sh", "-c", shell_cmd]
    if HAVE_GNU_TIME:
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file] + argv
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from waiting again
    cpu = ru.ru_utime + ru.ru_stime
    if HAVE_GNU_TIME:
        with open(rss_file) as f:
            # On failure GNU time writes "Command exited with non-zero status N" before %M.
            return dt, cpu, int(f.read().split()[-1]) * 1024, p.returncode
    return dt, cpu, ru.ru_maxrss * 1024, p.returncode

load_start = os.getloadavg()
times = {k: [] for k, _, _ in CMDS}
cpus = {k: [] for k, _, _ in CMDS}
rss = {k: [] for k, _, _ in CMDS}
for _ in range(WARMUP):
    for k, _, cmd in CMDS:
        run(cmd)
for i in range(RUNS):
    order = CMDS[i % 3:] + CMDS[:i % 3]  # rotate, so no command always runs first
    for k, _, cmd in order:
        dt, cpu, peak, status = run(cmd)
        if status:
            sys.exit(f"error: command {k} exited with {status} in run {i + 1}")
        times[k].append(dt)
        cpus[k].append(cpu)
        rss[k].append(peak)
floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # only matters without GNU time

def mib(n):
    return f"{n / 1048576:.1f} MiB"

med = {k: statistics.median(v) for k, v in times.items()}
mn = {k: min(v) for k, v in times.items()}
cpu_med = {k: statistics.median(v) for k, v in cpus.items()}
peak = {k: max(v) for k, v in rss.items()}
b_out = int(sizes["b_output_bytes"])

print()
print("releasex decode benchmark")
print(f"  binary        {BIN}")
ncpu = os.cpu_count() or 1
load_end = os.getloadavg()
print(f"  machine       {ncpu} CPUs, 1-min load average {load_start[0]:.2f} at start, {load_end[0]:.2f} at end")
print(f"  record        JSON {json_bytes} B ({mib(json_bytes)}), gzip {gzip_bytes} B ({mib(gzip_bytes)}, "
      f"{json_bytes / gzip_bytes:.1f}x smaller), Helm base64 {sizes['helm_base64_bytes']} B, "
      f"payload.txt {sizes['payload_bytes']} B")
print(f"                {sizes['documents']} manifest documents, {sizes['templates']} chart templates; "
      f"b prints {b_out} B ({mib(b_out)}) of pretty JSON")
print(f"  runs          {RUNS} timed per command after {WARMUP} warm-up, interleaved")
if HAVE_GNU_TIME:
    print(f"  peak RSS      GNU time %M ({GNU_TIME}), max over runs")
else:
    print(f"  peak RSS      os.wait4 ru_maxrss, max over runs (no GNU time at {GNU_TIME}: a reading at or "
          f"below this harness's own peak, {mib(floor)}, is only an upper bound)")
print()
hdr = (f"{'':2} {'command':32} {'median':>9} {'min':>9} {'x a (med)':>9} {'x a (min)':>9} {'CPU med':>9} "
       f"{'peak RSS':>10} {'RSS/JSON':>8}")
print(hdr)
print("-" * len(hdr))
for k, label, _ in CMDS:
    print(f"{k:2} {label:32} {med[k] * 1000:7.1f}ms {mn[k] * 1000:7.1f}ms {med[k] / med['a']:8.2f}x {mn[k] / mn['a']:8.2f}x "
          f"{cpu_med[k] * 1000:7.1f}ms {mib(peak[k]):>10} {peak[k] / json_bytes:7.2f}x")
print("(wall times include /bin/sh and GNU time start-up; CPU med = median user+system time of all the")
print(" command's processes; the pipeline's three processes overlap on several CPUs, so its wall < CPU sum)")
# This harness keeps about one CPU busy itself; a load above the CPU count means others compete.
if max(load_start[0], load_end[0]) > ncpu:
    print(f"NOTE: the machine was busy (load average up to {max(load_start[0], load_end[0]):.2f} on {ncpu} CPUs): "
          "wall times and their ratios are noisy; rerun when idle or with more RUNS")
print()

verdicts = []
for k in ("b", "c"):
    ratio = med[k] / med["a"]
    v = "PASS" if ratio <= TIME_TARGET else "FAIL"
    verdicts.append(v)
    print(f"{v:7} time    {k}: median {med[k] * 1000:.1f} ms = {ratio:.2f}x the pipeline's "
          f"{med['a'] * 1000:.1f} ms (target <= {TIME_TARGET}x)")
for k in ("b", "c"):
    exact = HAVE_GNU_TIME or peak[k] > floor
    v = "PASS" if peak[k] <= mem_limit else ("FAIL" if exact else "UNKNOWN")
    verdicts.append(v)
    note = "" if exact else f" [upper bound only: no GNU time, reading <= harness peak {mib(floor)}]"
    print(f"{v:7} memory  {k}: peak RSS {mib(peak[k])} = {peak[k] / json_bytes:.2f}x the JSON size "
          f"(target <= {MEM_FACTOR}x = {mib(mem_limit)}){note}")
print()
overall = "PASS" if all(v == "PASS" for v in verdicts) else ("FAIL" if "FAIL" in verdicts else "UNKNOWN")
print(f"OVERALL {overall} ({verdicts.count('PASS')} of {len(verdicts)} checks met)")
PY
