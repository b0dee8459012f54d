#!/usr/bin/python3
"""Benchmark of `jankgate run` on simulated phones (issue 5, "Measured").

Three figures, printed with their targets:

  scene silence   every command the phones ran, from their --log, during a
                  full run of the demo shop suite on 4 phones: between a
                  scene's `dumpsys gfxinfo PKG reset` and its `framestats`
                  only the scenario's own `input` may appear (target 0
                  others).  The windows jankgate recorded in results.json
                  are checked the same way.
  step overhead   host time per scenario step: the same scenario with 20
                  and with 220 `tap` steps on a phone whose clock is
                  virtual (its commands cost no host time), so the slope
                  is what jankgate and the adb server add per step.
  scaling         wall time of the same suite (demo shop.scn, 2
                  iterations, no warm-up) on 1 phone and on 4 at once
                  (target: 4 phones <= 1.25x the time of 1).

Called from run.py (`make bench`) with its Rig; runs alone as
`bench_run.py [--build DIR]`.
"""

import glob
import json
import os
import re
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKG = "com.example.shop"
LOG_LINE = re.compile(r"^(\d+\.\d+) (\S+) (.*)$")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def apk(tmp):
    """A real zip APK of the simulated shop (tests/e2e/mkapk.py), once."""
    path = os.path.join(tmp, "shop.apk")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(SRC, "tests/e2e/mkapk.py"),
                        path, "--model",
                        os.path.join(SRC, "tests/simdevice/apps/shop-v1.json")],
                       check=True)
    return path


def config(tmp, name, scenarios, extra=""):
    path = os.path.join(tmp, name)
    write(path, json.dumps({
        "app": PKG,
        "apk": apk(tmp),
        "sources": ["gfxinfo", "startup", "choreographer"],
        "scenarios": scenarios,
    }))
    return path


def run_jankgate(build, env, cfg, out, *args):
    t0 = time.perf_counter()
    r = subprocess.run([os.path.join(build, "jankgate"), "run", "-c", cfg, "-o", out, "-q"] + list(args),
                       env=env, capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - t0
    if r.returncode:
        raise SystemExit("bench: jankgate run exited %d: %s" % (r.returncode, r.stderr.strip()))
    return wall


def log_commands(path):
    """(time_ms, kind, command) for every line of a simdevice --log."""
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LOG_LINE.match(line.rstrip("\n"))
        if m:
            out.append((float(m.group(1)), m.group(2), m.group(3)))
    return out


def is_input(cmd):
    return cmd.startswith("input ")


def silence_by_log(cmds):
    """Windows from reset to framestats in the log itself: (windows, others)."""
    windows = others = 0
    inside = False
    for _, _, cmd in cmds:
        if re.match(r"dumpsys gfxinfo '?%s'? reset" % re.escape(PKG), cmd):
            inside, windows = True, windows + 1
        elif re.match(r"dumpsys gfxinfo '?%s'? framestats" % re.escape(PKG), cmd):
            inside = False
        elif inside and not is_input(cmd):
            others += 1
            print("    inside a scene: %s" % cmd)
    return windows, others


def silence_by_results(cmds, results):
    """Commands strictly inside the recorded windows (1 ms margin: Uptime is whole ms)."""
    windows = others = 0
    for s in results["scenarios"]:
        for it in s["iterations"]:
            for sc in it["scenes"]:
                lo, hi = sc["start_mono_ms"], sc["end_mono_ms"]
                if lo is None or hi is None:
                    continue
                windows += 1
                for t, _, cmd in cmds:
                    if lo + 1 < t < hi - 1 and not is_input(cmd):
                        others += 1
    return windows, others


def bench_run(build, Rig):
    print("run: the demo shop suite on simulated phones (real adb server)")
    demo = os.path.join(SRC, "scenarios/demo/shop.scn")

    # 1 phone, then 4 phones, same suite; the 4-phone logs feed the silence check.
    walls = {}
    for n in (1, 4):
        rig = Rig(build)
        try:
            rig.start()
            logs = []
            for i in range(n):
                log = os.path.join(rig.tmp, "phone%d.log" % i)
                logs.append((rig.simdevice("--seed", str(i + 1), "--log", log), log))
            cfg = config(rig.tmp, "jankgate.json", [demo])
            out = os.path.join(rig.tmp, "out")
            walls[n] = run_jankgate(build, rig.env, cfg, out, "-n", "2", "--warmups", "0")
            if n == 4:
                results = {}
                for f in glob.glob(os.path.join(out, "*", "results.json")):
                    r = json.load(open(f))
                    results[r["device"]["serial"]] = r
                win = oth = rwin = roth = ncmd = nin = 0
                for serial, log in logs:
                    cmds = log_commands(log)
                    ncmd += len(cmds)
                    nin += sum(1 for c in cmds if is_input(c[2]))
                    w, o = silence_by_log(cmds)
                    win, oth = win + w, oth + o
                    if serial in results:
                        w, o = silence_by_results(cmds, results[serial])
                        rwin, roth = rwin + w, roth + o
                print("  scene silence: %d commands on 4 phones (%d of them input), %d scene windows" % (ncmd, nin, win))
                print("    other commands between reset and framestats in the logs: %d (target 0)" % oth)
                print("    other commands inside the %d windows results.json records: %d (target 0)" % (rwin, roth))
        finally:
            rig.stop()
    print("  scaling: 1 phone %.1f s, 4 phones %.1f s: %.2fx (target <= 1.25x)"
          % (walls[1], walls[4], walls[4] / walls[1]))

    # Host overhead per step: the slope between 20 and 220 taps, virtual clock.
    rig = Rig(build)
    try:
        rig.start()
        rig.simdevice("--clock", "virtual")
        durations = {}
        for steps in (20, 220):
            scn = os.path.join(rig.tmp, "taps%d.scn" % steps)
            write(scn, "launch cold\nrepeat %d\n  tap 50%% 50%%\nend\n" % steps)
            cfg = config(rig.tmp, "taps%d.json" % steps, [scn])
            out = os.path.join(rig.tmp, "out%d" % steps)
            run_jankgate(build, rig.env, cfg, out, "-n", "5", "--warmups", "1")
            r = json.load(open(glob.glob(os.path.join(out, "*", "results.json"))[0]))
            its = [it["duration_ms"] for it in r["scenarios"][0]["iterations"] if not it["warmup"]]
            its.sort()
            durations[steps] = its[len(its) // 2]
        per = (durations[220] - durations[20]) / 200.0
        print("  step overhead: iteration of 20 taps %.0f ms, of 220 taps %.0f ms (medians of 5):"
              % (durations[20], durations[220]))
        print("    %.2f ms of host time per input step (jankgate + adb server + shell round trip)" % per)
    finally:
        rig.stop()


def main():
    import argparse
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run import Rig
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    bench_run(os.path.abspath(a.build), Rig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
