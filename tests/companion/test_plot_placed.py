#!/usr/bin/env python3
"""companion_plot_placed: h5perf-plot draws throughput against alignment.

particles-placed.json ran --align-data 4K,1M --shift 0,512: POSIX and MPI-IO
on the shared layout four times, HDF5 and fpp once, packed. Besides the
particles charts (test_plot_particles' checks), each process count and
data measure has a chart particles-align-MEASURE-pN: a group per placement
in run order (4K, 4K+512, 1M, 1M+512), a bar per placed API x layout, each
bar's height its median and its error bar min..max (the oracle's). The
charts by layout show, of the placed runs, those of the first --align-data
and --shift, as h5perf's report's tables do. Documents without placed runs
(earlier builds, or a build that writes empty lists and 0, 0) get the same
charts as before; the plan is checked without drawing for those, for a
placed block document and for a placed input beside an unplaced one.
"""
import copy
import sys
import unittest

import checks
import common
import test_plot_block
import test_plot_particles

sys.path.insert(0, common.TOOLS)
import h5perf_charts  # noqa: E402
import h5perf_results as hr  # noqa: E402

MIB = 1 << 20
PROCS = (1, 2)
MEASURES = test_plot_particles.MEASURES
TITLES = test_plot_particles.TITLES
PLACED_APIS = ("posix", "mpiio")
# The fixture's placements, in run order, as the charts name them.
GROUPS = ["4K", "4K+512", "1M", "1M+512"]
ALIGN_HEADING = "Placement: throughput against --align-data and --shift (placed runs)"


def size_label(n):
    """As h5perf's alignment table writes a size: 1M, 4K, 512."""
    if n and n % MIB == 0:
        return "%dM" % (n // MIB)
    if n and n % 1024 == 0:
        return "%dK" % (n // 1024)
    return str(n)


def placement_label(pair):
    """docs/companion.md: "packed" without --align-data, "+SHIFT" with a shift."""
    align, shift = pair
    return (size_label(align) if align else "packed") + ("+%s" % size_label(shift) if shift else "")


def main_view(doc):
    """The runs the charts by layout show (docs/particles.md: the tables of
    the report use the first value of each list): POSIX and MPI-IO outside
    fpp placed by the first --align-data and --shift, the others packed."""
    spec = doc["config"][doc["config"]["pattern"]]
    first = ((spec.get("align_data") or [0])[0], (spec.get("shift") or [0])[0])
    doc = copy.deepcopy(doc)
    doc["runs"] = [r for r in doc["runs"] if common.placement_of(r) == (
        first if r["api"] in PLACED_APIS and r["layout"] != "fpp" else (0, 0))]
    return doc


def placed_charts(subtitle, procs=PROCS):
    """{name: (title, subtitle)}: the particles charts and the alignment charts."""
    charts = test_plot_particles.particles_charts(subtitle, procs)
    for m in MEASURES:
        for p in procs:
            what = (TITLES[m], test_plot_block.procs_text(p))
            charts["particles-align-%s-p%d" % (m, p)] = (
                "%s throughput against --align-data and --shift, %s" % what, subtitle(p))
    return charts


class PlacedFixture(test_plot_particles.ParticlesRendering, unittest.TestCase):
    """One particles document with placed runs, every figure ok."""
    ARGS = ["-o", "out", common.PARTICLES_PLACED]
    OUTDIR = "out"
    DOCS = [("particles-placed", common.load(common.PARTICLES_PLACED))]
    TITLED = placed_charts(test_plot_particles.subtitle_same)
    CHARTS = test_plot_particles.captions(TITLED)

    def bar_docs(self):
        return [(label, main_view(doc)) for label, doc in self.DOCS]

    def bars(self, name):
        if "-align-" not in name:
            return super().bars(name)
        # {"posix shared": {"4K": (median, min, max), ...}, ...}: every run
        # of a placed API and layout, by its placement.
        _, m, p = name.rsplit("-", 2)
        out = {}
        for _, doc in self.DOCS:
            for run in doc["runs"]:
                if run["processes"] != int(p[1:]) or run["api"] not in PLACED_APIS or \
                        run["layout"] == "fpp":
                    continue
                measure = common.find_measure(run, m)
                times = common.slowest_times(measure)
                median = common.expected_median(run, measure)
                out.setdefault("%s %s" % (run["api"], run["layout"]), {})[
                    placement_label(common.placement_of(run))] = None if median is None else (
                    median, run["bytes"] / MIB / max(times), run["bytes"] / MIB / min(times))
        return out

    def x_label(self, name):
        return "--align-data (+ --shift), bytes" if "-align-" in name else super().x_label(name)

    def run_cells(self, run):
        return dict(super().run_cells(run), placement=placement_label(common.placement_of(run)))

    def test_alignment_groups_in_run_order(self):
        svg = checks.Svg(self.path("particles-align-write_open_close-p2.svg"))
        self.assertIn("write incl. open/close throughput against --align-data and --shift, "
                      "2 processes", svg.texts)
        self.assertIn(test_plot_particles.subtitle_same(2), svg.texts)
        self.assertEqual([t for t in svg.texts if t in GROUPS], GROUPS)
        self.assertEqual({s: list(g) for s, g in self.bars(
            "particles-align-write_open_close-p2").items()},
            {"posix shared": GROUPS, "mpiio shared": GROUPS})
        # Left to right in run order, each API's bars in every group.
        for api in PLACED_APIS:
            xs = [svg.paths("%s shared [%s]" % (api, g))[0][0] for g in GROUPS]
            self.assertEqual(xs, sorted(xs), api)
        self.assertFalse([g for g in svg.groups if g and ("phdf5" in g or "fpp" in g)])

    def test_layout_charts_use_the_first_placement(self):
        # The shared bars of the charts by layout are the 4K runs (shift 0),
        # not another placement's, whose figures differ.
        doc = self.DOCS[0][1]
        plots = {p.name: p for p in h5perf_charts.plan_charts([hr.load(common.PARTICLES_PLACED)])}
        for api in PLACED_APIS:
            (point,) = [pt for s in plots["particles-read-p2"].series if s.label == api
                        for pt in s.points if pt[0] == "shared"]
            medians = {common.placement_of(r): common.expected_median(
                r, common.find_measure(r, "read")) for r in doc["runs"]
                if (r["processes"], r["api"], r["layout"]) == (2, api, "shared")}
            self.assertEqual(len(set(medians.values())), 4)
            self.assertAlmostEqual(point[1], medians[(4096, 0)], places=9)

    def test_sections_context_and_note(self):
        page = self.page()
        text = " ".join(page.text)
        self.assertIn(ALIGN_HEADING, text)
        self.assertIn("The placement is the run's --align-data and --shift", text)
        self.assertEqual(self.context("particles-placed")["placement"],
                         "--align-data 4K,1M, --shift 0,512; runs 4K, 4K+512, 1M, 1M+512; "
                         "the charts by layout show 4K")
        self.assertEqual(self.context("particles-placed")["processes"],
                         "2 started; runs at 1, 2")


class PlacedFailed(PlacedFixture):
    """The fixture with the read of one placement failed (2 processes,
    POSIX, 4K+512): a "failed" place in its alignment charts only, since
    the charts by layout show the 4K runs, and a placement in the failed
    runs' table."""
    ARGS = ["-o", "out", "{tmp}/particles-placed.json"]
    KEY = (2, 4 * 6291456, "posix", "read", "shared", 4096, 512)
    DOCS = [("particles-placed", common.failed_in(common.load(common.PARTICLES_PLACED), KEY))]

    @classmethod
    def prepare(cls):
        common.save(cls.DOCS[0][1], cls.tmp, "particles-placed.json")

    def test_failed_place(self):
        self.assertIsNone(self.bars("particles-align-read-p2")["posix shared"]["4K+512"])
        failed = {n: checks.Svg(self.path(n + ".svg")).texts.count("failed")
                  for n in self.CHARTS}
        self.assertEqual({n: c for n, c in failed.items() if c},
                         {"particles-align-read-p2": 1})
        rows = self.page().table_with("errors")
        self.assertEqual([(r["processes"], r["API"], r["layout"], r["placement"], r["status"])
                          for r in rows], [("2", "posix", "shared", "4K+512", "io_error")])

    # The failure is in the runs; the rest of the page is the fixture's.
    test_alignment_groups_in_run_order = test_layout_charts_use_the_first_placement = None
    test_sections_context_and_note = None


def plan(docs):
    return {p.name: p for p in h5perf_charts.plan_charts(
        [hr.Results(name + ".json", doc) for name, doc in docs])}


def shape(plots):
    """What a plan draws: name -> (title, subtitle, groups, series)."""
    return {name: (p.title, p.subtitle, p.groups, [(s.label, s.color, s.hatch, s.points)
                                                   for s in p.series])
            for name, p in plots.items()}


class Plan(unittest.TestCase):
    """The plan of the charts, without drawing."""

    def test_unplaced_documents_are_unchanged(self):
        for path in (common.PARTICLES, common.BLOCK):
            doc = common.load(path)
            old, new = plan([("a", doc)]), plan([("a", common.unplaced_new_build(doc))])
            self.assertEqual(shape(old), shape(new), path)
            self.assertFalse([n for n in old if "-align-" in n], path)

    def test_placed_block_document(self):
        doc = common.placed_block()
        plots = plan([("block", doc)])
        self.assertEqual(len([n for n in plots if n.startswith("block-align-")]), 12)
        align = plots["block-align-read-p4"]
        self.assertEqual((align.title, align.groups, align.x, align.y),
                         ("read throughput against --align-data and --shift, 4 processes",
                          ["packed", "packed+512"], "placement", "throughput"))
        self.assertEqual([s.label for s in align.series],
                         ["posix shared", "posix chunked", "mpiio shared", "mpiio chunked"])
        self.assertEqual([[p[0] for p in s.points] for s in align.series],
                         [["packed", "packed+512"]] * 4)
        # Shifted runs were 1.5 times slower.
        for s in align.series:
            self.assertAlmostEqual(s.points[0][1] / s.points[1][1], 1.5)
        # The first --shift value is 0: the charts by layout are the
        # unplaced document's.
        unplaced = plan([("block", common.load(common.BLOCK))])
        self.assertEqual(shape({n: p for n, p in plots.items() if "-align-" not in n}),
                         shape(unplaced))

    def test_placed_beside_unplaced(self):
        plots = plan([("placed", common.load(common.PARTICLES_PLACED)),
                      ("packed", common.only_processes(common.load(common.PARTICLES), 2))])
        align = plots["particles-align-write-p2"]
        self.assertEqual(align.groups, GROUPS + ["packed"])
        self.assertEqual([(s.label, [p[0] for p in s.points]) for s in align.series],
                         [("placed posix shared", GROUPS), ("placed mpiio shared", GROUPS),
                          ("packed posix shared", ["packed"]),
                          ("packed mpiio shared", ["packed"])])
        self.assertEqual(plots["particles-write-p2"].groups, ["shared", "fpp"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
