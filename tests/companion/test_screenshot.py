#!/usr/bin/env python3
"""The HTML report as a reader sees it: rendered by headless Chromium at 1400
pixels wide, no text may overlap another text or a chart, be cut off, or
reach past the window's right edge.

layout_check.js, injected into a copy of each report, walks the text boxes
and images once the page has loaded and writes its verdict into the DOM;
chromium --dump-dom carries it out. A screenshot of each report is saved
in screenshots/ of the working directory (to look at). Pages broken on
purpose (a too-wide table, overlapping headings, a clipped cell) must fail
the same check, so the check can fail. Exit 77 (ctest: skipped) with one
line when no chromium is installed (Debian: chromium; scripts/setup
installs it).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import checks
import common

WIDTH = 1400
CHECK_JS = os.path.join(common.HERE, "layout_check.js")
VERDICT = re.compile(r'<pre id="h5perf-layout-verdict">(.*?)</pre>', re.S)
SHOTS = os.path.abspath("screenshots")
# The reports rendered: the headline fixture (4 APIs, warnings beside the
# charts), failures with long error lines, placed particles runs (layout
# and placement columns), and two inputs at once.
REPORTS = {"headline": [common.HEADLINE], "failure": [common.FAILURE],
           "particles-placed": [common.PARTICLES_PLACED],
           "two-inputs": [common.SWEEP, "SLOW"]}


def find_chromium():
    for name in (os.environ.get("H5PERF_CHROMIUM"), "chromium", "chromium-browser",
                 "/usr/bin/chromium"):
        if name and (shutil.which(name) or os.access(name, os.X_OK)):
            return shutil.which(name) or name
    return None


CHROMIUM = find_chromium()


def chromium(args, profile):
    """Runs headless chromium (as root it needs --no-sandbox) and returns
    its stdout."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--user-data-dir=" + profile, "--virtual-time-budget=10000"] + args
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return p.stdout


def layout(page_path, profile):
    """The verdict of layout_check.js on a copy of the page."""
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    with open(CHECK_JS, encoding="utf-8") as f:
        script = f.read()
    assert page.count("</body>") == 1, page_path
    copy = page_path[:-len(".html")] + "-checked.html"
    with open(copy, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", "<script>\n%s</script>\n</body>" % script))
    dom = chromium(["--window-size=%d,1000" % WIDTH, "--dump-dom", "file://" + copy], profile)
    found = VERDICT.findall(dom)
    assert len(found) == 1, "no verdict in the page: %s" % dom[-500:]
    import html
    return json.loads(html.unescape(found[0]))


def screenshot(page_path, height, png, profile):
    chromium(["--window-size=%d,%d" % (WIDTH, height), "--screenshot=" + png,
              "file://" + page_path], profile)
    return checks.png_size(png)


@unittest.skipIf(CHROMIUM is None, "no chromium")
class Layout(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.profile = os.path.join(cls.tmp.name, "profile")
        os.makedirs(SHOTS, exist_ok=True)
        cls.pages = {}
        for name, inputs in REPORTS.items():
            out = os.path.join(cls.tmp.name, name)
            if "SLOW" in inputs:
                slow = common.save(common.slowed(common.load(common.SWEEP), 2.0),
                                   cls.tmp.name, "slow.json")
                inputs = [common.SWEEP, slow]
            r = common.run_tool("h5perf-plot", ["-o", out] + inputs)
            assert r.rc == 0, r
            cls.pages[name] = os.path.join(out, "report.html")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_reports_lay_out_cleanly(self):
        for name, page in self.pages.items():
            with self.subTest(report=name):
                v = layout(page, self.profile)
                self.assertEqual(v["width"], WIDTH)
                self.assertGreater(v["texts"], 100)
                self.assertGreater(v["images"], 0)
                self.assertEqual(v["problems"], [])
                # The whole page, to look at (up to 16000 pixels high).
                png = os.path.join(SHOTS, name + ".png")
                height = min(v["height"], 16000)
                self.assertEqual(screenshot(page, height, png, self.profile), (WIDTH, height))
                print("screenshot: %s (%dx%d)" % (png, WIDTH, height))

    def broken(self, name, html_text, where="</h1>"):
        """The headline report with html_text inserted after where."""
        with open(self.pages["headline"], encoding="utf-8") as f:
            page = f.read()
        path = os.path.join(self.tmp.name, "broken-%s.html" % name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(page.replace(where, where + html_text, 1))
        return layout(path, self.profile)["problems"]

    def test_too_wide_table_fails(self):
        problems = self.broken("wide", '<table><tr><td style="white-space: nowrap">%s</td>'
                               "</tr></table>" % ("wide " * 400))
        self.assertTrue(any(p.startswith("page wider than the window: ") for p in problems),
                        problems)
        self.assertTrue(any(p.startswith("past the window's edge") and "td 'wide wide" in p
                            for p in problems), problems)

    def test_overlapping_titles_fail(self):
        problems = self.broken("overlap", '<h2 style="margin-top: -2.5em">Overlapping title</h2>')
        self.assertTrue(any(p.startswith("overlap (") and "h2 'Overlapping title'" in p
                            for p in problems), problems)

    def test_clipped_text_fails(self):
        problems = self.broken("clipped", '<p style="width: 200px; overflow: hidden; '
                               'white-space: nowrap">%s</p>' % ("clipped " * 60))
        self.assertTrue(any(p.startswith("content wider than its box (") and "p 'clipped" in p
                            for p in problems), problems)


if __name__ == "__main__":
    if CHROMIUM is None:
        print("SKIP: no chromium (Debian: apt-get install chromium; scripts/setup installs it)")
        sys.exit(77)
    unittest.main(verbosity=2)
