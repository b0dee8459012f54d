#!/usr/bin/python3
"""Measure in headless Chromium whether a report page fits its window.

  fits.py PAGE.html WIDTH [--height H]

Renders a copy of PAGE (beside it, PAGE.fits.html) at WIDTH x H CSS
pixels with a script added at the end of its body, which measures what a
reader would see and writes it into the DOM; --dump-dom hands the DOM
back.  The copy drops the page's Content-Security-Policy, which refuses
every script (the report is offline and script-free by design); nothing
else of the page changes.  Measured:

  - document.documentElement.scrollWidth, against the window's width:
    a page wider than its window scrolls sideways;
  - every regression row (report.html: tr.v-regression; email.html: a
    row whose first cell says "Regression"): the right edge of its
    verdict cell (the cell with the verdict's badge or label; in a table
    with no verdict column, its last cell) must be inside the window;
  - every table stays inside the box it is in (a table that sticks out
    of its section does not scroll the page, but reads as broken).

Prints one line, "window W scrollWidth S regression-rows N outside K",
then "fits" or one line per row or table outside ("outside: TEXT right
R") and exits 1.  Exit 2 when Chromium is missing or gives no measurement.
"""

import argparse
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile

SCRIPT = r"""<script>
(function () {
  var w = window.innerWidth, d = document.documentElement, out = [];
  var rows = [], bad = [];
  document.querySelectorAll("tr").forEach(function (tr) {
    var cells = tr.querySelectorAll(":scope > td");
    if (!cells.length)
      return;
    if (tr.classList.contains("v-regression") ||
        cells[0].textContent.trim() === "Regression")
      rows.push(tr);
  });
  rows.forEach(function (tr) {
    var cells = tr.querySelectorAll(":scope > td"), cell = null;
    cells.forEach(function (td) {
      var t = td.textContent.trim();
      if (!cell && (td.querySelector(".badge") || t === "Regression" ||
          t.indexOf("Regression") === 0))
        cell = td;
    });
    if (!cell)
      cell = cells[cells.length - 1];
    var r = cell.getBoundingClientRect().right;
    if (r > w + 0.5)
      bad.push("outside: " + tr.textContent.replace(/\s+/g, " ").trim()
          .slice(0, 80) + " right " + Math.round(r));
  });
  document.querySelectorAll("table").forEach(function (t) {
    var p = t.parentElement, box = p.getBoundingClientRect();
    var pad = parseFloat(getComputedStyle(p).paddingRight) || 0;
    var r = t.getBoundingClientRect().right;
    if (r > box.right - pad + 0.5)
      bad.push("table outside its box: " + t.className + " " +
          t.textContent.replace(/\s+/g, " ").trim().slice(0, 60) +
          " right " + Math.round(r) + " box " + Math.round(box.right - pad));
  });
  out.push("window " + w + " scrollWidth " + d.scrollWidth +
      " regression-rows " + rows.length + " outside " + bad.length);
  out = out.concat(bad);
  var pre = document.createElement("pre");
  pre.id = "jg-fits";
  pre.textContent = out.join("\n");
  document.body.appendChild(pre);
})();
</script>
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("width", type=int)
    ap.add_argument("--height", type=int, default=1600)
    a = ap.parse_args()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("fits: no chromium")
        return 2
    with open(a.page, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "",
                  text)
    text = text.replace("</body>", SCRIPT + "</body>")
    copy = a.page + ".fits.html"
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text)
    with tempfile.TemporaryDirectory() as profile:
        r = subprocess.run(
            [exe, "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--hide-scrollbars",
             "--user-data-dir=" + profile,
             "--host-resolver-rules=MAP * ~NOTFOUND",
             "--window-size=%d,%d" % (a.width, a.height),
             "--dump-dom", "file://" + os.path.abspath(copy)],
            capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="jg-fits">(.*?)</pre>', r.stdout, re.S)
    if not m:
        print("fits: no measurement from chromium (exit %d): %s" %
              (r.returncode, r.stderr.strip()[-300:]))
        return 2
    lines = html.unescape(m.group(1)).split("\n")
    print("\n".join(lines))
    head = re.match(r"window (\d+) scrollWidth (\d+) regression-rows (\d+) "
                    r"outside (\d+)$", lines[0])
    if not head:
        return 2
    win, width, _, outside = (int(x) for x in head.groups())
    if win != a.width or width > win or outside:
        return 1
    print("fits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
