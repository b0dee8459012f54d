#!/usr/bin/python3
"""Check a results.json from `jankgate run` against a simdevice's truth file.

The simulated phone writes every frame and launch it made up, with times on
its monotonic clock (tests/simdevice/APPMODEL.md, "Ground truth").  For each
measured scene this script takes the truth frames whose FrameCompleted falls
in the scene's window (gfxinfo counts a frame once its FrameCompleted is
past, and the reset clears the ones before), bins them as hwui does, and
compares:

  frames           the count, within SLACK_FRAMES (the window's ends are
                   whole milliseconds, so a frame at either edge may fall
                   on the other side)
  p50, p90, p99    within one histogram bucket of the truth's percentile,
                   read by hwui's rule (walk down from the slowest bucket)

with --jank-types, each scene's SurfaceFlinger jank types (API 31+):

  jank_types       per type, within SLACK_JANK of the truth frames of the
                   app SurfaceFlinger's dump at the scene's end shows: those
                   presented by then, in the last 64 display frames (one per
                   distinct present time of any app), from the scene's first
                   vsync id on (the oldest of the newest 120 frames of each
                   window, as PROFILEDATA keeps them)

and for each iteration's startup (the cold launch of its `launch cold`
step, matched to the truth's cold launches in order):

  total_ms         within 1 ms of the truth's TotalTime
  displayed_ms     within 1 ms, when the results have it

Usage: truthcheck.py RESULTS.json TRUTH.jsonl [--min-scenes N] [--min-launches N]
                     [--jank-types]
Prints one line per mismatch and a summary; exits 1 on any mismatch or
when fewer scenes or launches than asked for were checked.
"""

import argparse
import json
import sys

SLACK_FRAMES = 2
# A frame presented between the framestats dump and SurfaceFlinger's.
SLACK_JANK = 1
SF_DISPLAY_FRAMES = 64
RING = 120
MS = 1000000
JANK_NAMES = {"App Deadline Missed": "app_deadline_missed",
              "Buffer Stuffing": "buffer_stuffing",
              "Display HAL": "display_hal"}


def expected_jank(all_frames, app_frames, lo, hi):
    """The jank type counts SurfaceFlinger's dump at `hi` shows for the
    app frames of the scene (lo, hi]."""
    scene = [f for f in app_frames if lo < f["end_ns"] <= hi]
    by_act = {}
    for f in sorted(scene, key=lambda f: f["end_ns"]):
        by_act.setdefault(f["activity"], []).append(f)
    kept = [f for fs in by_act.values() for f in fs[-RING:]]
    if not kept:
        return None
    first = min(f["vsync_id"] for f in kept)
    ticks = sorted({f["present_ns"] for f in all_frames if f["present_ns"] <= hi})
    ticks = set(ticks[-SF_DISPLAY_FRAMES:])
    counts = {v: 0 for v in JANK_NAMES.values()}
    for f in app_frames:
        if f["present_ns"] in ticks and f["vsync_id"] >= first and f["sf_jank"] != "None":
            for name in f["sf_jank"].split(", "):
                counts[JANK_NAMES[name]] += 1
    return counts


def bucket_index(ms):
    """hwui's histogram: 1 ms buckets 5..32, 2 ms to 48, 4 ms to 133, then
    50 ms buckets from 150; one ordered index over all of them."""
    if ms >= 136:
        slow = 0 if ms < 150 else (ms - 150) // 50
        return 57 + min(slow, 96)
    if ms <= 5:
        return 0
    x = ms
    if x > 48:
        x = 48 + (x - 48) // 2
    if x > 32:
        x = 32 + (x - 32) // 2
    return x - 5


def label_index(label):
    """The index of the bucket a reported value (a bucket label) names."""
    label = int(round(label))
    if label >= 150:
        return 57 + min((label - 150) // 50, 96)
    return bucket_index(label)


def percentile_index(indices, p):
    """hwui's percentile over bucket indices: walk down from the top."""
    counts = {}
    for i in indices:
        counts[i] = counts.get(i, 0) + 1
    total = len(indices)
    remaining = total - p * total // 100
    for i in sorted(counts, reverse=True):
        remaining -= counts[i]
        if remaining <= 0:
            return i
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("truth")
    ap.add_argument("--min-scenes", type=int, default=1)
    ap.add_argument("--min-launches", type=int, default=1)
    ap.add_argument("--jank-types", action="store_true")
    a = ap.parse_args()

    res = json.load(open(a.results))
    pkg = res["app"]["package"]
    frames, cold, everyone = [], [], []
    for line in open(a.truth):
        t = json.loads(line)
        if t["kind"] == "frame":
            everyone.append(t)
        if t.get("package") != pkg:
            continue
        if t["kind"] == "frame":
            frames.append(t)
        elif t["kind"] == "launch" and t["state"] == "cold":
            cold.append(t)

    bad, scenes, launches, janks = [], 0, 0, 0
    iterations = [it for s in res["scenarios"] for it in s["iterations"]]
    for it in iterations:
        where = "iteration %d" % it["index"]
        for sc in it["scenes"]:
            if not it["ok"] or sc["start_mono_ms"] is None or sc["end_mono_ms"] is None:
                continue
            lo, hi = sc["start_mono_ms"] * MS, sc["end_mono_ms"] * MS
            got = [f for f in frames if lo < f["end_ns"] <= hi]
            idx = [bucket_index(f["duration_ns"] // MS) for f in got]
            fr = sc["frames"]
            name = "%s scene '%s'" % (where, sc["name"])
            scenes += 1
            if fr["count"] is None or abs(fr["count"] - len(got)) > SLACK_FRAMES:
                bad.append("%s: %s frames, truth %d" % (name, fr["count"], len(got)))
                continue
            for p in (50, 90, 99):
                v = fr["p%d_ms" % p]
                want = percentile_index(idx, p)
                if v is None or abs(label_index(v) - want) > 1:
                    bad.append("%s: p%d %s ms, truth bucket %d (got bucket %s)"
                               % (name, p, v, want, None if v is None else label_index(v)))
            if a.jank_types:
                want = expected_jank(everyone, frames, lo, hi)
                got = sc.get("jank_types")
                if got is None or want is None:
                    bad.append("%s: jank types %s, truth %s" % (name, got, want))
                    continue
                janks += 1
                for k, v in want.items():
                    if abs(got[k] - v) > SLACK_JANK:
                        bad.append("%s: %s %s, truth %d" % (name, k, got[k], v))
                for k in ("sf_cpu_deadline_missed", "sf_gpu_deadline_missed",
                          "prediction_error", "sf_scheduling", "unknown"):
                    if got[k]:
                        bad.append("%s: %s %s, truth 0" % (name, k, got[k]))
    cold_iters = [it for it in iterations if it["startup"] and it["startup"]["kind"] == "cold"]
    for it, t in zip(cold_iters, cold):
        st = it["startup"]
        launches += 1
        if st["total_ms"] is None or abs(st["total_ms"] - t["total_ms"]) > 1:
            bad.append("iteration %d: startup total %s ms, truth %s ms"
                       % (it["index"], st["total_ms"], t["total_ms"]))
        truth_disp = (t["displayed_ns"] - t["start_ns"]) / MS
        if st.get("displayed_ms") is not None and abs(st["displayed_ms"] - truth_disp) > 1:
            bad.append("iteration %d: displayed %s ms, truth %.1f ms"
                       % (it["index"], st["displayed_ms"], truth_disp))
    if len(cold_iters) != len(cold):
        bad.append("%d iterations with a cold launch, %d cold launches in the truth"
                   % (len(cold_iters), len(cold)))
    for b in bad:
        print("mismatch: " + b)
    print("%d scenes and %d launches checked, %d mismatches%s"
          % (scenes, launches, len(bad),
             ", %d jank type counts" % janks if a.jank_types else ""))
    if scenes < a.min_scenes or launches < a.min_launches:
        print("too little checked: want %d scenes and %d launches" % (a.min_scenes, a.min_launches))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
