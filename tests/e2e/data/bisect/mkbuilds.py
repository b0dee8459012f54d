#!/usr/bin/python3
"""mkbuilds.py: the builds of the bisect cases (tests/e2e/cases/bisect-*).

    mkbuilds.py SRC N CULPRIT [--repo DIR]

writes builds/shop-K.apk for K = 0 .. N-1 in the current directory: the
shop app of tests/simdevice/apps, version 1.0.K (code 100 + K), with
shop-v1.json's model before CULPRIT and shop-v2.json's from CULPRIT on
(its feed 2.5 ms a frame slower, its checkout tap's 450 ms block), and
builds.manifest listing them oldest first (CULPRIT N or more: no
change).  With --repo DIR, also a git repository of N commits on its
main branch, commit K's build.txt holding K and its message "build K",
and build.sh, which "builds" a commit by printing builds/shop-K.apk's
path, and fails for each K listed in the file `broken` (if any).
"""
import json
import os
import subprocess
import sys


def main():
    src, n, culprit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    repo = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--repo" \
        else None
    apps = os.path.join(src, "tests/simdevice/apps")
    os.makedirs("builds", exist_ok=True)
    with open("builds.manifest", "w") as man:
        man.write("# build  APK\n")
        for k in range(n):
            base = "shop-v2.json" if k >= culprit else "shop-v1.json"
            m = json.load(open(os.path.join(apps, base)))
            m["versionName"] = "1.0.%d" % k
            m["versionCode"] = 100 + k
            model = "builds/shop-%d.json" % k
            json.dump(m, open(model, "w"))
            subprocess.run([sys.executable,
                            os.path.join(src, "tests/e2e/mkapk.py"),
                            "builds/shop-%d.apk" % k, "--model", model],
                           check=True)
            man.write("build-%02d builds/shop-%d.apk\n" % (k, k))
    if not repo:
        return
    env = dict(os.environ, GIT_AUTHOR_NAME="Ada Dev",
               GIT_AUTHOR_EMAIL="ada@example.com",
               GIT_COMMITTER_NAME="Ada Dev",
               GIT_COMMITTER_EMAIL="ada@example.com")
    builds = os.path.abspath("builds")
    subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True)
    with open(os.path.join(repo, "build.sh"), "w") as f:
        f.write("#!/bin/sh\n# build.sh COMMIT: print the commit's APK\n"
                "k=$(git show \"$1:build.txt\") || exit 1\n"
                "if [ -f broken ] && grep -qx \"$k\" broken; then\n"
                "    echo \"build $k: compile error\" >&2; exit 1\nfi\n"
                "echo \"compiling build $k\" >&2\n"
                "echo %s/shop-$k.apk\n" % builds)
    for k in range(n):
        with open(os.path.join(repo, "build.txt"), "w") as f:
            f.write("%d\n" % k)
        subprocess.run(["git", "-C", repo, "add", "build.txt", "build.sh"],
                       check=True)
        msg = "build %d" % k
        if k == culprit:
            msg += ": price the coupons in the checkout tap"
        subprocess.run(["git", "-C", repo, "commit", "-q", "-m", msg],
                       check=True, env=env)


main()
