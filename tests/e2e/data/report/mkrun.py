#!/usr/bin/python3
"""Write a results.json with frame histograms, launches and blocks, for the
report end-to-end cases.

The report draws what compare does not keep: frame-time distributions,
hygiene, warnings, failed iterations and block stacks.  This writes a valid
jankgate.results/1 file from a small JSON spec, with frame times drawn from
a seeded generator, so a case can say "the same app, 30% slower":

  mkrun.py OUT SPEC.json [--run-id ID] [--seed N] [--slow F] [--serial S]
                         [--fail N] [--error MSG]

SPEC = { "key": "google-pixel-7-api34-90hz", "serial": "...", "hz": 90,
         "iterations": 6, "warmups": 1, "startup_ms": 420,
         "scenarios": [ { "name": "...", "scenes": ["...", ...],
                          "activity": "..." } ],
         "blocks":   [ { "scenario", "scene", "stack": [...], "wall_ms",
                         "runs": [run ids that have it; absent: all] } ],
         "warnings": [ { "source", "scope", "message" } ],
         "hygiene":  { ... } }

--slow multiplies every frame and launch time; --fail N makes the last N
iterations of each scenario failed ones; --error adds an infrastructure
error to run.errors.  Names may hold anything (the hostile-string case
puts markup in them): they go into JSON as they are.
"""

import argparse
import hashlib
import json
import random


def frame_times(rng, n, base, slow):
    """n frame times in ms: mostly near `base`, a tail of slow frames."""
    out = []
    for _ in range(n):
        t = base + rng.expovariate(1 / 2.0)
        if rng.random() < 0.04:
            t += rng.uniform(10, 40)
        out.append(t * slow)
    return out


def bucket(ms):
    """gfxinfo's HISTOGRAM buckets: 1 ms to 32 ms, then coarser."""
    if ms < 32:
        return int(ms)
    if ms < 50:
        return int(ms) // 2 * 2
    if ms < 150:
        return int(ms) // 5 * 5
    return min(int(ms) // 50 * 50, 4950)


def percentile(sorted_times, p):
    i = min(len(sorted_times) - 1, int(p / 100 * len(sorted_times)))
    return float(bucket(sorted_times[i]))


def scene(rng, name, index, spec, slow, activity):
    times = frame_times(rng, 240, 6 + index, slow)
    budget = 1000 / spec.get("hz", 60)
    hist = {}
    for t in times:
        hist[str(bucket(t))] = hist.get(str(bucket(t)), 0) + 1
    s = sorted(times)
    return {"name": name, "app_scenes": [activity] if activity else [],
            "frames": {"count": len(times),
                       "janky": sum(t > budget for t in times),
                       "slow": sum(t >= 17 for t in times),
                       "frozen": sum(t >= 700 for t in times),
                       "p50_ms": percentile(s, 50), "p90_ms": percentile(s, 90),
                       "p95_ms": percentile(s, 95), "p99_ms": percentile(s, 99),
                       "histogram": dict(sorted(hist.items(), key=lambda kv: int(kv[0])))},
            "blocks": []}


def signature(stack):
    """Stable across processes (unlike hash()), as a real one must be."""
    return hashlib.sha1("\n".join(stack).encode()).hexdigest()[:16]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("spec")
    ap.add_argument("--run-id", default="run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slow", type=float, default=1.0)
    ap.add_argument("--serial")
    ap.add_argument("--fail", type=int, default=0)
    ap.add_argument("--error", action="append", default=[])
    a = ap.parse_args()
    spec = json.load(open(a.spec, encoding="utf-8"))
    rng = random.Random(a.seed)
    n = spec.get("iterations", 6)
    warmups = spec.get("warmups", 1)

    out = {"schema": "jankgate.results/1",
           "run": {"id": a.run_id, "started": "2026-11-21T02:00:00Z",
                   "complete": not a.error, "errors": a.error},
           "app": {"package": spec.get("package", "com.example.shop"),
                   "version_name": spec.get("version", "2.0"),
                   "sources": ["gfxinfo", "startup", "blockcanary"]},
           "device": {"serial": a.serial or spec.get("serial", "SIM0001"),
                      "manufacturer": "Google", "model": spec.get("model", "Pixel 7"),
                      "sdk": 34, "release": "14", "refresh_hz": spec.get("hz", 90),
                      "key": spec["key"]},
           "hygiene": spec.get("hygiene", {"battery_pct": 87, "thermal_status": 0,
                                           "animator_scale": 0, "screen_on": True}),
           "warnings": spec.get("warnings", []),
           "scenarios": []}
    for sc in spec["scenarios"]:
        its = []
        for i in range(warmups + n):
            ok = i < warmups + n - a.fail
            it = {"index": i, "warmup": i < warmups, "ok": ok,
                  "error": None if ok else "activity did not start: " + sc.get("activity", "?"),
                  "startup": {"kind": "cold",
                              "total_ms": round(spec.get("startup_ms", 400) * a.slow
                                                + rng.uniform(-15, 15)),
                              "displayed_ms": round(spec.get("startup_ms", 400) * a.slow * 1.1)},
                  "scenes": [scene(rng, name, k, spec, a.slow, sc.get("activity"))
                             for k, name in enumerate(sc["scenes"])]}
            for b in spec.get("blocks", []):
                if b["scenario"] != sc["name"] or \
                        a.run_id not in b.get("runs", [a.run_id]):
                    continue
                for s in it["scenes"]:
                    if s["name"] == b["scene"]:
                        s["blocks"].append({"source": "blockcanary", "kind": "BLOCK",
                                            "wall_ms": b["wall_ms"] * a.slow,
                                            "stack": b["stack"],
                                            "signature": b.get("signature", signature(b["stack"]))})
            its.append(it)
        out["scenarios"].append({"name": sc["name"], "file": "scenarios/x.scn",
                                 "sha256": None, "iterations": its})
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
