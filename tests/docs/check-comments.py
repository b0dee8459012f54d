#!/usr/bin/python3
"""Comments in harness/ say what and why, not what a bench run gave.

  check-comments.py [--src DIR]

Part of `make check-docs`.  Fails (exit 1, one line per hit) when a
comment of a C file under harness/ (issue 50):

  - cites a README section ("README, Method", "README's Sources"): README
    is a short guide with no such sections; the method is docs/method.md,
    its history NEWS, the reference the man page;
  - quotes a measured rate ("found on 51 % of nights", "4.5 % of gate
    nights", "on 86 % where ..."): such figures belong in
    docs/validation.md, NEWS or a commit message, where they are dated;
  - names a commit as the record of a measurement ("commit b538286").

The patterns are narrow on purpose: a design constant and its definition
("98 % at the default 0.01", "default 25 %", "a phone 2 % slower") is
none of these.  Only comments are read, never strings or code.  Seconds.
"""

import argparse
import glob
import os
import re
import sys

PATTERNS = [
    ("cites a README section",
     re.compile(r"\bREADME(?:'s|,)\s+\"?[A-Z][a-z]+")),
    ("quotes a measured rate of nights",
     re.compile(r"\b\d+(?:\.\d+)?\s?% of (?:[a-z]+ ){0,2}nights\b")),
    ("quotes a measured rate",
     re.compile(r"\bon \d+(?:\.\d+)?\s?% (?:of|where)\b")),
    ("names a commit as a measurement's record",
     re.compile(r"\bcommit (?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")),
]


def comments(text):
    """(line, text) of every comment of C source `text`, in order."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in "\"'":
            # a string or character literal, escapes included
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, j)
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            yield line, text[i + 2:j]
            line += text.count("\n", i, j)
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield line, text[i + 2:j]
            i = j
        else:
            i += 1


def plain(comment):
    """A comment's words on one line: no leading stars, single spaces."""
    lines = [re.sub(r"^\s*\*?", "", ln) for ln in comment.split("\n")]
    return " ".join(" ".join(lines).split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.src, "harness/**/*.[ch]"),
                             recursive=True))
    hits = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        rel = os.path.relpath(path, args.src)
        for line, comment in comments(text):
            words = plain(comment)
            for what, pattern in PATTERNS:
                for m in pattern.finditer(words):
                    hits += 1
                    print("check-comments: %s:%d: the comment that starts "
                          "here %s: \"%s\"" % (rel, line, what, m.group(0)))
    print("check-comments: %d C files under harness/; %d hits"
          % (len(files), hits))
    if len(files) < 100:
        print("check-comments: found only %d C files under harness/"
              % len(files))
        return 1
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())
