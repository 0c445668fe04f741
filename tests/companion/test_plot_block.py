#!/usr/bin/env python3
"""companion_plot_block: h5perf-plot renders block pattern documents.

Per process count and data measure, three bar charts grouped by layout: the
throughput of each API (median, error bar min..max over the iterations),
each API over MPI-IO on the same layout, and each layout over fpp with the
same API (a dashed line at 1). Checks the exact set of files and real PNGs
and the runs table, with its layout column (test_plot.Rendering), each
SVG's title, axis labels, groups and legend, that every bar is where the
oracle says with the height of its median on one scale per chart (and its
error bar from min to max), that a failed measure has no bar but the word
"failed", and the HTML page's context and failed runs.
"""
import math
import unittest

import checks
import common
import test_plot

MIB = 1 << 20
PROCS = (1, 2, 4)
MEASURES = ("write", "write_open_close", "read", "read_open_close")
LAYOUTS = ("shared", "chunked", "fpp")
APIS = ("posix", "mpiio", "phdf5")
TITLES = test_plot.TITLES
FAILED_KEY = (2, 128 * MIB, "phdf5", "read", "shared")


def procs_text(p):
    return "1 process" if p == 1 else "%d processes" % p


def block_charts():
    """{name: title} of every chart of block.json (and of its variants)."""
    charts = {}
    for m in MEASURES:
        for p in PROCS:
            what = (TITLES[m], procs_text(p))
            charts["block-%s-p%d" % (m, p)] = "%s throughput by layout and API, %s" % what
            charts["block-over-mpiio-%s-p%d" % (m, p)] = \
                "%s: each API over MPI-IO on the same layout, %s" % what
            charts["block-over-fpp-%s-p%d" % (m, p)] = \
                "%s: each layout over fpp with the same API, %s" % what
    return charts


def median(doc, p, api, layout, m):
    """(median, min, max) MiB/s of a run, None if it failed, or "absent"
    when the document has no such run."""
    runs = [r for r in doc["runs"] if (r["processes"], r["api"], r["layout"]) == (p, api, layout)]
    if not runs:
        return "absent"
    run = runs[0]
    measure = common.find_measure(run, m)
    med = common.expected_median(run, measure)
    if med is None:
        return None
    times = common.slowest_times(measure)
    return (med, run["bytes"] / MIB / max(times), run["bytes"] / MIB / min(times))


def ratio(a, b):
    if "absent" in (a, b):
        return "absent"
    if a is None or b is None:
        return None
    return (a[0] / b[0],) * 3


class BlockRendering(test_plot.Rendering):
    """test_plot.Rendering's checks, with bars where it has lines. PREFIX
    starts every chart's name (the particles pattern's charts are the block
    pattern's under another name)."""
    CHARTS = block_charts()
    PREFIX = "block"

    def title_texts(self, name):
        """The texts that title a chart in its SVG."""
        return [self.CHARTS[name]]

    def bars(self, name):
        """{series label: {group: (median, min, max), or None where it
        failed}} from the documents, through the oracle; absent runs have
        no entry."""
        kind, m, p = name.rsplit("-", 2)
        kind = "block" + kind[len(self.PREFIX):]
        p = int(p[1:])
        out = {}
        for label, doc in self.bar_docs():
            prefix = "" if len(self.DOCS) == 1 else label + " "
            for api in APIS:
                if kind == "block":
                    series = {g: median(doc, p, api, g, m) for g in LAYOUTS}
                    out[prefix + api] = series
                elif kind == "block-over-mpiio" and api != "mpiio":
                    out[prefix + api + "/mpiio"] = {g: ratio(median(doc, p, api, g, m),
                                                             median(doc, p, "mpiio", g, m))
                                                    for g in LAYOUTS}
                elif kind == "block-over-fpp":
                    out[prefix + api] = {g + "/fpp": ratio(median(doc, p, api, g, m),
                                                           median(doc, p, api, "fpp", m))
                                         for g in LAYOUTS if g != "fpp"}
        return {s: {g: v for g, v in groups.items() if v != "absent"}
                for s, groups in out.items()}

    def bar_docs(self):
        """The (label, document) pairs the bars by layout show: DOCS (a
        placed input's subclass keeps the runs those bars use)."""
        return self.DOCS

    def x_label(self, name):
        """The x axis label of a chart."""
        if name.startswith(self.PREFIX + "-over-fpp"):
            return "file layout, over the file per process (fpp)"
        return "file layout"

    def test_svgs_have_titles_units_and_series(self):
        for name in self.CHARTS:
            svg = checks.Svg(self.path(name + ".svg"))
            for title in self.title_texts(name):
                self.assertIn(title, svg.texts, name)
            throughput = "-over-" not in name
            unit = "throughput (MiB/s)" if throughput else "ratio of median throughputs (×)"
            self.assertIn(unit, svg.texts, name)
            self.assertIn(self.x_label(name), svg.texts, name)
            expected = self.bars(name)
            groups = {g for series in expected.values() for g in series}
            for g in groups:
                self.assertIn(g, svg.texts, (name, "tick", g))
            for label in expected:
                self.assertIn(label, svg.texts, (name, "legend", label))
            drawn = {g for g in svg.groups if g and g.endswith("]")}
            self.assertEqual(drawn, {"%s [%s]" % (s, g) for s, groups in expected.items()
                                     for g, v in groups.items() if v is not None}, name)
            failed = sum(v is None for groups in expected.values() for v in groups.values())
            self.assertEqual(svg.texts.count("failed"), failed, name)
            self.check_heights(name, svg, expected, throughput)

    def check_heights(self, name, svg, expected, throughput):
        """Every bar stands on one base line, its height its median on one
        scale for the chart; a throughput's error bar spans min..max."""
        bars = {}
        for s, groups in expected.items():
            for g, v in groups.items():
                if v is not None:
                    ((x0, x1, top, base),) = svg.paths("%s [%s]" % (s, g))
                    bars[(s, g)] = ((x0 + x1) / 2, top, base, v)
        bases = {round(b[2], 3) for b in bars.values()}
        self.assertEqual(len(bases), 1, (name, bases))
        scales = [(b[2] - b[1]) / b[3][0] for b in bars.values()]
        for k, scale in zip(bars, scales):
            self.assertTrue(math.isclose(scale, scales[0], rel_tol=1e-4), (name, k))
        if not throughput:
            self.assertFalse([g for g in svg.groups if g and g.endswith("min..max")], name)
            return
        for s in expected:
            mine = {k: b for k, b in bars.items() if k[0] == s}
            whiskers = svg.paths("%s min..max" % s) if mine else []
            self.assertEqual(len(whiskers), len(mine), (name, s))
            for x, _, base, (_, lo, hi) in mine.values():
                (w,) = [w for w in whiskers if abs(w[0] - x) < 0.01]
                self.assertAlmostEqual(w[3], base - lo * scales[0], delta=0.01, msg=(name, s))
                self.assertAlmostEqual(w[2], base - hi * scales[0], delta=0.01, msg=(name, s))

    def run_cells(self, run):
        # The block pattern's runs have a layout; their transfer size is a
        # process's block (64MiB to 256MiB here; the particles pattern's: the
        # largest process's particles, 16MiB and 24MiB).
        return {"processes": str(run["processes"]),
                "transfer size": "%dMiB" % (run["transfer_size"] // MIB), "API": run["api"],
                "layout": run["layout"]}

    def context(self, name):
        """The context table of one input: {row name: value}."""
        return {r[""]: r[name] for r in self.page().table_with(name)}


class BlockFixture(BlockRendering, unittest.TestCase):
    """One block document, every figure ok."""
    ARGS = ["-o", "out", common.BLOCK]
    OUTDIR = "out"
    DOCS = [("block", common.load(common.BLOCK))]

    def test_bars_are_the_block_report(self):
        # Spelled out for one chart: three groups, three bars each.
        expected = self.bars("block-write_open_close-p4")
        self.assertEqual({s: sorted(g) for s, g in expected.items()},
                         {api: sorted(LAYOUTS) for api in APIS})
        self.assertEqual(set(self.bars("block-over-mpiio-read-p2")), {"posix/mpiio",
                                                                       "phdf5/mpiio"})
        self.assertEqual({s: sorted(g) for s, g in self.bars("block-over-fpp-read-p1").items()},
                         {api: ["chunked/fpp", "shared/fpp"] for api in APIS})

    def test_context_is_the_block_configuration(self):
        c = self.context("block")
        self.assertEqual(c["workload"], "block pattern, independent I/O")
        self.assertEqual(c["array"], "512x512x256 elements of 4 bytes, 2 variables: "
                                     "512MiB per phase")
        self.assertEqual(c["grid"], "MPI_Dims_create's; by process count: 1: 1x1x1, 2: 2x1x1, "
                                    "4: 2x2x1")
        self.assertEqual(c["read grid"], "the writer's")
        self.assertEqual(c["layouts"], "shared, chunked, fpp")
        self.assertEqual(c["processes"], "4 started; runs at 1, 2, 4")
        self.assertNotIn("datasets x files", c)

    def test_no_failures(self):
        page = self.page()
        self.assertIn("None: every run succeeded.", " ".join(page.text))
        self.assertEqual(page.title, "h5perf block pattern 512x512x256, independent I/O: posix, "
                         "mpiio, phdf5 at 1, 2 and 4 processes on node001, 2026-11-22 08:00 UTC")


class BlockTwoInputs(BlockRendering, unittest.TestCase):
    """Two inputs: the fixture, and the same 1.5 times slower with no
    chunked layout, a read grid given, and a failed read (2 processes,
    phdf5, shared)."""
    ARGS = [common.BLOCK, "{tmp}/slow.json"]
    OUTDIR = "h5perf-plots"
    DOCS = [("block", common.load(common.BLOCK))]
    _slow = common.failed_in(common.slowed(DOCS[0][1], 1.5), FAILED_KEY, "verify_failed")
    _slow["runs"] = [r for r in _slow["runs"] if r["layout"] != "chunked"]
    _slow["config"]["block"].update(layouts=["shared", "fpp"], read_grid=[4, 1, 1])
    DOCS.append(("slow", _slow))

    @classmethod
    def prepare(cls):
        common.save(cls.DOCS[1][1], cls.tmp, "slow.json")

    def test_failed_and_absent_bars(self):
        self.assertEqual(self.bars("block-read-p2")["slow phdf5"]["shared"], None)
        self.assertNotIn("chunked", self.bars("block-read-p2")["slow posix"])
        self.assertEqual(self.bars("block-over-mpiio-read-p2")["slow phdf5/mpiio"],
                         {"shared": None, "fpp": self.bars("block-over-mpiio-read-p2")[
                             "slow phdf5/mpiio"]["fpp"]})
        self.assertIsNone(self.bars("block-over-fpp-read-p2")["slow phdf5"]["shared/fpp"])
        failed = sum(checks.Svg(self.path(n + ".svg")).texts.count("failed") for n in self.CHARTS)
        self.assertEqual(failed, 3)

    def test_failed_runs_listed_with_the_layout(self):
        rows = self.page().table_with("errors")
        self.assertEqual([(r["input"], r["processes"], r["API"], r["layout"], r["status"])
                          for r in rows], [("slow", "2", "phdf5", "shared", "verify_failed")])
        self.assertIn("phdf5 read", rows[0]["errors"])

    def test_title_and_contexts(self):
        page = self.page()
        self.assertEqual(page.title, "h5perf block pattern 512x512x256, independent I/O: posix, "
                         "mpiio, phdf5 at 1, 2 and 4 processes: block (node001, 2026-11-22 08:00 "
                         "UTC); slow (node001, 2026-11-22 08:00 UTC, failed: verify_failed)")
        c = self.context("slow")
        self.assertEqual(c["read grid"], "4x1x1")
        self.assertEqual(c["layouts"], "shared, fpp")


if __name__ == "__main__":
    unittest.main(verbosity=2)
