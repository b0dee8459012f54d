#!/usr/bin/python3
"""Write a small results.json for the compare end-to-end cases.

The compare cases need runs whose per-iteration values are chosen by hand,
so each case says exactly what it feeds jankgate.  This writes a valid
jankgate.results/1 file with one value per iteration for each spec:

  mkresults.py OUT [--key KEY] [--hz HZ] [--package PKG] [--sources A,B]
               [--warmup] [--failed N] SPEC...

  SPEC = SCENARIO/SCENE:p90=V1,V2,...   frame_p90_ms of a scene
       | SCENARIO/SCENE:fps=V1,V2,...   fps of a scene
       | SCENARIO:startup=V1,V2,...     am start TotalTime of the launch
       | SCENARIO/SCENE:block=SIG@MS    a block in every iteration

Iteration i of a scenario carries the i-th value of every spec of that
scenario.  --warmup adds a warm-up iteration first and --failed N adds N
failed iterations last, both with absurd values that compare must ignore.
"""

import argparse
import json
import sys


def iteration(index, warmup=False, ok=True):
    return {"index": index, "warmup": warmup, "ok": ok,
            "error": None if ok else "device lost", "scenes": []}


def scene_of(it, name):
    for s in it["scenes"]:
        if s["name"] == name:
            return s
    s = {"name": name, "frames": {"count": 100}, "blocks": []}
    it["scenes"].append(s)
    return s


def apply(it, scene, metric, value):
    if metric == "startup":
        it["startup"] = {"kind": "cold", "total_ms": value}
        return
    s = scene_of(it, scene)
    if metric == "p90":
        s["frames"]["p90_ms"] = value
    elif metric == "fps":
        s["fps"] = {"value": value}
    elif metric == "block":
        sig, ms = value
        s["blocks"].append({"source": "blockcanary", "wall_ms": ms,
                            "stack": ["com.example.feed.Slow.run"],
                            "signature": sig})
    else:
        sys.exit("mkresults: unknown metric '%s'" % metric)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--key", default="google-pixel-7-api34-90hz")
    ap.add_argument("--hz", type=float, default=90)
    ap.add_argument("--package", default="com.example.feed")
    ap.add_argument("--sources", default="gfxinfo,startup")
    ap.add_argument("--run-id", default="run")
    ap.add_argument("--warmup", action="store_true")
    ap.add_argument("--failed", type=int, default=0)
    ap.add_argument("spec", nargs="+")
    a = ap.parse_args()

    scenarios = {}
    for spec in a.spec:
        where, _, rhs = spec.partition(":")
        metric, _, values = rhs.partition("=")
        scenario, _, scene = where.partition("/")
        if metric == "block":
            sig, _, ms = values.partition("@")
            scenarios.setdefault(scenario, []).append((scene, metric, None, (sig, float(ms))))
        else:
            vals = [float(v) for v in values.split(",")]
            scenarios.setdefault(scenario, []).append((scene, metric, vals, None))

    out = {"schema": "jankgate.results/1",
           "run": {"id": a.run_id, "complete": True, "errors": []},
           "app": {"package": a.package, "version_name": "1.0",
                   "sources": a.sources.split(",")},
           "device": {"model": "Pixel 7", "refresh_hz": a.hz, "key": a.key},
           "scenarios": []}
    for name, specs in scenarios.items():
        n = max(len(v) for _, _, v, _ in specs if v is not None)
        its = []
        if a.warmup:
            w = iteration(0, warmup=True)
            for scene, metric, vals, blk in specs:
                apply(w, scene, metric, blk if blk else 999)
            its.append(w)
        for i in range(n):
            it = iteration(len(its))
            for scene, metric, vals, blk in specs:
                if blk:
                    apply(it, scene, metric, blk)
                elif i < len(vals):
                    apply(it, scene, metric, vals[i])
            its.append(it)
        for _ in range(a.failed):
            f = iteration(len(its), ok=False)
            for scene, metric, vals, blk in specs:
                apply(f, scene, metric, blk if blk else 999)
            its.append(f)
        out["scenarios"].append({"name": name, "file": name + ".scn",
                                 "sha256": None, "iterations": its})
    with open(a.out, "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
