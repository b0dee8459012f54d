#!/usr/bin/python3
"""Run the example CI pipelines of docs/ci/ as a CI system would, here.

  runci.py github|gitlab FILE JOB[,JOB...]

Runs the jobs named, in that order, in the current directory, the way
the CI system would run their steps, and prints one line per step:
"JOB[#N] STEP: exit S"; what the steps print goes to ./ci.log.  Nothing is interpreted but what the examples
need:

  github  workflow `env:` and each job's `env:` (expressions
          ${{ matrix.shard }}, ${{ secrets.NAME }} and ${{ vars.NAME }},
          the last two from this process's environment; any other
          expression is an error, so an example cannot use what this
          runner would silently get wrong); a job with a matrix of
          `shard` values runs once per value; each step's `run:` is run
          by `bash -eo pipefail`, as the runner's default shell does;
          `uses:` steps are skipped: the artifacts they would move are in
          this one directory already.  GITHUB_ACTIONS=true is set.
  gitlab  global and job `variables:`; `parallel: N` runs the job N times
          with CI_NODE_INDEX 1..N and CI_NODE_TOTAL N; the `script:` lines
          run in one `bash -e` session, as the runner does.  GITLAB_CI=true
          is set.

A job's `if:`/`rules:` are the caller's business: it names the jobs a
given event would run.  Exit status: 0 when every step ran (whatever
its exit status, which the caller checks in the output), 2 for a file
or job this runner cannot read.
"""

import os
import re
import subprocess
import sys

import yaml

EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def expand(value, shard):
    def one(m):
        e = m.group(1)
        if e == "matrix.shard" and shard is not None:
            return str(shard)
        mm = re.match(r"^(secrets|vars)\.(\w+)$", e)
        if mm:
            return os.environ.get(mm.group(2), "")
        raise SystemExit("runci: unsupported expression ${{ %s }}" % e)
    return EXPR.sub(one, str(value))


def run(label, script, env, shell):
    """Run one step; its output goes to ci.log, its status to stdout."""
    with open("ci.log", "ab") as log:
        log.write(("=== %s\n" % label).encode())
        log.flush()
        r = subprocess.run(shell + [script], env=env, stdout=log,
                           stderr=subprocess.STDOUT)
    print("%s: exit %d" % (label, r.returncode), flush=True)


def github(doc, jobs):
    base = dict(os.environ, GITHUB_ACTIONS="true")
    for k, v in (doc.get("env") or {}).items():
        base[k] = expand(v, None)
    for name in jobs:
        job = doc["jobs"].get(name)
        if job is None:
            raise SystemExit("runci: no job %s" % name)
        matrix = ((job.get("strategy") or {}).get("matrix") or {})
        shards = matrix.get("shard", [None])
        for shard in shards:
            env = dict(base)
            for k, v in (job.get("env") or {}).items():
                env[k] = expand(v, shard)
            tag = name if shard is None else "%s#%s" % (name, shard)
            for i, step in enumerate(job.get("steps") or []):
                if "run" not in step:
                    continue
                label = "%s %s" % (tag, step.get("name", "step %d" % i))
                run(label, expand(step["run"], shard), env,
                    ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"])


def gitlab(doc, jobs):
    base = dict(os.environ, GITLAB_CI="true")
    for k, v in (doc.get("variables") or {}).items():
        base[k] = str(v)
    for name in jobs:
        job = doc.get(name)
        if not isinstance(job, dict) or "script" not in job:
            raise SystemExit("runci: no job %s" % name)
        n = int(job.get("parallel", 1))
        for i in range(1, n + 1):
            env = dict(base)
            for k, v in (job.get("variables") or {}).items():
                env[k] = str(v)
            if "parallel" in job:
                env.update(CI_NODE_INDEX=str(i), CI_NODE_TOTAL=str(n))
            tag = name if "parallel" not in job else "%s#%d" % (name, i)
            run("%s script" % tag, "\n".join(job["script"]), env,
                ["bash", "--noprofile", "--norc", "-e", "-c"])


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("github", "gitlab"):
        raise SystemExit(__doc__)
    with open(sys.argv[2], encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    jobs = sys.argv[3].split(",")
    (github if sys.argv[1] == "github" else gitlab)(doc, jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
