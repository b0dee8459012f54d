#!/usr/bin/python3
"""Check a report directory the way a browser, a mail client and a CI
system would read it, for the report end-to-end cases.

  checkreport.py DIR [--text STRING]... [--md-raw STRING]... [--no-charts]

  - report.html, email.html and the device pages (devices/*.html) parse
    (html.parser); none has a script, iframe, object or embed element, an
    on* event attribute, a javascript: URL or a reference to anything
    outside the report: report.html links only to its device pages, a
    device page only back to report.html, and every such link's file
    exists and holds the #id it names; report.html or a device page
    has a chart;
  - email.html has no svg, style, link or img element either;
  - junit.xml is valid against tests/e2e/data/junit/junit-10.xsd (with
    xmllint), has one testcase per metric of view.json, one per new or
    worse block and one "run" per device with errors, one failure per
    regression, and counts that add up: each testsuite's tests,
    failures, errors and skipped are those of its testcases, and
    testsuites sums them;
  - metrics.txt is OpenMetrics text: TYPE and HELP before each family's
    samples, names and escaped label values as the format allows, one
    jankgate_median sample per metric with current values, "# EOF" last;
  - each --text STRING appears as text (not markup) in report.html and
    email.html, and in email.txt;
  - each --md-raw STRING does NOT appear in summary.md unless its first
    character is backslash-escaped.

Prints one line per problem and exits 1, or prints "report OK".
"""

import argparse
import html.parser
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

FORBIDDEN = {"script", "iframe", "object", "embed", "frame", "base", "form"}
NOT_IN_MAIL = {"svg", "style", "link", "img", "video", "audio"}


# The links a report's pages may hold between them (issue 48: a page
# per device key), besides in-page ones.
PAGE_LINK = re.compile(r"^(devices/[A-Za-z0-9._-]+\.html|\.\./report\.html)(#[\w-]+)?$")


class Collect(html.parser.HTMLParser):
    def __init__(self, pages=False):
        super().__init__(convert_charrefs=True)
        self.tags = set()
        self.text = []
        self.problems = []
        self.pages = pages      # may link to the other pages of the report
        self.links = []
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            v = (value or "").strip().lower()
            if name == "id":
                self.ids.add(value)
            if name == "href" and self.pages and PAGE_LINK.match(value or ""):
                self.links.append(value)
                continue
            if name.lower().startswith("on"):
                self.problems.append("event attribute %s on <%s>" % (name, tag))
            if name in ("src", "href", "action", "xlink:href", "srcset") and \
                    not v.startswith("#") and not v.startswith("data:"):
                self.problems.append("external reference %s=%r on <%s>" % (name, value, tag))
            if "javascript:" in v:
                self.problems.append("javascript: URL in <%s %s>" % (tag, name))

    def handle_data(self, data):
        self.text.append(data)


def check_html(path, mail, texts, problems, collected=None):
    c = Collect(pages=not mail)
    c.feed(open(path, encoding="utf-8").read())
    c.close()
    if collected is not None:
        collected[os.path.normpath(path)] = c
    name = os.path.basename(path)
    problems += ["%s: %s" % (name, p) for p in c.problems]
    for t in sorted(c.tags & FORBIDDEN):
        problems.append("%s: has a <%s> element" % (name, t))
    if mail:
        for t in sorted(c.tags & NOT_IN_MAIL):
            problems.append("%s: has a <%s> element" % (name, t))
    body = "".join(c.text)
    for t in texts:
        if t not in body:
            problems.append("%s: text %r not found as text" % (name, t))
    return c.tags


XSD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "junit", "junit-10.xsd")
BLOCK = re.compile(r"(^|: )block .* \([0-9a-f]{1,12}\)$")


def changed_blocks(view, failing=False):
    """New or worse blocks; with failing, only the new ones that are a
    regression (a failing testcase of their own)."""
    n = 0
    for d in view["devices"]:
        for s in d["scenarios"]:
            for holder in [s] + s["scenes"]:
                n += sum(b["status"] in ("new", "worse") and
                         (not failing or b.get("regression", False))
                         for b in holder["blocks"])
    return n


def check_junit(path, view, problems):
    r = subprocess.run(["xmllint", "--noout", "--schema", XSD, path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("junit.xml: not valid against junit-10.xsd: %s"
                        % r.stderr.strip().replace("\n", "; "))
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        problems.append("junit.xml: not well-formed: %s" % e)
        return
    cases = root.findall(".//testcase")
    runs = [c for c in cases if c.get("name") == "run"]
    blocks = [c for c in cases if BLOCK.search(c.get("name", ""))]
    missing = [c for c in cases if c.get("name", "").startswith("missing: ")]
    metrics = len(cases) - len(runs) - len(blocks) - len(missing)
    if metrics != view["counts"]["total"]:
        problems.append("junit.xml: %d metric testcases, view.json has %d metrics"
                        % (metrics, view["counts"]["total"]))
    if len(blocks) != changed_blocks(view):
        problems.append("junit.xml: %d block testcases for %d new or worse blocks"
                        % (len(blocks), changed_blocks(view)))
    if len(runs) != sum(1 for d in view["devices"] if d["errors"]):
        problems.append("junit.xml: %d run testcases for %d devices with errors"
                        % (len(runs), sum(1 for d in view["devices"] if d["errors"])))
    gone = sum(len(d.get("missing", [])) for d in view["devices"])
    if len(missing) != gone:
        problems.append("junit.xml: %d missing testcases for %d scenarios and "
                        "scenes missing" % (len(missing), gone))
    failures = (len(root.findall(".//failure")) - len(missing)
                - changed_blocks(view, failing=True))
    if failures != view["counts"]["regression"]:
        problems.append("junit.xml: %d failures for %d regressions"
                        % (failures, view["counts"]["regression"]))
    total = {"tests": 0, "failures": 0, "errors": 0}
    for suite in root.findall("testsuite"):
        cs = suite.findall("testcase")
        want = {"tests": len(cs),
                "failures": sum(1 for c in cs if c.find("failure") is not None),
                "errors": sum(1 for c in cs if c.find("error") is not None),
                "skipped": sum(1 for c in cs if c.find("skipped") is not None)}
        for k, v in want.items():
            if int(suite.get(k, "-1")) != v:
                problems.append("junit.xml: testsuite %s says %s=%s, holds %d"
                                % (suite.get("name"), k, suite.get(k), v))
            if k in total:
                total[k] += v
    for k, v in total.items():
        if int(root.get(k, "-1")) != v:
            problems.append("junit.xml: testsuites says %s=%s, its suites hold %d"
                            % (k, root.get(k), v))


NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
SAMPLE = re.compile(r'^(%s)(\{(%s="(?:[^"\\\n]|\\[\\"n])*")(,%s="(?:[^"\\\n]|\\[\\"n])*")*\})? (\S+)$'
                    % (NAME, NAME, NAME))


def check_metrics(path, view, problems):
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines[-1] != "" or lines[-2] != "# EOF":
        problems.append("metrics.txt: does not end with '# EOF' and a newline")
        return
    declared, done, current, medians = set(), set(), None, 0
    for n, line in enumerate(lines[:-2], 1):
        m = re.match(r"^# (TYPE|HELP) (%s) (.+)$" % NAME, line)
        if m:
            if m.group(2) in done:
                problems.append("metrics.txt:%d: family %s split" % (n, m.group(2)))
            if current and current != m.group(2):
                done.add(current)
            current = m.group(2)
            declared.add(current)
            continue
        m = SAMPLE.match(line)
        if not m:
            problems.append("metrics.txt:%d: not OpenMetrics: %r" % (n, line))
            continue
        if m.group(1) != current:
            problems.append("metrics.txt:%d: sample of %s outside its family" % (n, m.group(1)))
        try:
            float(m.group(5))
        except ValueError:
            problems.append("metrics.txt:%d: value %r is not a number" % (n, m.group(5)))
        medians += m.group(1) == "jankgate_median"
    want = 0
    for d in view["devices"]:
        for s in d["scenarios"]:
            for holder in [s] + s["scenes"]:
                want += sum(1 for r in holder["metrics"] if r.get("current_n"))
    if medians != want:
        problems.append("metrics.txt: %d median samples for %d metrics with values"
                        % (medians, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--text", action="append", default=[])
    ap.add_argument("--md-raw", action="append", default=[])
    ap.add_argument("--no-charts", action="store_true",
                    help="nothing was measured: report.html has no chart")
    a = ap.parse_args()
    problems = []
    p = lambda n: os.path.join(a.dir, n)

    pages = {}
    tags = check_html(p("report.html"), False, a.text, problems, pages)
    if "table" not in tags:
        problems.append("report.html: no <table>")
    if os.path.isdir(p("devices")):
        for f in sorted(os.listdir(p("devices"))):
            tags |= check_html(p(os.path.join("devices", f)), False, [],
                               problems, pages)
    if not a.no_charts and "svg" not in tags:
        problems.append("report.html and its device pages: no <svg>")
    for path, c in pages.items():
        for link in c.links:
            target, _, frag = link.partition("#")
            t = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if t not in pages:
                problems.append("%s: links to %s, which is not there"
                                % (os.path.basename(path), target))
            elif frag and frag not in pages[t].ids:
                problems.append("%s: links to %s, which has no id %s"
                                % (os.path.basename(path), target, frag))
    check_html(p("email.html"), True, a.text, problems)
    if os.path.getsize(p("email.html")) > 100 * 1024:
        problems.append("email.html: over 100 KB")

    view = json.load(open(p("view.json"), encoding="utf-8"))
    check_junit(p("junit.xml"), view, problems)
    check_metrics(p("metrics.txt"), view, problems)

    text = open(p("email.txt"), encoding="utf-8").read()
    if any(ord(ch) < 32 and ch != "\n" for ch in text):
        problems.append("email.txt: holds control characters")
    for t in a.text:
        if t.replace("\n", " ") not in text:
            problems.append("email.txt: %r not found" % t)
    md = open(p("summary.md"), encoding="utf-8").read()
    for t in a.md_raw:
        if re.search(r"(?<!\\)" + re.escape(t), md):
            problems.append("summary.md: %r appears unescaped" % t)

    for line in problems:
        print(line)
    if problems:
        return 1
    print("report OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
