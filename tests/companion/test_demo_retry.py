#!/usr/bin/env python3
"""scripts/demo on the null engine's synthetic clock (docs/companion.md,
"The demo"), so that the figures are known: every call of the calibration
takes 20 s, of a first run 0.05 s, and of a run sized again 0.2 s (a
wrapper chooses by the run's --results file: absent for a first run,
present for one sized again).

- A run with a figure under 0.1 s is sized again: the block run (one call a
  phase, 0.05 s) and the guide's run (the same) are each sized again once,
  from their own figures, and then pass. The demo exits 0 and its own check
  finds every figure long enough. Without the loop that sizes again, the
  demo's last check fails: exit 1.
- It sizes and checks by the figures its answers are given in: with every
  transfer 0.01 s and every flush (a close under --fsync) 0.3 s, the block
  run is sized by its flushed write (--global=32x512x512, where its raw
  write would size it at 960 planes) and never sized again; its raw writes,
  0.01 s, stay in its JSON results (where h5perf_headline's whole check
  still finds them too short), named on stderr, and off its page.
- What it prints: its first line names the storage measured (the --dir's
  file system, as findmnt names it); stdout is the answers only, one line
  each (h5perf_headline's short answers, after a line naming the storage),
  never the guide's report, which is in OUT/guide.txt; each step says what
  runs on stderr, h5perf's progress lines among them.
"""
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from html import escape

import common

sys.path.insert(0, common.TOOLS)
import h5perf_headline  # noqa: E402
import h5perf_results  # noqa: E402

BUILD = os.environ.get("H5PERF_BUILD_DIR", os.path.join(common.ROOT, "build"))
# The sizes a run is sized again to, from its first run's 0.05 s calls.
BLOCK_AGAIN, GUIDE_AGAIN = "56x512x512", "7M"
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
# Every transfer 0.01 s, every flush 0.3 s (null_backend.c).
FLUSHING = """#!/bin/sh
H5PERF_NULL_SECONDS=0.01 H5PERF_NULL_FLUSH_SECONDS=0.3 exec '%s' "$@"
"""


def demo(d, wrapper):
    """scripts/demo --small with the null engine behind wrapper, in d."""
    fake = os.path.join(d, "fake-h5perf")
    with open(fake, "w") as f:
        f.write(wrapper % os.path.join(BUILD, "tests", "engine_null"))
    os.chmod(fake, stat.S_IRWXU)
    out = os.path.join(d, "demo")
    p = subprocess.run([os.path.join(common.ROOT, "scripts", "demo"), "--small",
                        "--margin", "3", "--out", out, "--dir", d, "--h5perf", fake],
                       cwd=common.ROOT, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=900)
    return out, common.Result(p)


class DemoSizedAgain(unittest.TestCase):
    def test_sized_again_once_where_a_figure_was_short(self):
        with tempfile.TemporaryDirectory() as d:
            out, result = demo(d, WRAPPER)
            self.assertEqual(result.rc, 0, result)
            said = [line for line in result.err_lines if line.startswith("scripts/demo: ")]
            self.assertEqual([line for line in said if "sized again" in line],
                             ["scripts/demo: block: sized again from the run, a figure of the "
                              "answers lasted under 0.1 s: --global=%s" % BLOCK_AGAIN,
                              "scripts/demo: guide: sized again from the run, a figure of the "
                              "answers lasted under 0.1 s: -e %s" % GUIDE_AGAIN], result)
            for name in ("block", "guide"):
                check = common.run_tool("h5perf_headline.py",
                                        ["--check-min-time", os.path.join(out, name + ".json")])
                self.assertEqual(check.rc, 0, check)

            # The first line names the storage measured.
            real = os.path.realpath(d)
            fs = subprocess.run(["findmnt", "-n", "-o", "FSTYPE,SOURCE,TARGET", "-T", real],
                                stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
            storage = "%s on %s, mounted at %s" % tuple(fs[:3])
            self.assertEqual(result.err_lines[0],
                             "scripts/demo: measuring the storage of %s (%s): writes flushed "
                             "to it, reads from it with O_DIRECT" % (real, storage), result)
            # Each step says what runs, with h5perf's progress.
            for step in ("1 of 2: block", "2 of 2: guide"):
                self.assertIn("scripts/demo: %s: calibrating" % step, said, result)
                self.assertTrue(any(line.startswith("scripts/demo: %s: 2 processes, " % step)
                                    and "iteration 1 of 3: 0% done" in line for line in said),
                                (step, result))
            # stdout: the storage, then the answers, one line each; no report.
            inputs = {n: h5perf_results.load(os.path.join(out, n + ".json"))
                      for n in ("block", "guide")}
            expected = (["Storage of %s (%s); 2 processes, medians of 3 iterations (layouts: "
                         "the fastest API of each), MB/s = MiB/s:" % (real, storage)] +
                        ["  " + a for a in h5perf_headline.short_answers(inputs["block"])] +
                        ["  Reads through MPI-IO, HDF5 and PnetCDF are not measured: on one "
                         "host they come back from its page cache (docs/cluster.md)."] +
                        ["  " + a for a in h5perf_headline.short_answers(inputs["guide"])])
            lines = result.out.splitlines()
            self.assertEqual(lines[:len(expected)], expected, result)
            self.assertTrue(all(line.startswith("  ") for line in lines[len(expected):]),
                            result)
            self.assertEqual(len(expected), 1 + 2 + 1 + 3, result)
            self.assertTrue(expected[1].startswith(
                "  A shared file vs a file per process, writing (flushed): "), expected)
            # The block page's answers are the flushed writes too, and say
            # nothing of reads, which the block run does not make.
            page = h5perf_headline.answers(inputs["block"])
            self.assertEqual(len(page), 2, page)
            for line in page:
                self.assertIn("): writing (flushed) ", line)
            with open(os.path.join(out, "block", "report.html"), encoding="utf-8") as f:
                html = f.read()
            for line in page:
                self.assertIn(escape(line), html)
            with open(os.path.join(out, "guide.txt")) as f:
                self.assertIn("Number of processors = 2", f.read())
            self.assertNotIn("Number of processors", result.out)

    def test_sized_and_checked_by_the_flushed_figure(self):
        with tempfile.TemporaryDirectory() as d:
            out, result = demo(d, FLUSHING)
            self.assertEqual(result.rc, 0, result)
            said = [line for line in result.err_lines if line.startswith("scripts/demo: ")]
            # 64 MiB flushed in 0.31 s, x 0.3 s: 62 MiB, 32 planes of 2 MiB
            # (by the raw write's 0.01 s: 1920 MiB, 960 planes).
            self.assertTrue(any(line.startswith("scripts/demo: 1 of 2: block: "
                                                "--global=32x512x512 (") for line in said),
                            result)
            self.assertEqual([line for line in said if "sized again" in line], [], result)
            block = os.path.join(out, "block.json")
            # The raw writes are in the results, too short by the whole rule;
            # the answers' figures are not.
            res = h5perf_results.load(block)
            raw = [k for k in res.keys("write")]
            self.assertEqual(len(raw), 4, raw)  # POSIX and MPI-IO, shared and fpp
            self.assertTrue(all(res.stats[k].short for k in raw), raw)
            self.assertEqual(len(h5perf_headline.short_figures(res)), 4)
            self.assertEqual(h5perf_headline.short_figures(
                res, h5perf_headline.answer_measures(res)), [])
            self.assertEqual(common.run_tool("h5perf_headline.py",
                                             ["--check-min-time", block]).rc, 1)
            self.assertEqual(common.run_tool("h5perf_headline.py",
                                             ["--check-min-time", "--answers-only", block]).rc, 0)
            self.assertIn("scripts/demo: block: 4 figures of measures the answers are not "
                          "given in last under 0.1 s (too short to judge): in %s, not on its "
                          "page" % block, said)
            # The page: the flushed writes, not the raw ones, and says so.
            with open(os.path.join(out, "block", "report.html"), encoding="utf-8") as f:
                page = f.read()
            self.assertIn("<th>write incl. open/close median MB/s</th>", page)
            self.assertNotIn("<th>write median MB/s</th>", page)
            self.assertIn("<p>This page shows only write incl. open/close (h5perf-plot "
                          "--measures); write is in the results file, not here.</p>", page)
            self.assertNotIn("<td>write</td>", page)  # the table of every run
            charts = os.listdir(os.path.join(out, "block"))
            self.assertIn("block-write_open_close-p2.svg", charts)
            self.assertNotIn("block-write-p2.svg", charts)

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
