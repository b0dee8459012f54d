#!/usr/bin/python3
"""Check that the man page renders cleanly and that README and the man page
refer only to what exists, for the docs end-to-end case.

  checkdocs.py SRC

  - jankgate.1 renders with groff -ww -man (every warning enabled) without
    a single warning, and has the sections NAME SYNOPSIS DESCRIPTION
    COMMANDS OPTIONS CONFIGURATION SOURCES METRICS SCENARIOS ENVIRONMENT
    EXIT STATUS EXAMPLES FILES;
  - every "see X" / "(see X)" with X in capitals names a section (.SH) of
    the page, and every bold subsection it names (.SS) exists;
  - no paragraph of an option or key list starts with a capitalised
    identifier ("Smtp://HOST", "Auto: ...", "Known_hosts"): the first word
    of a description must not hold ':', '/' or '_' after a capital;
  - README.md names no document the repository lacks: no "DESIGN §", and
    every *.md file or docs/ path it names exists in the tree;
  - no file of harness/, report/, tests/ or tools/ cites FORMATS.md,
    ADB.md or DESIGN (documents the repository does not have), and every
    "docs/formats.md §N" or "docs/adb.md §N" it cites is a section of that
    page (a heading "## N." or "### N.", or item N of a numbered list
    under heading M for "§M.N").

Prints one line per problem and exits 1, or prints "docs OK".
"""

import os
import re
import subprocess
import sys

SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS",
            "CONFIGURATION", "SOURCES", "METRICS", "SCENARIOS", "ENVIRONMENT",
            "EXIT STATUS", "EXAMPLES", "FILES"]


def check_man(src, problems):
    page = os.path.join(src, "harness", "cli", "jankgate.1")
    r = subprocess.run(["groff", "-ww", "-man", "-Tutf8", page],
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        problems.append("jankgate.1: groff -ww: %s" % r.stderr.strip())
    text = open(page, encoding="utf-8").read()
    lines = text.split("\n")
    sh = [l[4:].strip().strip('"') for l in lines if l.startswith(".SH ")]
    ss = [l[4:].strip().strip('"') for l in lines if l.startswith(".SS ")]
    for want in SECTIONS:
        if want not in sh:
            problems.append("jankgate.1: no %s section" % want)
    # Cross references, in the source text (font escapes removed).
    plain = re.sub(r"\\f[BIRP]", "", text)
    for m in re.finditer(r"\b[Ss]ee ([A-Z][A-Z]+(?: [A-Z]+)*)\b", plain):
        if m.group(1) not in sh:
            problems.append("jankgate.1: refers to section %s, which it "
                            "lacks" % m.group(1))
    for m in re.finditer(r'^\.B "([^"]+)"$', text, re.M):
        name = m.group(1)
        if name[0].isupper() and " " in name and name not in ss and \
                not name.startswith("Failure"):
            problems.append("jankgate.1: refers to subsection %r, which it "
                            "lacks" % name)
    # The first word of each tagged paragraph's description: a URL, a file
    # name or a value the paragraph itself quotes in lower case ("auto")
    # must not have been capitalised like the start of a sentence.
    for i, l in enumerate(lines):
        if l != ".TP" or i + 2 >= len(lines):
            continue
        desc = lines[i + 2]
        if desc.startswith("."):
            continue
        para = []
        for more in lines[i + 2:]:
            if re.match(r"^\.(TP|PP|SH|SS|IP|RS|RE)\b", more):
                break
            para.append(more)
        para = " ".join(para)
        first = desc.split(" ")[0]
        word = first.rstrip(":.,")
        bad = re.match(r"^[A-Z][a-z]*(://|[/_])", first) or (
            first.endswith(":") and word[:1].isupper() and
            '"%s"' % word.lower() in para)
        if bad:
            problems.append("jankgate.1:%d: description starts with a "
                            "capitalised identifier: %r" % (i + 3, first))


def check_readme(src, problems):
    text = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    if "DESIGN §" in text or "DESIGN.md" in text:
        problems.append("README.md: cites DESIGN, which the repository "
                        "does not have")
    for m in set(re.findall(r"[\w./-]+\.md\b", text)):
        if m in ("summary.md",) or m.startswith("."):
            continue
        cands = [os.path.join(src, m)] + [os.path.join(src, d, m) for d in
                                          ("tests/simdevice", "docs", "docs/ci")]
        if not any(os.path.exists(c) for c in cands):
            problems.append("README.md: names %s, which the repository "
                            "lacks" % m)
    for m in set(re.findall(r"\bdocs/[\w./-]*\w", text)):
        if not os.path.exists(os.path.join(src, m)):
            problems.append("README.md: names %s, which the repository "
                            "lacks" % m)


def sections(path):
    """The section numbers a docs page has: "3", "3.1", and "5.2" for the
    second item of a numbered list under "## 5."."""
    have, top = set(), None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if m:
            have.add(m.group(1))
            top = m.group(1) if "." not in m.group(1) else top
            continue
        m = re.match(r"^(\d+)\. ", line)
        if m and top:
            have.add("%s.%s" % (top, m.group(1)))
    return have


def check_refs(src, problems):
    pages = {}
    for page in ("formats.md", "adb.md"):
        path = os.path.join(src, "docs", page)
        if os.path.exists(path):
            pages[page] = sections(path)
        else:
            problems.append("docs/%s: missing" % page)
    for top in ("harness", "report", "tests", "tools"):
        for d, _, names in os.walk(os.path.join(src, top)):
            for n in names:
                path = os.path.join(d, n)
                rel = os.path.relpath(path, src)
                if rel == os.path.join("tests", "e2e", "data", "docs",
                                       "checkdocs.py"):
                    continue
                try:
                    text = open(path, encoding="utf-8").read()
                except (UnicodeDecodeError, OSError):
                    continue
                for m in re.finditer(r"\b(FORMATS\.md|ADB\.md|DESIGN(?:\.md)? ?§)",
                                     text):
                    if "docs/" + m.group(1).lower() in text[m.start() - 5:
                                                         m.end()]:
                        continue
                    problems.append("%s: cites %s, which the repository "
                                    "does not have" % (rel, m.group(1)))
                for m in re.finditer(r"docs/(formats|adb)\.md §(\d+(?:\.\d+)?)",
                                     text):
                    page = m.group(1) + ".md"
                    if page in pages and m.group(2) not in pages[page]:
                        problems.append("%s: cites docs/%s §%s, which it "
                                        "lacks" % (rel, page, m.group(2)))


def main():
    src = sys.argv[1]
    problems = []
    check_man(src, problems)
    check_readme(src, problems)
    check_refs(src, problems)
    for p in problems:
        print(p)
    if problems:
        return 1
    print("docs OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
