#!/usr/bin/env python3
"""How well a scene's gfxinfo histogram reads the move of its jank share.

A research aid for docs/method.md step 3 (branch `phone-units`), not part
of `make check`: it draws frames the way tests/bench/bench_compare.c's
real-phone model does (each frame's work lognormal around MED ms with
spread SIG; a share VSYNC of frames ends just before the next vsync;
gfxinfo's whole-ms buckets, every frame under 6 ms in the lowest) and
prints, for a phone 5 % slower, the true move of the jank share (frames
whose work passes the period) beside what the histogram reads for it
(metric_jank_scaled() with the waited frames left out) when a pile's
moving frames are counted as the two buckets above it hold, the mean of
the two below and the two above, or their geometric mean.

usage: jank_reading.py [FRAMES]   (default 60000 a case)
"""
import math
import random
import sys

VSYNC = 0.3
SLOWER = 1.05


def bucket(ms):
    """gfxinfo's bucket label for a frame (bench_compare.c, bucket_of())."""
    x = int(math.floor(ms))
    if x <= 5:
        return 5
    if x <= 32:
        return x
    if x <= 48:
        return x - x % 2
    if x <= 52:
        return 48
    if x <= 135:
        return 53 + (x - 53) // 4 * 4
    return 150 if x < 150 else 150 + (x - 150) // 50 * 50


def width(ms):
    """A bucket's width (metrics.c, metric_bucket_width())."""
    if ms <= 32:
        return 1
    if ms < 48:
        return 2
    if ms < 53:
        return 53 - ms
    if ms < 150:
        return min(4, 150 - ms)
    return 50


def draw(rng, n, med, sig, period, f):
    """A histogram of n frames and the true jank share, in percent."""
    hist, janky = {}, 0
    for _ in range(n):
        d = med * math.exp(rng.gauss(0, sig)) * f
        janky += d > period
        if rng.random() < VSYNC:
            d = max(1, period * math.ceil(d / period) - rng.uniform(0, .8))
        b = bucket(d)
        hist[b] = hist.get(b, 0) + 1
    return hist, 100 * janky / n


def pile_counts(hist, at):
    fa = math.floor(at)
    inside = out = below = 0
    for ms, c in hist.items():
        if fa - 1 <= ms <= fa:
            inside += c
        elif fa < ms <= fa + 2:
            out += c
        elif fa - 3 <= ms < fa - 1:
            below += c
    return inside, out, below


def moving(hist, ms, period, count):
    c = hist[ms]
    for k in range(1, 5):
        fa = math.floor(k * period)
        if fa - 1 <= 5 or not fa - 1 <= ms <= fa:
            continue
        inside, out, below = pile_counts(hist, k * period)
        if inside > 0 and inside >= 3 * out and inside >= below:
            c *= min(1, count(out, below) / inside)
    return c


def reading(hist, period, scale, count):
    total = janky = 0
    for ms, c0 in hist.items():
        c = moving(hist, ms, period, count) if count else c0
        lo, hi = ms * scale, (ms + width(ms)) * scale
        total += c
        janky += c * min(max((hi - period) / (hi - lo), 0), 1)
    return 100 * janky / total


COUNTS = (
    ("out", lambda out, below: out),
    ("mean", lambda out, below: (out + below) / 2),
    ("geometric", lambda out, below: math.sqrt(out * below)),
    ("all scaled", None),
)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 60000
    rng = random.Random(1)
    print(" Hz  med  sig   true jank, move   " +
          "  ".join("%10s" % name for name, _ in COUNTS))
    for hz in (60, 90, 120):
        period = 1000 / hz
        for med in (5, 7, 9, 11, 13):
            for sig in (0.15, 0.3):
                hist, j1 = draw(rng, n, med, sig, period, 1)
                _, j2 = draw(rng, n, med, sig, period, SLOWER)
                moves = [reading(hist, period, SLOWER, c) -
                         reading(hist, period, 1, c) for _, c in COUNTS]
                print("%3d %4.0f %4.2f  %6.2f %% %+6.2f   " %
                      (hz, med, sig, j1, j2 - j1) +
                      "  ".join("%10.2f" % m for m in moves))


if __name__ == "__main__":
    main()
