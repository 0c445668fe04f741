#!/usr/bin/env python3
"""The top of report.html and its warnings, from headline.json (the guide's
2D pattern, 4 APIs, an HDF5 fallback from collective I/O, a page-cache
warning, figures on both sides of 0.1 s, processes unbalanced by API):

- the title names the run (pattern, APIs, process counts, host, date);
- the headline table's figures are exactly the JSON summaries' of each API's
  best run (highest median), in MB/s with two decimals, as the text report;
- each warning is beside exactly the charts it concerns, in h5perf's words;
- the imbalance charts exist and chart each run's slowest/fastest times;
- the overhead chart's title names PnetCDF/MPI-IO when it is charted;
- a failed run: its title says so, APIs it never reached are "not run",
  and no chart is drawn without a point.
Expected values come from the JSON here, not from tools/.
"""
import html
import json
import os
import re
import statistics
import sys
import tempfile
import unittest

import checks
import common

PAGE_CACHE = common.load(common.HEADLINE)["page_cache_warnings"][0]
IO_MODE = ("h5perf: warning: HDF5 did independent I/O where collective was asked (4 processes, "
           "transfer size 1MB, write): datatype conversion (on 1 of 4 processes)")
TITLE = ("h5perf guide 2D, collective I/O: posix, mpiio, phdf5, pnetcdf at 2 and 4 processes "
         "on node001, 2026-11-22 08:00 UTC")
FIGURE = re.compile(r'<figure id="chart-([^"]+)">(.*?)</figure>', re.S)
ITEM = re.compile(r'<li class="([a-z-]+)" data-kind="\1"><span class="text">(.*?)</span>', re.S)


def figures(page):
    """{chart name: [(kind, text)]} of the warnings beside each chart."""
    return {name: [(k, html.unescape(t)) for k, t in ITEM.findall(body)]
            for name, body in FIGURE.findall(page)}


def short_text(short, total):
    return ("too short to judge: %d of %d figures in this chart have a median time under 0.1 s "
            "(h5perf-compare's --min-time); their differences may be noise" % (short, total))


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = os.path.join(cls.tmp.name, "out")
        r = common.run_tool("h5perf-plot", ["-o", cls.out, common.HEADLINE])
        assert r.rc == 0, r
        with open(os.path.join(cls.out, "report.html"), encoding="utf-8") as f:
            cls.text = f.read()
        cls.page = checks.Page(cls.text)
        cls.figures = figures(cls.text)
        cls.doc = common.load(common.HEADLINE)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_title_names_the_run(self):
        self.assertEqual(self.page.title, TITLE)
        self.assertIn("<h1>%s</h1>" % TITLE, self.text)

    def test_mb_is_defined_once(self):
        self.assertEqual(self.text.count("1 MB = 2<sup>20</sup> = 1,048,576 bytes"), 1)

    def test_headline_figures(self):
        rows = self.page.table_with("write median MB/s")
        self.assertEqual([r["API"] for r in rows], ["posix", "mpiio", "phdf5", "pnetcdf"])
        for row in rows:
            for phase in ("write", "read"):
                runs = [(r, m) for r in self.doc["runs"] if r["api"] == row["API"]
                        for m in r["measures"] if m["measure"] == phase]
                run, m = max(runs, key=lambda rm: rm[1]["summary"]["mib_per_s"]["median"])
                mbs = m["summary"]["mib_per_s"]
                self.assertEqual(row["%s median MB/s" % phase], "%.2f" % mbs["median"])
                self.assertEqual(row["%s best MB/s" % phase], "%.2f" % mbs["max"])
                self.assertEqual(row["%s best run" % phase], "%d processes, %dMiB" % (
                    run["processes"], run["transfer_size"] >> 20))
        # The figures themselves, as h5perf's text report prints them.
        self.assertEqual(rows[0]["write median MB/s"], "2695.43")
        self.assertEqual(rows[2]["read best MB/s"], "1940.24")

    def test_page_cache_warning_beside_the_read_charts_at_2_processes(self):
        beside = {n for n, w in self.figures.items() if ("page-cache", PAGE_CACHE) in w}
        self.assertEqual(beside, {
            "throughput-size-read-p2", "throughput-size-read_open_close-p2",
            "throughput-processes-read-x256KiB", "throughput-processes-read-x1MiB",
            "throughput-processes-read_open_close-x256KiB",
            "throughput-processes-read_open_close-x1MiB", "overhead-read",
            "overhead-read_open_close", "imbalance-read-p2"})

    def test_hdf5_fallback_beside_the_charts_of_its_writes(self):
        beside = {n for n, w in self.figures.items() if ("io-mode", IO_MODE) in w}
        self.assertEqual(beside, {
            "throughput-size-write-p4", "throughput-size-write_open_close-p4",
            "throughput-processes-write-x1MiB", "throughput-processes-write_open_close-x1MiB",
            "overhead-write", "overhead-write_open_close", "imbalance-write-p4"})

    def test_short_figures_counted_beside_each_chart(self):
        runs = self.doc["runs"]

        def median(run, measure):
            return statistics.median(common.slowest_times(common.find_measure(run, measure)))
        for p in (2, 4):
            for measure in ("write", "read"):
                ms = [median(r, measure) for r in runs if r["processes"] == p]
                short = sum(t < 0.1 for t in ms)
                want = [("short", short_text(short, len(ms)))] if short else []
                got = [w for w in self.figures["throughput-size-%s-p%d" % (measure, p)]
                       if w[0] == "short"]
                self.assertEqual(got, want, (measure, p))
        self.assertEqual([w for w in self.figures["throughput-size-write-p2"] if w[0] == "short"],
                         [("short", short_text(4, 8))])

    def test_warnings_section_lists_each_once(self):
        section = self.text[self.text.index("<h2>Warnings</h2>"):self.text.index("<h2>Inputs")]
        self.assertEqual([(k, html.unescape(t)) for k, t in ITEM.findall(section)][:2],
                         [("page-cache", PAGE_CACHE), ("io-mode", IO_MODE)])
        self.assertIn("(beside 9 charts)", section)
        self.assertIn("(beside 7 charts)", section)

    def test_imbalance_charts(self):
        for measure in ("write", "read"):
            for p in (2, 4):
                name = "imbalance-%s-p%d" % (measure, p)
                self.assertIn(name, self.figures)
                svg = checks.Svg(os.path.join(self.out, name + ".svg"))
                self.assertIn("%s: slowest process's time over the fastest's, %d processes" % (
                    measure, p), svg.texts)
                self.assertIn("slowest process's time / fastest's (×)", svg.texts)
                for api in ("posix", "mpiio", "phdf5", "pnetcdf"):
                    self.assertEqual(svg.markers(api), 2, (name, api))
        self.assertNotIn("imbalance-write-p1", self.figures)

    def test_imbalance_data(self):
        sys.path.insert(0, common.TOOLS)
        import h5perf_charts
        import h5perf_results
        res = h5perf_results.load(common.HEADLINE)
        plots = {p.name: p for p in h5perf_charts.plan_charts([res])}
        plot = plots["imbalance-write-p4"]
        self.assertEqual(plot.y, "imbalance")
        for s in plot.series:
            for x, median, low, high in s.points:
                run = common.find_run(self.doc, 4, x, s.label)
                ratios = [smp["seconds"]["slowest"] / smp["seconds"]["fastest"]
                          for smp in common.find_measure(run, "write")["samples"]]
                self.assertEqual((median, low, high),
                                 (statistics.median(ratios), min(ratios), max(ratios)))
        # The fixture's processes: the fastest at 0.6 of the slowest's time for HDF5.
        phdf5 = next(s for s in plot.series if s.label == "phdf5")
        self.assertAlmostEqual(phdf5.points[0][1], 1 / 0.59, places=9)

    def test_overhead_title_names_pnetcdf(self):
        svg = checks.Svg(os.path.join(self.out, "overhead-write.svg"))
        self.assertIn("write overhead: phdf5/mpiio, mpiio/posix and pnetcdf/mpiio throughput",
                      svg.texts)
        self.assertIn("<h3>Overhead ratios: HDF5 over MPI-IO, MPI-IO over POSIX, PnetCDF over "
                      "MPI-IO</h3>", self.text)


class FailedRun(unittest.TestCase):
    """headline.json as a run that failed in its first API's reads and so
    never reached the others (status io_error, only posix runs, their
    reads failed): the title says so, the APIs it never reached are "not
    run" in the headline, and no chart is drawn without a point."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        doc = common.load(common.HEADLINE)
        doc["status"], doc["exit_status"] = "io_error", 1
        doc["runs"] = [r for r in doc["runs"] if r["api"] == "posix"]
        for run in doc["runs"]:
            run["status"] = "io_error"
            for m in run["measures"]:
                if m["measure"].startswith("read"):
                    m["status"], m["summary"] = "io_error", None
        path = os.path.join(cls.tmp.name, "failed.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        cls.out = os.path.join(cls.tmp.name, "out")
        r = common.run_tool("h5perf-plot", ["-o", cls.out, path])
        assert r.rc == 0, r
        with open(os.path.join(cls.out, "report.html"), encoding="utf-8") as f:
            cls.page = checks.Page(f.read())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_title_says_it_failed(self):
        self.assertEqual(self.page.title, TITLE + ", failed: io_error")

    def test_apis_not_reached_are_not_run(self):
        rows = self.page.table_with("write median MB/s")
        self.assertEqual([r["API"] for r in rows], ["posix", "mpiio", "phdf5", "pnetcdf"])
        self.assertEqual(rows[0]["read median MB/s"], "failed")
        self.assertNotIn(rows[0]["write median MB/s"], ("failed", "not run"))
        for row in rows[1:]:
            self.assertEqual((row["write median MB/s"], row["read median MB/s"]),
                             ("not run", "not run"), row["API"])

    def test_no_chart_without_a_point(self):
        charts = sorted(n[:-4] for n in os.listdir(self.out) if n.endswith(".svg"))
        self.assertTrue(charts)
        self.assertEqual([n for n in charts if "read" in n or n.startswith("overhead")], [])
        self.assertEqual(len(self.page.svg_images()), len(charts))


if __name__ == "__main__":
    unittest.main(verbosity=2)
