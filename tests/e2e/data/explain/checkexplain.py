#!/usr/bin/python3
"""checkexplain.py VIEW.json PHASE: the report names PHASE as the phase
that moved most on every frame-time regression row, and no other phase.

A frame-time row (frame_pNN_ms) that regressed carries "explain", e.g.
"p90 +4 ms: measure/layout +4 ms (+3.9 to +4.1 ms)".  Prints one line per
row and "explain OK" when at least one row names PHASE and none another.
"""
import json
import re
import sys

view, phase = json.load(open(sys.argv[1])), sys.argv[2]
rows = [r for r in view["regressions"] if r["metric"].startswith("frame_p")]
ok = bool(rows)
for r in rows:
    e = r.get("explain") or ""
    m = re.match(r"p\d\d [+-][\d.]+ ms: (.+?) \+[\d.]+ ms", e)
    print("%s %s: %s" % (r["where"], r["metric"], e))
    if not m or m.group(1) != phase:
        ok = False
print("explain OK" if ok else "explain WRONG")
sys.exit(0 if ok else 1)
