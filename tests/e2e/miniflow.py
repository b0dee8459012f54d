#!/usr/bin/python3
"""miniflow: a Maestro-like host tool for the tests (issue 52).

It plays the part of `maestro test flow.yaml` in the end-to-end cases:
a host program that drives the phone through `adb` on its own, which
jankgate runs with an `exec` step, and which marks its own scenes in the
log the way a flow would:

    adb shell log -t miniflow 'jankgate: scene begin feed'

It reaches the phone the way adb's own tools do, through ANDROID_SERIAL
and the server address in ADB_SERVER_SOCKET (or ANDROID_ADB_SERVER_PORT),
which jankgate puts in its environment.

A flow is a file of one command per line (# comments), in the spirit of
Maestro's YAML but without its parser:

    appId com.example.shop         the app the flow drives
    launchApp                      monkey -p APP -c ...LAUNCHER 1
    tapOn 50% 80%                  input tap, in pixels or % of the screen
    swipe 50% 70% 50% 30% 300      input swipe X1 Y1 X2 Y2 MS
    scroll                         a fling up across the middle
    waitMs 600                     sleep on the phone (its clock)
    sceneBegin NAME / sceneEnd NAME   the log markers
    assertFail MESSAGE             stop with exit status 1, as a failed
                                   assertion does

Usage: miniflow.py FLOW [--env-out FILE]
--env-out writes the adb variables of its environment to FILE, for a test
to check what jankgate gave it.
"""

import os
import shlex
import subprocess
import sys


def adb(*args):
    """Run `adb shell ARGS` (quoted for the device shell); its output."""
    cmd = ["adb", "shell", " ".join(shlex.quote(a) for a in args)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("miniflow: %s failed: %s\n" % (" ".join(args), r.stderr.strip()))
        sys.exit(2)
    return r.stdout


def screen():
    out = adb("wm", "size")
    size = out.strip().splitlines()[-1].split()[-1]
    w, h = size.split("x")
    return int(w), int(h)


def pixel(word, size):
    if word.endswith("%"):
        return int(round(float(word[:-1]) / 100 * size))
    return int(word)


def main():
    args = sys.argv[1:]
    env_out = None
    if "--env-out" in args:
        i = args.index("--env-out")
        env_out = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.stderr.write("usage: miniflow.py FLOW [--env-out FILE]\n")
        return 2
    if env_out:
        with open(env_out, "w") as f:
            for k in ("ANDROID_SERIAL", "ADB_SERVER_SOCKET",
                      "ANDROID_ADB_SERVER_ADDRESS", "ANDROID_ADB_SERVER_PORT",
                      "JANKGATE_PACKAGE"):
                f.write("%s=%s\n" % (k, os.environ.get(k, "")))
    app = None
    w = h = None
    for n, line in enumerate(open(args[0]), 1):
        words = shlex.split(line, comments=True)
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        print("miniflow: %s" % " ".join(words), flush=True)
        if cmd in ("tapOn", "swipe", "scroll") and w is None:
            w, h = screen()
        if cmd == "appId":
            app = rest[0]
        elif cmd == "launchApp":
            adb("monkey", "-p", app, "-c", "android.intent.category.LAUNCHER", "1")
        elif cmd == "tapOn":
            adb("input", "tap", str(pixel(rest[0], w)), str(pixel(rest[1], h)))
        elif cmd == "swipe":
            xy = [pixel(v, w if i % 2 == 0 else h) for i, v in enumerate(rest[:4])]
            adb("input", "swipe", *[str(v) for v in xy], rest[4] if len(rest) > 4 else "300")
        elif cmd == "scroll":
            adb("input", "swipe", str(w // 2), str(h * 3 // 4), str(w // 2), str(h // 4), "100")
        elif cmd == "waitMs":
            adb("sleep", "%.3f" % (int(rest[0]) / 1000))
        elif cmd in ("sceneBegin", "sceneEnd"):
            adb("log", "-t", "miniflow", "jankgate: scene %s %s"
                % ("begin" if cmd == "sceneBegin" else "end", " ".join(rest)))
        elif cmd == "assertFail":
            sys.stderr.write("Assertion is false: %s (%s:%d)\n" % (" ".join(rest), args[0], n))
            return 1
        else:
            sys.stderr.write("miniflow: %s:%d: unknown command '%s'\n" % (args[0], n, cmd))
            return 2
    print("miniflow: flow passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
