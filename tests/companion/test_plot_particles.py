#!/usr/bin/env python3
"""companion_plot_particles: h5perf-plot renders particles pattern documents.

The particles pattern's charts are the block pattern's bars by layout
(test_plot_block.BlockRendering's checks: the exact files, real PNGs, each
bar's height and error bar against the oracle, "failed" where a measure
failed, the runs table with its layout column), named particles-...: a
group per layout that ran (shared, fpp), and a subtitle under each title
saying what was measured: the distribution and, at that process count, the
particles in all and per process. The HTML page's context has the particles
configuration and each process count's counts where the block pattern has
its array and grid. Several inputs of other distributions are named in the
subtitle; the plan of the charts is checked without drawing too.
"""
import os
import sys
import unittest

import checks
import common
import test_plot
import test_plot_block

sys.path.insert(0, common.TOOLS)
import h5perf_charts  # noqa: E402
import h5perf_results as hr  # noqa: E402

MIB = 1 << 20
PROCS = (1, 2, 4)
MEASURES = ("write", "write_open_close", "read", "read_open_close")
TITLES = test_plot.TITLES
# In the uniform variant, where the transfer size is the mean's.
EVEN_FAILED_KEY = (2, 16 * MIB, "phdf5", "read", "shared")
DIST = "imbalance:0.5 around 4194304 per process"
# The fixture's counts (docs/particles.md, imbalance:0.5 of 4194304), as
# h5perf's report titles each process count's table.
COUNTS = {1: "4194304 particles, 4194304 per process",
          2: "8388608 particles, 2097152 to 6291456 per process",
          4: "16777216 particles, 2097152 to 6291456 per process"}
VARS = "8 variables of 4-byte elements (x, y, z, px, py, pz, id_1, id_2)"


def subtitle_same(p):
    return "particles %s: %s" % (DIST, COUNTS[p])


def particles_charts(subtitle, procs=PROCS):
    """{name: (title, subtitle)} of every chart of particles.json (and of
    its variants) at the process counts procs; subtitle(p) is the second
    line at p processes."""
    charts = {}
    for m in MEASURES:
        for p in procs:
            what = (TITLES[m], test_plot_block.procs_text(p))
            charts["particles-%s-p%d" % (m, p)] = (
                "%s throughput by layout and API, %s" % what, subtitle(p))
            charts["particles-over-mpiio-%s-p%d" % (m, p)] = (
                "%s: each API over MPI-IO on the same layout, %s" % what, subtitle(p))
            charts["particles-over-fpp-%s-p%d" % (m, p)] = (
                "%s: each layout over fpp with the same API, %s" % what, subtitle(p))
    return charts


class ParticlesRendering(test_plot_block.BlockRendering):
    """The block pattern's checks on particles charts; CHARTS maps a name to
    the HTML page's alt text, the title and the subtitle on one line."""
    PREFIX = "particles"
    TITLED = {}

    def title_texts(self, name):
        return list(self.TITLED[name])


def captions(titled):
    return {name: "%s (%s)" % ts for name, ts in titled.items()}


class ParticlesFixture(ParticlesRendering, unittest.TestCase):
    """One particles document, every figure ok."""
    ARGS = ["-o", "out", common.PARTICLES]
    OUTDIR = "out"
    DOCS = [("particles", common.load(common.PARTICLES))]
    TITLED = particles_charts(subtitle_same)
    CHARTS = captions(TITLED)

    def test_chart_names_and_titles(self):
        # Spelled out for one chart: the file, its two title lines in the
        # SVG, and the groups: the two layouts that ran, no chunked.
        svg = checks.Svg(self.path("particles-write_open_close-p2.svg"))
        self.assertIn("write incl. open/close throughput by layout and API, 2 processes",
                      svg.texts)
        self.assertIn("particles imbalance:0.5 around 4194304 per process: 8388608 particles, "
                      "2097152 to 6291456 per process", svg.texts)
        self.assertIn("shared", svg.texts)
        self.assertIn("fpp", svg.texts)
        self.assertNotIn("chunked", svg.texts)
        self.assertFalse([n for n in os.listdir(self.out) if n.startswith("block")])

    def test_bars_are_the_particles_report(self):
        self.assertEqual({s: sorted(g) for s, g in
                          self.bars("particles-write_open_close-p4").items()},
                         {api: ["fpp", "shared"] for api in test_plot_block.APIS})
        self.assertEqual(set(self.bars("particles-over-mpiio-read-p2")),
                         {"posix/mpiio", "phdf5/mpiio"})
        self.assertEqual({s: sorted(g) for s, g in
                          self.bars("particles-over-fpp-read-p1").items()},
                         {api: ["shared/fpp"] for api in test_plot_block.APIS})

    def test_context_is_the_particles_configuration(self):
        c = self.context("particles")
        self.assertEqual(c["workload"], "particles pattern, %s, %s, independent I/O" % (
            DIST, VARS))
        self.assertEqual(c["particles"], "by process count: 1: %s; 2: %s; 4: %s" % (
            COUNTS[1], COUNTS[2], COUNTS[4]))
        self.assertEqual(c["layouts"], "shared, fpp")
        self.assertEqual(c["processes"], "4 started; runs at 1, 2, 4")
        for row in ("array", "grid", "read grid", "datasets x files", "sizes"):
            self.assertNotIn(row, c)

    def test_sections_and_note(self):
        page = self.page()
        text = " ".join(page.text)
        for heading in ("Throughput by layout and API",
                        "Library overhead: each API over MPI-IO on the same layout",
                        "Shared file: each layout over the file per process (fpp) with the "
                        "same API"):
            self.assertIn(heading, text)
        self.assertIn("The transfer size of the particles pattern is the largest process's "
                      "particles of one variable, its one call.", text)
        self.assertIn("None: every run succeeded.", text)
        self.assertEqual(page.title, "h5perf particles imbalance:0.5, independent I/O: posix, "
                         "mpiio, phdf5 at 1, 2 and 4 processes on node001, 2026-11-22 08:00 UTC")


class ParticlesTwoDistributions(ParticlesRendering, unittest.TestCase):
    """Two inputs: the fixture, and the same with the uniform distribution
    (other counts per process, the same in all), 1.5 times slower, with a
    failed read (2 processes, phdf5, shared): the subtitle names each
    input's distribution."""
    ARGS = [common.PARTICLES, "{tmp}/even.json"]
    OUTDIR = "h5perf-plots"
    DOCS = [("particles", common.load(common.PARTICLES))]
    DOCS.append(("even", common.failed_in(common.slowed(common.uniform_particles(DOCS[0][1]),
                                                        1.5), EVEN_FAILED_KEY, "verify_failed")))
    TITLED = particles_charts(lambda p: "particles: %s (particles); uniform, 4194304 per "
                                        "process (even)" % DIST)
    CHARTS = captions(TITLED)

    @classmethod
    def prepare(cls):
        common.save(cls.DOCS[1][1], cls.tmp, "even.json")

    def test_failed_bars(self):
        self.assertIsNone(self.bars("particles-read-p2")["even phdf5"]["shared"])
        self.assertIsNone(self.bars("particles-over-fpp-read-p2")["even phdf5"]["shared/fpp"])
        failed = sum(checks.Svg(self.path(n + ".svg")).texts.count("failed") for n in self.CHARTS)
        self.assertEqual(failed, 3)

    def test_failed_runs_listed_with_the_layout(self):
        rows = self.page().table_with("errors")
        self.assertEqual([(r["input"], r["processes"], r["transfer size"], r["API"], r["layout"],
                           r["status"]) for r in rows],
                         [("even", "2", "16MiB", "phdf5", "shared", "verify_failed")])

    def test_contexts(self):
        self.assertEqual(self.context("even")["workload"],
                         "particles pattern, uniform, 4194304 per process, %s, independent I/O"
                         % VARS)
        self.assertEqual(self.context("even")["particles"],
                         "by process count: 1: 4194304 particles, 4194304 per process; "
                         "2: 8388608 particles, 4194304 per process; "
                         "4: 16777216 particles, 4194304 per process")


class Plan(unittest.TestCase):
    """The charts' plan without drawing: subtitles of other inputs."""

    def plan(self, docs):
        inputs = []
        for name, doc in docs:
            res = hr.Results(name + ".json", doc)
            inputs.append(res)
        return {p.name: p for p in h5perf_charts.plan_charts(inputs)}

    def test_same_distribution_gives_the_counts(self):
        doc = common.load(common.PARTICLES)
        plots = self.plan([("a", doc), ("b", common.slowed(doc, 2.0))])
        # 36 charts by layout, and 4 of imbalance (write, read at 2 and 4 processes).
        self.assertEqual(len(plots), 40)
        self.assertEqual(plots["particles-read-p4"].subtitle, subtitle_same(4))
        self.assertEqual(plots["particles-imbalance-read-p4"].subtitle, subtitle_same(4))
        self.assertEqual(plots["particles-over-fpp-write-p1"].caption,
                         "write: each layout over fpp with the same API, 1 process (%s)"
                         % subtitle_same(1))
        self.assertEqual(plots["particles-read-p4"].groups, ["shared", "fpp"])
        self.assertEqual(plots["particles-over-fpp-read-p4"].groups, ["shared/fpp"])

    def test_other_distributions_are_named(self):
        doc = common.load(common.PARTICLES)
        normal = common.load(common.PARTICLES)
        normal["config"]["particles"].update(distribution="normal:300", seed=1)
        listed = common.only_processes(common.load(common.PARTICLES), 4)
        listed["config"]["particles"].update(distribution="list:2,0,6,8", per_process=None)
        plots = self.plan([("a", doc), ("n", normal), ("l", listed)])
        self.assertEqual(plots["particles-write-p4"].subtitle,
                         "particles: %s (a); normal:300 around 4194304 per process, seed 1 (n); "
                         "list:2,0,6,8 (l)" % DIST)

    def test_block_charts_have_no_subtitle(self):
        plots = self.plan([("block", common.load(common.BLOCK))])
        self.assertEqual({p.subtitle for p in plots.values()}, {None})
        self.assertEqual({p.caption == p.title for p in plots.values()}, {True})


if __name__ == "__main__":
    unittest.main(verbosity=2)
