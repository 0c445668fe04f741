#!/usr/bin/env python3
"""companion_real_<pattern>: h5perf-plot and h5perf-compare on a real small
run of each pattern (docs/companion.md): the guide's, block, particles,
map (a text map, docs/map.md) and madbench (docs/madbench.md).

Each test runs h5perf under mpiexec (2 processes, 4 for madbench, whose
process count must be a square; tiny sizes, one iteration, POSIX, MPI-IO
and HDF5) into a temporary directory, then:
- h5perf-plot draws it: exit 0, the page's runs table lists every run of
  the document (processes, API, and layout where runs have one) with one
  row per measure, and the page has the pattern's throughput chart of each
  data measure (docs/results.md: the guide's, and the madbench pattern's
  phases' read and write calls);
- h5perf-compare compares it with itself (--min-time 0: every figure is
  judged): exit 0, a row "same" per configuration the document has
  (processes, transfer size or layout, API, data measure) and the summary
  line; and with a copy twice as slow: a regression in every row, exit 1.
The expected rows are computed here from the document, as
docs/companion.md defines configurations, sharing nothing with tools/.
Run one pattern: test_real_runs.py Madbench.
"""
import json
import os
import sys
import unittest

import checks
import common

sys.path.insert(0, os.path.dirname(common.HERE))
from harness import TempDir, run  # noqa: E402

APIS = "-A posix,mpiio,phdf5"
# A text map for 2 processes: a 1D array given as runs, a 2D one as boxes.
MAP = """processes 2
array 1000
0: 0:100 500:200
1: 100:400 700:300
array 64x64
0: 0:32,0:64
1: 32:32,0:64
"""
# The guide's data measures' titles (docs/companion.md); a pattern's own
# phases' measures are titled "S write" (docs/results.md, "Phases").
TITLES = {"write": "write", "write_open_close": "write incl. open/close",
          "read": "read", "read_open_close": "read incl. open/close"}


def data_measure(name):
    """Whether a measure moves data (docs/results.md): the guide's write,
    read and their open-close times, or a phase's read or write calls."""
    return name in TITLES or name.rsplit("_", 1)[-1] in ("read", "write") and "_" in name


def title(name):
    return TITLES.get(name) or name.replace("_", " ")


def size_text(n):
    """A size as h5perf-compare's table writes it: 32KiB, 1MiB, 100B."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return "%d%s" % (n // scale, unit)
    return "%dB" % n


def configurations(doc):
    """Every (processes, transfer size or layout, API, data measure) of doc
    as h5perf-compare's table prints its cells: the guide's runs by
    transfer size, the other patterns' (runs with a layout) by layout."""
    out = set()
    for r in doc["runs"]:
        for m in r["measures"]:
            if not data_measure(m["measure"]):
                continue
            if "layout" in r:
                out.add((str(r["processes"]), r["api"], r["layout"], m["measure"]))
            else:
                out.add((str(r["processes"]), size_text(r["transfer_size"]), r["api"],
                         m["measure"]))
    return out


class RealRun:
    """One pattern's run, plotted and compared; subclasses give the
    processes, the arguments (MAPFILE: a text map written beside the run)
    and the title of one chart per data measure and process count."""

    procs, args, chart = 2, "", ""

    @classmethod
    def setUpClass(cls):
        cls._tmp = TempDir()
        cls.tmp = cls._tmp.__enter__()
        mapfile = os.path.join(cls.tmp, "g.map")
        with open(mapfile, "w") as f:
            f.write(MAP)
        cls.results = os.path.join(cls.tmp, "run.json")
        args = cls.args.replace("MAPFILE", mapfile)
        cls.r = run(cls.procs, "%s -i 1 %s --results %s" % (args, APIS, cls.results),
                    env={"HDF5_PARAPREFIX": cls.tmp}, timeout=240)
        cls.doc = common.load(cls.results) if cls.r.rc == 0 else None

    @classmethod
    def tearDownClass(cls):
        cls._tmp.__exit__(None, None, None)

    def setUp(self):
        self.assertEqual(self.r.rc, 0, self.r)

    def test_plot(self):
        plots = os.path.join(self.tmp, "plots")
        p = common.run_tool("h5perf-plot", ["-o", plots, self.results])
        self.assertEqual(p.rc, 0, p)
        self.assertRegex(p.out, r"^h5perf-plot: [0-9]+ charts and report.html in '%s'\n$"
                         % plots)
        with open(os.path.join(plots, "report.html"), encoding="utf-8") as f:
            page = checks.Page(f.read())
        self.assertEqual(page.errors, [])
        rows = page.table_with("median MiB/s")
        layout = "layout" in self.doc["runs"][0]
        want = sorted((str(r["processes"]), r["api"], r["layout"] if layout else "",
                       title(m["measure"])) for r in self.doc["runs"] for m in r["measures"])
        self.assertEqual(sorted((row["processes"], row["API"], row.get("layout", ""),
                                 row["measure"]) for row in rows), want)
        # A chart's description is its title, and the particles pattern's
        # second line in parentheses (docs/companion.md).
        titles = [i.get("alt", "").split(" (")[0] for i in page.imgs]
        charts = {m["measure"] for r in self.doc["runs"] for m in r["measures"]
                  if data_measure(m["measure"])}
        for m in charts:
            self.assertIn(self.chart % (title(m), self.procs), titles)

    def test_compare(self):
        want = configurations(self.doc)
        same = common.run_tool("h5perf-compare", [self.results, self.results, "--min-time", "0"])
        self.assertEqual((same.rc, same.err), (0, ""), same)
        table = checks.CompareTable(same.out, block="layout" in self.doc["runs"][0])
        self.assertEqual(set(table.rows), want, same)
        self.assertEqual(table.verdicts(), {"same"}, same)
        self.assertEqual(table.summary, "0 regressions in %d configurations (threshold 10%%, "
                         "minimum time 0 s)" % len(want))
        slow = common.save(common.slowed(self.doc, 2.0), self.tmp, "slow.json")
        c = common.run_tool("h5perf-compare", [self.results, slow, "--min-time", "0"])
        self.assertEqual(c.rc, 1, c)
        table = checks.CompareTable(c.out, block="layout" in self.doc["runs"][0])
        self.assertEqual((set(table.rows), table.verdicts()), (want, {"REGRESSION"}), c)


class Guide(RealRun, unittest.TestCase):
    args = "-e 64K -B 16K -x 32K -X 64K -p 2"
    chart = "%s throughput vs transfer size, %d processes"


class Block(RealRun, unittest.TestCase):
    args = "--pattern block --global 32x32x16 -p 2"
    chart = "%s throughput by layout and API, %d processes"


class Particles(RealRun, unittest.TestCase):
    args = "--pattern particles --particles 1000 --distribution imbalance:0.5 --vars 3 -p 2"
    chart = Block.chart


class Map(RealRun, unittest.TestCase):
    args = "--pattern map --map MAPFILE --vars 2"
    chart = Block.chart


class Madbench(RealRun, unittest.TestCase):
    procs = 4
    args = "--pattern madbench --pixels 64 --bins 2 --scalapack-block 16"
    chart = Block.chart


if __name__ == "__main__":
    unittest.main()
