#!/usr/bin/python3
"""Check a report directory the way a browser, a mail client and a CI
system would read it, for the report end-to-end cases.

  checkreport.py DIR [--text STRING]... [--md-raw STRING]...

  - report.html and email.html parse (html.parser); neither has a script,
    iframe, object or embed element, an on* event attribute, a javascript:
    URL or a reference to anything outside the file;
  - email.html has no svg, style, link or img element either;
  - junit.xml is well-formed XML with one testcase per metric of view.json
    and one failure per regression;
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
import sys
import xml.etree.ElementTree as ET

FORBIDDEN = {"script", "iframe", "object", "embed", "frame", "base", "form"}
NOT_IN_MAIL = {"svg", "style", "link", "img", "video", "audio"}


class Collect(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = set()
        self.text = []
        self.problems = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            v = (value or "").strip().lower()
            if name.lower().startswith("on"):
                self.problems.append("event attribute %s on <%s>" % (name, tag))
            if name in ("src", "href", "action", "xlink:href", "srcset") and \
                    not v.startswith("#") and not v.startswith("data:"):
                self.problems.append("external reference %s=%r on <%s>" % (name, value, tag))
            if "javascript:" in v:
                self.problems.append("javascript: URL in <%s %s>" % (tag, name))

    def handle_data(self, data):
        self.text.append(data)


def check_html(path, mail, texts, problems):
    c = Collect()
    c.feed(open(path, encoding="utf-8").read())
    c.close()
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--text", action="append", default=[])
    ap.add_argument("--md-raw", action="append", default=[])
    a = ap.parse_args()
    problems = []
    p = lambda n: os.path.join(a.dir, n)

    tags = check_html(p("report.html"), False, a.text, problems)
    for t in ("table", "svg"):
        if t not in tags:
            problems.append("report.html: no <%s>" % t)
    check_html(p("email.html"), True, a.text, problems)
    if os.path.getsize(p("email.html")) > 100 * 1024:
        problems.append("email.html: over 100 KB")

    view = json.load(open(p("view.json"), encoding="utf-8"))
    try:
        root = ET.parse(p("junit.xml")).getroot()
        cases = root.findall(".//testcase")
        metrics = [c for c in cases if c.get("name") != "run"]
        if len(metrics) != view["counts"]["total"]:
            problems.append("junit.xml: %d testcases, view.json has %d metrics"
                            % (len(metrics), view["counts"]["total"]))
        failures = len(root.findall(".//failure"))
        if failures != view["counts"]["regression"]:
            problems.append("junit.xml: %d failures for %d regressions"
                            % (failures, view["counts"]["regression"]))
    except ET.ParseError as e:
        problems.append("junit.xml: not well-formed: %s" % e)

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
