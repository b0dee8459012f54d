#!/usr/bin/python3
"""check-layers.py: the layer rule of harness/ and report/, checked.

The program is built in layers, each a folder; a layer includes only the
layers below it.  LAYERS below is the order, lowest first; folders on one
line are siblings: neither may include the other.  Why this order:

  base          strings, lists, errors, files, processes, encodings,
                hashes, the exit-status rules: needs nothing of ours
  model         results, metrics, signatures, the configuration: data
                and its files, over base
  adb           the adb server protocol and the WebSocket client
  scenario      the scenario language
  compare       statistics, verdicts and the comparison model (its types
                are the statistics', so it lives with them)
  baseline      the git store of baseline runs
  android       what the framework prints (dumpsys, logcat lines, UI
                dumps, APKs) and the device properties read over adb
  sources       the data sources: they parse what android/ and adb/ get
  run           the runner: devices, iterations, steps, the sources' hooks
  report        comparison + results + history -> view -> templates
  report/mail   the mail of a report directory (MIME, SMTP)
  gate          the nightly composition of run, compare, report, mail and
                baseline
  cli           main, the command table, one file per command

Checked, for every .c and .h under harness/ and report/:
  - it sits in a layer folder, and its file name is unique (an #include
    names a header by file name; the Makefile puts every folder on the
    include path);
  - each #include "x.h" names a header of the tree in its own layer or a
    lower one: an include that goes up or sideways is an error;
  - no circle of headers including each other;
  - with --objects DIR (the build's object files): no circle of files
    using each other's functions or data (from nm), and no use of a
    function defined in a layer above or beside.

usage: check-layers.py [--root DIR] [--objects DIR]
Prints each problem and a count line; exits 1 when there is a problem.
"""

import argparse
import os
import re
import subprocess
import sys

# Each layer, lowest first, with the layers it builds on.  A layer's rank
# is one above the highest it builds on; an include must go to its own
# folder or to a layer in its list.
LAYERS = [
    ("harness/base", []),
    ("harness/model", ["harness/base"]),
    ("harness/adb", ["harness/base"]),
    ("harness/scenario", ["harness/base"]),
    ("harness/compare", ["harness/base", "harness/model"]),
    ("harness/baseline", ["harness/base", "harness/model"]),
    ("harness/android", ["harness/base", "harness/model", "harness/adb"]),
    ("harness/sources", ["harness/base", "harness/model", "harness/adb",
                         "harness/android"]),
    ("harness/run", ["harness/base", "harness/model", "harness/adb",
                     "harness/scenario", "harness/android",
                     "harness/sources"]),
    ("report", ["harness/base", "harness/model", "harness/compare"]),
    ("report/mail", ["harness/base", "harness/model", "harness/compare"]),
    ("harness/gate", ["harness/base", "harness/model", "harness/adb",
                      "harness/scenario", "harness/compare",
                      "harness/baseline", "harness/android",
                      "harness/sources", "harness/run", "report",
                      "report/mail"]),
    ("harness/cli", ["harness/base", "harness/model", "harness/adb",
                     "harness/scenario", "harness/compare",
                     "harness/baseline", "harness/android",
                     "harness/sources", "harness/run", "report",
                     "report/mail", "harness/gate"]),
]
TOPS = ["harness", "report"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Files the build generates and one file includes: data, not a layer's
# code (the Makefile puts their directory on that file's include path).
GENERATED = {"report/report_templates.c": {"templates.inc"}}


def ranks():
    r = {}
    for d, below in LAYERS:
        r[d] = 1 + max((r[b] for b in below), default=-1)
    return r


RANK = ranks()
BELOW = {d: set(below) for d, below in LAYERS}


def scan(root):
    """Every source file: {relative path: layer folder or None}."""
    files = {}
    for top in TOPS:
        for d, _, names in os.walk(os.path.join(root, top)):
            rel_d = os.path.relpath(d, root)
            for n in names:
                if n.endswith((".c", ".h")):
                    files[os.path.join(rel_d, n)] = (
                        rel_d if rel_d in RANK else None)
    return files


def tarjan(graph):
    """Strongly connected components of more than one node (or a loop)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def direction(src_layer, dst_layer):
    """None when allowed, else "up", or "sideways" for a layer of the same
    rank or a lower one that `src_layer` does not build on."""
    if src_layer == dst_layer or dst_layer in BELOW[src_layer]:
        return None
    return "up" if RANK[dst_layer] > RANK[src_layer] else "sideways"


def check_includes(root, files, problems, counts):
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    for name, paths in sorted(by_name.items()):
        if len(paths) > 1:
            problems.append("file name '%s' is not unique: %s" %
                            (name, ", ".join(sorted(paths))))
    graph = {}
    for f, layer in sorted(files.items()):
        if layer is None:
            problems.append("%s: not in a layer folder (%s)" %
                            (f, ", ".join(sorted(RANK))))
            continue
        with open(os.path.join(root, f), encoding="utf-8") as fp:
            text = fp.read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            if inc in GENERATED.get(f, ()):
                continue
            targets = by_name.get(os.path.basename(inc), [])
            if "/" in inc or len(targets) != 1:
                problems.append('%s:%d: #include "%s" names no single '
                                'header of the tree by its file name' %
                                (f, line, inc))
                continue
            dst = targets[0]
            if files[dst] is None:
                continue
            how = direction(layer, files[dst])
            if how:
                counts[how] += 1
                problems.append('%s:%d: #include "%s" goes %s, from %s '
                                'to %s' % (f, line, inc, how, layer,
                                           files[dst]))
            if f.endswith(".h"):
                graph.setdefault(f, set()).add(dst)
    for comp in tarjan(graph):
        counts["circles"] += 1
        problems.append("headers include each other in a circle: %s" %
                        " <-> ".join(comp))


def symbols(objs):
    """{object: (defined, undefined)} from one run of nm over all of them."""
    out = subprocess.run(["nm", "-P", "-A"] + objs, capture_output=True,
                         text=True, check=True).stdout
    syms = {o: (set(), set()) for o in objs}
    for line in out.splitlines():
        head, _, rest = line.partition(": ")
        parts = rest.split()
        if head not in syms or len(parts) < 2:
            continue
        if parts[1] == "U":
            syms[head][1].add(parts[0])
        elif parts[1] in "TDBRCVWG":
            syms[head][0].add(parts[0])
    return syms


def check_objects(root, files, objdir, problems, counts):
    paths = {}
    for f, layer in files.items():
        if f.endswith(".c") and layer and not f.endswith("/main.c"):
            o = os.path.join(objdir, f[:-2] + ".o")
            if not os.path.exists(o):
                problems.append("%s: no object file %s (build first)" %
                                (f, o))
                return
            paths[f] = o
    syms = symbols(sorted(paths.values()))
    objs = {f: syms[o] for f, o in paths.items()}
    owner = {}
    for f, (defined, _) in objs.items():
        for s in defined:
            owner[s] = f
    graph = {}
    for f, (_, undefined) in sorted(objs.items()):
        for s in sorted(undefined):
            g = owner.get(s)
            if not g or g == f:
                continue
            graph.setdefault(f, set()).add(g)
    for f, uses in sorted(graph.items()):
        for g in sorted(uses):
            how = direction(files[f], files[g])
            if how:
                counts[how] += 1
                problems.append("%s uses %s, which goes %s (from %s to %s)"
                                % (f, g, how, files[f], files[g]))
    for comp in tarjan(graph):
        counts["circles"] += 1
        problems.append("files use each other in a circle: %s" %
                        " <-> ".join(comp))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap.add_argument("--objects")
    a = ap.parse_args()
    files = scan(a.root)
    problems = []
    counts = {"up": 0, "sideways": 0, "circles": 0}
    check_includes(a.root, files, problems, counts)
    if a.objects:
        check_objects(a.root, files, a.objects, problems, counts)
    for p in problems:
        print("check-layers: %s" % p, file=sys.stderr)
    print("check-layers: %d files in %d layers: %d upward, %d sideways, "
          "%d circles, %d problems in all" %
          (len(files), len(RANK), counts["up"], counts["sideways"],
           counts["circles"], len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
