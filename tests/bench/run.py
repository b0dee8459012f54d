#!/usr/bin/python3
"""Benchmarks for jankgate: `make bench` runs this and it prints its figures.

Each benchmark starts what it needs on loopback (a private adb server,
simulated devices), measures, stops everything by pid, and prints one block
of figures.  Benchmarks never fail on a number; they report it, with the
target next to it, so a person reading the output judges.

adb: shell round trip through jankgate's client (in one process, as
jankgate uses it) against the adb CLI (one process per command, as scripts
use it), on the same simulated device in the same run; then push and pull
throughput of 5 MiB through the client.  Target: client >= 3x faster per
command than the CLI.

baseline: open the git store and read the last 5 runs of each of 10 devices
from a repository of 1,000 runs; target < 100 ms.

store: a year of nights, 50 keys x 365 nights of 5-iteration runs recorded
through the record path (bench_store.c): record, compare --against and log
at 1,000 runs and after (target: at most 1.2x), size and file count before
and after gc (target: at most 1,000 files).

gate: the peak memory of gate's compare and report over 5 and over 50
device keys without phones, each key's window in a real store
(bench_gate.c); target: 50 keys at most 2x the peak of 5.

compare: false-alarm rate and power on synthetic nights (bench_compare.c).

report: the size of email.html for 20 scenarios x 5 scenes x 3 devices with
every explanation (bench_report.c); target < 100 KB.  Then report.html
of an ordinary night of that size, and of 50 device keys, written through
`jankgate compare` and `jankgate report` (bench_report_pages.py): its size
(targets <= 1 MB and <= 5 MB) and its render time in headless Chromium
against email.html's (target <= 3x).

run: commands inside scene windows, host overhead per step, and 1 versus 4
phones (bench_run.py).

Usage: run.py [--build DIR] [--n N]
"""

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import bench_run


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Rig:
    """A private adb server and simulated devices, stopped by pid."""

    def __init__(self, build):
        self.build = build
        self.tmp = tempfile.mkdtemp(prefix="jg-bench-")
        self.procs = []
        self.port = free_port()
        self.env = dict(os.environ, HOME=self.tmp, ADB_MDNS="0", ADB_USB="0",
                        ADB_EMU="0", ANDROID_ADB_SERVER_PORT=str(self.port))
        self.env.pop("ADB_SERVER_SOCKET", None)

    def start(self):
        p = subprocess.Popen(["adb", "-P", str(self.port), "server", "nodaemon"],
                             env=self.env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(p)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("bench: adb server did not start")

    def simdevice(self, *opts):
        pf = os.path.join(self.tmp, "dev%d.port" % len(self.procs))
        p = subprocess.Popen([os.path.join(self.build, "simdevice"), "--port-file", pf] + list(opts),
                             env=self.env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(p)
        for _ in range(200):
            if os.path.exists(pf) and open(pf).read().strip():
                break
            time.sleep(0.02)
        serial = "127.0.0.1:" + open(pf).read().strip()
        self.adb("connect", serial)
        for _ in range(200):
            if self.adb("-s", serial, "get-state").stdout.strip() == b"device":
                return serial
            time.sleep(0.05)
        raise SystemExit("bench: simdevice did not attach")

    def adb(self, *args):
        return subprocess.run(["adb", "-P", str(self.port)] + list(args),
                              env=self.env, capture_output=True, timeout=30)

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(self.tmp, ignore_errors=True)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def bench_adb(build, n):
    rig = Rig(build)
    try:
        rig.start()
        serial = rig.simdevice("--model", "BenchPhone")
        r = subprocess.run([os.path.join(build, "adbprobe"), "bench", serial, str(n)],
                           env=rig.env, capture_output=True, text=True, timeout=300)
        if r.returncode:
            raise SystemExit("bench: adbprobe failed: " + r.stderr)
        figures = dict(line.split(None, 1) for line in r.stdout.splitlines())
        client = dict(kv.split("=") for kv in figures["client_shell_ms"].split())
        cli = []
        for _ in range(n):
            t0 = time.perf_counter()
            rr = rig.adb("-s", serial, "shell", "true")
            cli.append((time.perf_counter() - t0) * 1e3)
            if rr.returncode:
                raise SystemExit("bench: adb shell failed")
        cmed, cp95 = statistics.median(cli), pct(cli, 0.95)
        jmed = float(client["median"])
        print("adb: shell round trip on one simulated device, %d runs each" % n)
        print("  %-34s median %7.3f ms   p95 %7.3f ms" % ("jankgate client (in process)", jmed, float(client["p95"])))
        print("  %-34s median %7.3f ms   p95 %7.3f ms" % ("adb CLI (`adb shell true`)", cmed, cp95))
        print("  client speed-up per command: %.1fx (target >= 3x)" % (cmed / jmed))
        print("  push 5 MiB: %s MB/s   pull 5 MiB: %s MB/s" % (figures["client_push_MBps"].strip(),
                                                          figures["client_pull_MBps"].strip()))
    finally:
        rig.stop()


SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_in(build, *names):
    """Build NAMES in BUILD through make (SANITIZE=1 for build-san, so the
    sanitizers follow --build); exit when one cannot be built."""
    base = os.path.basename(build)
    cmd = ["make", "--no-print-directory", "-s"]
    if base == "build-san":
        cmd.append("SANITIZE=1")
    cmd += [os.path.join(base, n) for n in names]
    if subprocess.run(cmd, cwd=SRC).returncode:
        raise SystemExit("bench: cannot build " + " ".join(names))


def run_scratch(build, name, args):
    """Run BUILD/NAME with args(DIR), DIR a scratch directory made for it
    and removed after; its output goes straight to ours.  Exit on failure."""
    tmp = tempfile.mkdtemp(prefix="jg-%s-" % name)
    try:
        sys.stdout.flush()
        if subprocess.run([os.path.join(build, name)] + args(tmp)).returncode:
            raise SystemExit("bench: %s failed" % name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_compare(build):
    """False-alarm rate and power of compare (tests/bench/bench_compare.c).

    Builds build/bench-compare through make (so SANITIZE follows --build)
    and prints what it prints; four to five minutes on two cores
    (JG_BENCH_NIGHTS=200 for a rough look in one).
    """
    make_in(build, "bench-compare")
    nights = os.environ.get("JG_BENCH_NIGHTS", "1000")
    sys.stdout.flush()
    r = subprocess.run([os.path.join(build, "bench-compare"), "--nights", nights])
    if r.returncode:
        raise SystemExit("bench: bench-compare failed")
    write_validation(SRC, build)


def write_between_markers(path, table):
    """Put `table` (its own begin and end marker lines included) in place
    of what lies between the markers in `path`, or before its first
    second-level heading when it has none: the sections written by hand
    around it (what changed, and why) stay."""
    begin, end = "<!-- make bench: begin", "<!-- make bench: end -->"
    try:
        with open(path) as f:
            old = f.read()
    except FileNotFoundError:
        old = "# Validation: the verdict on real-phone noise\n\n"
    if begin in old and end in old:
        head = old[:old.index(begin)]
        tail = old[old.index(end) + len(end):].lstrip("\n")
        new = head + table + ("\n" + tail if tail else "")
    elif "\n## " in old:
        at = old.index("\n## ") + 1
        new = old[:at] + table + "\n" + old[at:]
    else:
        new = old.rstrip("\n") + "\n\n" + table
    with open(path, "w") as f:
        f.write(new)


def write_validation(src, build):
    """The real-phone rows (issue 46) at JG_BENCH_REAL_NIGHTS nights a row
    (default 400), printed and written to docs/validation.md with the
    commit and seed they were measured at."""
    nights = os.environ.get("JG_BENCH_REAL_NIGHTS", "400")
    sys.stdout.flush()
    r = subprocess.run([os.path.join(build, "bench-compare"), "--only", "real",
                        "--nights", nights], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode:
        raise SystemExit("bench: bench-compare --only real failed")
    commit = subprocess.run(["git", "describe", "--always", "--dirty"],
                            cwd=src, stdout=subprocess.PIPE, text=True,
                            check=False).stdout.strip() or "unknown"
    rows = r.stdout  # its header names the seed
    # issue 53: the share of 200 bisects that name the true culprit
    b = subprocess.run([os.path.join(build, "bench-compare"), "--only",
                        "bisect"], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(b.stdout)
    if b.returncode:
        raise SystemExit("bench: bench-compare --only bisect failed")
    rows += "".join(l + "\n" for l in b.stdout.splitlines()
                    if not l.startswith(("compare:", "  40 recorded",
                                         "  iterations of undecided")))
    path = os.path.join(src, "docs", "validation.md")
    table = ("<!-- make bench: begin (tests/bench/run.py rewrites what "
             "lies between these lines) -->\n"
             "## Latest `make bench`\n\n"
             "Written by `make bench` (tests/bench/run.py) from "
             "`bench-compare --only real --nights %s`\n"
             "and `--only bisect`\n"
             "at commit %s, %s.  `make bench-check` runs the same rows "
             "at 100 nights a row\nand fails on a bound broken beyond its "
             "95 %% interval.  What each row is: the\ncomment of "
             "bench_real() in tests/bench/bench_compare.c.\n\n```\n%s```\n"
             "<!-- make bench: end -->\n"
             % (nights, commit, time.strftime("%Y-%m-%d"), rows))
    write_between_markers(path, table)
    print("bench: wrote", path)


def bench_baseline(build):
    """Assembling a baseline sample from 1,000 runs for 10 devices
    (tests/bench/bench_baseline.c); target < 100 ms."""
    make_in(build, "bench-baseline")
    run_scratch(build, "bench-baseline", lambda tmp: [tmp])


def bench_store(build):
    """A year of nights in the baseline store: 50 keys x 365 nights of
    5-iteration runs through the record path (tests/bench/bench_store.c);
    record, compare --against and log at 1,000 runs and after, size and
    files before and after gc.  Some 10 minutes on two cores
    (JG_BENCH_STORE_NIGHTS=24 for a rough look in one)."""
    make_in(build, "bench-store", "jankgate")
    nights = os.environ.get("JG_BENCH_STORE_NIGHTS", "365")
    run_scratch(build, "bench-store", lambda tmp: [
        "--nights", nights, os.path.join(build, "jankgate"),
        os.path.join(SRC, "tests", "unit", "data", "results", "full.json"),
        tmp])


def bench_gate(build):
    """The memory of gate over many device keys (tests/bench/bench_gate.c):
    peak resident size of compare and report over 5 and 50 keys, each with
    a window of baseline.history runs recorded through the record path;
    target 50 keys <= 2x 5 keys.  Two to four minutes on two cores."""
    make_in(build, "bench-gate")
    run_scratch(build, "bench-gate", lambda tmp: [
        os.path.join(SRC, "tests", "unit", "data", "results", "full.json"),
        tmp])


def bench_report(build):
    """The mail and the report of the largest night (20 scenarios x 5 scenes
    x 3 devices, everything regressed and explained; tests/bench/
    bench_report.c); target: email.html < 100 KB."""
    make_in(build, "bench-report")
    run_scratch(build, "bench-report", lambda tmp: [tmp])
    sys.stdout.flush()
    if subprocess.run([sys.executable, os.path.join(SRC, "tests", "bench",
                                                    "bench_report_pages.py"),
                       "--build", build]).returncode:
        raise SystemExit("bench: bench_report_pages.py failed")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=300)
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if not shutil.which("adb"):
        print("adb: skipped (adb is not installed)")
        print("run: skipped (adb is not installed)")
    else:
        bench_adb(build, a.n)
        sys.stdout.flush()
        bench_run.bench_run(build, Rig)
    bench_baseline(build)
    bench_store(build)
    bench_gate(build)
    bench_report(build)
    bench_compare(build)
    return 0


if __name__ == "__main__":
    sys.exit(main())
