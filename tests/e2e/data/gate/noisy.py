#!/usr/bin/python3
"""noisy.py: shop 1.0.0 with its frame and launch times made very noisy.

Usage: noisy.py SHOP-V1.json OUT.apk

The same app, the same medians, but every frame-time distribution gets
sigma 0.9 and frequent spikes, and launches vary by half: a run of it
cannot be told from its baseline in a few iterations either way, which is
what gate's adaptive iterations are for.  Made from the shipped model at
test time, so the two never drift apart.
"""
import json
import sys

model = json.load(open(sys.argv[1]))
model["versionName"] = "1.0.0-noisy"


def shake(frames):
    for dist in frames.values():
        dist["sigma"] = 0.9
        dist["spike_p"] = 0.25
        dist["spike_ms"] = 30


shake(model.get("frames", {}))
for activity in model["activities"]:
    shake(activity.get("frames", {}))
model["startup"]["sigma"] = 0.5
json.dump(model, open(sys.argv[2], "w"), indent=1)
