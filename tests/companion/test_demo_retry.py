#!/usr/bin/env python3
"""scripts/demo sizes a run again when a figure of it lasted under 0.1 s
(docs/companion.md, "The demo"), on the null engine's synthetic clock so
that the figures are known: every call of the calibration takes 20 s, of a
first run 0.05 s, and of a run sized again 0.2 s (a wrapper chooses by the
run's --results file: absent for a first run, present for one sized
again). The block and guide runs make one call per phase (0.05 s, too
short): each is sized again once, from its own figures, and then passes;
the particles run makes eight (0.4 s) and is not. The demo exits 0 and its
own check finds every figure long enough. Without the loop that sizes
again, the demo's last check fails: exit 1.
"""
import os
import stat
import subprocess
import tempfile
import unittest

import common

BUILD = os.environ.get("H5PERF_BUILD_DIR", os.path.join(common.ROOT, "build"))
WRAPPER = """#!/bin/sh
seconds=20
prev=""
for a in "$@"; do
  if [ "$prev" = "--results" ]; then
    if [ -e "$a" ]; then seconds=0.2; else seconds=0.05; fi
  fi
  prev=$a
done
H5PERF_NULL_SECONDS=$seconds exec '%s' "$@"
"""


class DemoSizedAgain(unittest.TestCase):
    def test_sized_again_once_where_a_figure_was_short(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "fake-h5perf")
            with open(fake, "w") as f:
                f.write(WRAPPER % os.path.join(BUILD, "tests", "engine_null"))
            os.chmod(fake, stat.S_IRWXU)
            out = os.path.join(d, "demo")
            p = subprocess.run([os.path.join(common.ROOT, "scripts", "demo"), "--small",
                                "--margin", "3", "--out", out, "--dir", d, "--h5perf", fake],
                               cwd=common.ROOT, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=900)
            result = common.Result(p)
            self.assertEqual(result.rc, 0, result)
            said = [line for line in result.err_lines if line.startswith("scripts/demo: ")]
            self.assertEqual([line.split(":")[1] for line in said
                              if "sized again" not in line and "results in" not in line],
                             [" block", " particles", " guide"], result)
            self.assertEqual(
                [line for line in said if "sized again" in line],
                ["scripts/demo: block: sized again from the run, a figure lasted under 0.1 s: "
                 "--global=56x512x512",
                 "scripts/demo: guide: sized again from the run, a figure lasted under 0.1 s: "
                 "-e 7M"], result)
            for name in ("block", "particles", "guide"):
                check = common.run_tool("h5perf_headline.py",
                                        ["--check-min-time", os.path.join(out, name + ".json")])
                self.assertEqual(check.rc, 0, check)

    def test_demo_size_refuses_what_is_not_results(self):
        """scripts/demo-size on a file that is not h5perf's results: one
        line, exit 2, no traceback."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "calibration.json")
            open(path, "w").close()
            p = subprocess.run([os.path.join(common.ROOT, "scripts", "demo-size"), "block", path,
                                "2", "0.3"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
            result = common.Result(p)
            self.assertEqual((result.rc, result.out), (2, ""), result)
            self.assertEqual(result.err_lines,
                             ["scripts/demo-size: '%s': not h5perf's JSON results: Expecting "
                              "value: line 1 column 1 (char 0)" % path], result)


if __name__ == "__main__":
    unittest.main()
