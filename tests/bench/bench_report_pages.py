#!/usr/bin/python3
"""The report a person opens after a big night: its size and render time.

  bench_report_pages.py --build DIR [--devices N ...] [--keep DIR]

Issue 48: report.html for 20 scenarios x 5 scenes x 3 devices must stay
under 1 MB and render in headless Chromium in at most 3x the time of
email.html on the same machine; with 50 device keys, under 5 MB.

A night here is what a nightly gate sees on an ordinary evening, written
through the real commands: per device key, two baseline runs and tonight's
run of 20 scenarios x 5 scenes (6 iterations after a warm-up, 240 frames a
scene, frame times drawn by tests/e2e/data/report/mkrun.py's generator),
with one scene 30 % slower and one new main-thread block per device, so
the report has regressions to lead with and everything else passes.  Each
device is compared (`jankgate compare`), and all are reported at once
(`jankgate report`).  Printed per night: the size of report.html, of
everything report.html links to, of the whole directory, of email.html
(under 100 KB at any number of keys, or Gmail clips the mail) and of
email.txt; the median wall time of three headless Chromium screenshots
of report.html and of email.html (the browser's start-up is in both), and
their ratio.  The targets are printed beside the figures; nothing fails on
a number.
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SRC, "tests", "e2e", "data", "report"))
import mkrun  # noqa: E402  (the report cases' results generator)

SCENARIOS = 20
SCENES = 5
ITERATIONS = 6
BLOCK = ["android.os.MessageQueue.nativePollOnce(Native Method)",
         "com.example.shop.checkout.PriceCalculator.applyCoupons"
         "(PriceCalculator.java:88)",
         "java.math.BigDecimal.divide(BigDecimal.java:1760)"]


def results(key, run_id, seed, slow_at=None, block_at=None):
    """One results.json model of `key`: every scene at speed 1, the scene
    `slow_at` (scenario, scene) 30 % slower, a new block in `block_at`."""
    spec = {"key": key, "hz": 90}
    rng = random.Random(seed)
    out = {"schema": "jankgate.results/1",
           "run": {"id": run_id, "started": "2026-11-21T02:00:00Z",
                   "complete": True, "errors": []},
           "app": {"package": "com.example.shop", "version_name": "2.0",
                   "sources": ["gfxinfo", "startup", "blockcanary"]},
           "device": {"serial": "SIM-" + key, "manufacturer": "Google",
                      "model": "Pixel 7", "sdk": 34, "release": "14",
                      "refresh_hz": 90, "key": key},
           "hygiene": {"battery_pct": 87, "thermal_status": 0,
                       "animator_scale": 0, "screen_on": True},
           "warnings": [], "scenarios": []}
    for s in range(SCENARIOS):
        name = "scenario-%02d" % s
        its = []
        for i in range(1 + ITERATIONS):
            scenes = []
            for k in range(SCENES):
                where = (name, "scene-%d" % k)
                sc = mkrun.scene(rng, where[1], k, spec,
                                 1.3 if where == slow_at else 1.0,
                                 "com.example.shop.Screen%d" % k)
                if where == block_at:
                    sc["blocks"].append({
                        "source": "blockcanary", "kind": "BLOCK",
                        "wall_ms": 480, "stack": BLOCK,
                        "signature": mkrun.signature(BLOCK)})
                scenes.append(sc)
            its.append({"index": i, "warmup": i == 0, "ok": True,
                        "error": None,
                        "startup": {"kind": "cold",
                                    "total_ms": round(420 + rng.uniform(-15, 15)),
                                    "displayed_ms": 460},
                        "scenes": scenes})
        out["scenarios"].append({"name": name, "file": "scenarios/x.scn",
                                 "sha256": None, "iterations": its})
    return out


def write(path, model):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(model, f)


def run(argv, ok=(0, 1)):
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode not in ok:
        raise SystemExit("bench: %s failed (%d): %s" % (argv[1], r.returncode,
                                                        r.stderr.strip()))


def dir_size(d):
    return sum(os.path.getsize(os.path.join(p, f))
               for p, _, fs in os.walk(d) for f in fs)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def render_ms(browser, page, tmp, n=3):
    """Median wall time of `n` headless screenshots of `page` at 1280 px."""
    times = []
    for i in range(n):
        png = os.path.join(tmp, "shot-%d.png" % i)
        t0 = time.perf_counter()
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--window-size=1280,1600",
                        "--user-data-dir=" + os.path.join(tmp, "profile"),
                        "--screenshot=" + png, "file://" + os.path.abspath(page)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=600)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def night(build, devices, tmp, browser):
    jg = os.path.join(build, "jankgate")
    cmps = []
    for d in range(devices):
        key = "google-pixel-%d-api34-90hz" % (d + 1)
        slow = ("scenario-%02d" % (d % SCENARIOS), "scene-%d" % (d % SCENES))
        block = ("scenario-%02d" % ((d + 7) % SCENARIOS), "scene-2")
        dd = os.path.join(tmp, key)
        os.makedirs(dd)
        for rid, seed in (("b1", 1), ("b2", 2)):
            write(os.path.join(dd, rid + ".json"),
                  results(key, rid, seed + 10 * d))
        write(os.path.join(dd, "c1.json"),
              results(key, "c1", 3 + 10 * d, slow, block))
        cmp = os.path.join(dd, "comparison.json")
        run([jg, "compare", os.path.join(dd, "c1.json"),
             "--baseline", os.path.join(dd, "b1.json"),
             "--baseline", os.path.join(dd, "b2.json"), "-o", cmp])
        cmps.append(cmp)
    out = os.path.join(tmp, "report")
    run([jg, "report"] + cmps + ["-o", out])
    size = os.path.getsize(os.path.join(out, "report.html"))
    pages = sum(os.path.getsize(os.path.join(out, f))
                for f in os.listdir(out)
                if f.endswith(".html") and f not in ("report.html", "email.html"))
    pages += dir_size(os.path.join(out, "devices")) \
        if os.path.isdir(os.path.join(out, "devices")) else 0
    email = os.path.getsize(os.path.join(out, "email.html"))
    text = os.path.getsize(os.path.join(out, "email.txt"))
    target = 1 if devices <= 3 else 5
    print("report: a night of %d scenarios x %d scenes x %d device keys, one "
          "scene 30 %% slower\n  and one new block per key" %
          (SCENARIOS, SCENES, devices))
    print("  report.html %9.1f KB   [target <= %d MB: %s]" %
          (size / 1024, target, "met" if size <= target * 1024 * 1024
           else "NOT met"))
    print("  pages it links to %9.1f KB;  whole directory %9.1f KB" %
          (pages / 1024, dir_size(out) / 1024))
    print("  email.html  %9.1f KB   [target < 100 KB, or Gmail clips it: %s]"
          % (email / 1024, "met" if email < 100 * 1024 else "NOT met"))
    print("  email.txt   %9.1f KB" % (text / 1024))
    if not browser:
        print("  render: skipped (no chromium)")
        return
    r = render_ms(browser, os.path.join(out, "report.html"), tmp)
    e = render_ms(browser, os.path.join(out, "email.html"), tmp)
    print("  render in headless Chromium (median of 3, start-up included): "
          "report.html %.0f ms, email.html %.0f ms, ratio %.2fx "
          "[target <= 3x: %s]" % (r, e, r / e, "met" if r <= 3 * e
                                  else "NOT met"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--devices", type=int, action="append")
    ap.add_argument("--keep", help="write the nights here and keep them")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    browser = chromium()
    for n in a.devices or [3, 50]:
        if a.keep:
            tmp = os.path.join(os.path.abspath(a.keep), "keys-%d" % n)
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
        else:
            tmp = tempfile.mkdtemp(prefix="jg-bench-pages-")
        try:
            sys.stdout.flush()
            night(build, n, tmp, browser)
        finally:
            if not a.keep:
                shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
