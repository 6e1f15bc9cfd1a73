#!/usr/bin/env python3
"""Runs one command and reports how it ended and what it cost, as one JSON
line on this script's stderr's last line (the child's own stdout/stderr pass
through to files named by the caller).

Usage: measure.py TIMEOUT_SECONDS STDOUT_FILE STDERR_FILE -- CMD ARGS...

Python's resource.getrusage(RUSAGE_CHILDREN) gives the child's peak resident
set (ru_maxrss, KiB on Linux) without unsafe code in the Rust tests; the
child is killed (SIGKILL, process group) when the timeout passes.
"""
import json, os, resource, signal, subprocess, sys, time

timeout = float(sys.argv[1])
out_path, err_path = sys.argv[2], sys.argv[3]
assert sys.argv[4] == "--"
cmd = sys.argv[5:]
stdin_data = sys.stdin.buffer.read() if os.environ.get("MEASURE_STDIN") == "1" else None
start = time.monotonic()
with open(out_path, "wb") as out, open(err_path, "wb") as err:
    child = subprocess.Popen(cmd, stdout=out, stderr=err,
                             stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
                             start_new_session=True)
    timed_out = False
    try:
        child.communicate(input=stdin_data, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
wall = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
code = child.returncode
print(json.dumps({
    "code": code if code >= 0 else None,
    "signal": -code if code < 0 else None,
    "timed_out": timed_out,
    "wall_seconds": round(wall, 3),
    "max_rss_kib": usage.ru_maxrss,
}), file=sys.stderr)
