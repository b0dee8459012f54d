#!/usr/bin/python3
"""Commit runs into a baseline store at chosen dates, with the git program.

jankgate records a run at the time it runs; a retention case needs runs
recorded months ago.  This writes the commits jankgate would have written
(the layout and message of harness/baseline/baseline_store.h) with git's
plumbing and GIT_COMMITTER_DATE, one commit per line of SPEC:

  plant.py REPO BRANCH RESULTS.json SPEC

  SPEC lines:  DATE KEY RUN_ID [accept]
  DATE: anything git reads as a date ("2024-01-03T12:00:00Z");
  KEY: the device key; the file is RESULTS.json with run.id and
  device.key replaced; "accept" makes it an acceptance.
"""

import json
import os
import subprocess
import sys
import tempfile


def git(repo, *args, env=None, data=None):
    return subprocess.run(["git", "-C", repo] + list(args), input=data,
                          env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def main():
    repo, branch, template, spec = sys.argv[1:5]
    with open(template) as f:
        base = json.load(f)
    package = base["app"]["package"]
    index = tempfile.mktemp(prefix="plant-index-")
    env = dict(os.environ, GIT_INDEX_FILE=index, GIT_AUTHOR_NAME="jankgate",
               GIT_AUTHOR_EMAIL="jankgate@localhost",
               GIT_COMMITTER_NAME="jankgate",
               GIT_COMMITTER_EMAIL="jankgate@localhost")
    ref = "refs/heads/" + branch
    tip = subprocess.run(["git", "-C", repo, "rev-parse", "-q", "--verify",
                          ref], capture_output=True, text=True).stdout.strip()
    if tip:
        git(repo, "read-tree", tip, env=env)
    with open(spec) as f:
        lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for fields in lines:
        date, key, run = fields[:3]
        accept = fields[3:] == ["accept"]
        doc = json.loads(json.dumps(base))
        doc["run"]["id"] = run
        doc["device"]["key"] = key
        blob = git(repo, "hash-object", "-w", "--stdin",
                   data=json.dumps(doc, indent=2) + "\n")
        path = "%s/%s/results.json" % (package, key)
        git(repo, "update-index", "--add", "--cacheinfo",
            "100644,%s,%s" % (blob, path), env=env)
        tree = git(repo, "write-tree", env=env)
        if accept:
            msg = ("accept %s 1.0 on %s: accepted (run %s)\n\nintended\n\n"
                   "Jankgate-Run: %s\nJankgate-Verdict: accepted\n"
                   "Jankgate-App-Version: 1.0\n"
                   "Jankgate-Accepted-By: qa <qa@example.com>\n"
                   % (package, key, run, run))
        else:
            msg = ("baseline %s 1.0 on %s: pass (run %s)\n\n"
                   "Jankgate-Run: %s\nJankgate-Verdict: pass\n"
                   "Jankgate-App-Version: 1.0\n" % (package, key, run, run))
        cenv = dict(env, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        args = ["commit-tree", tree] + (["-p", tip] if tip else [])
        tip = git(repo, *args, env=cenv, data=msg)
    git(repo, "update-ref", ref, tip)
    os.unlink(index)


if __name__ == "__main__":
    main()
