#!/usr/bin/env python3
"""No text of a chart overlaps another text or is cut off by the figure's
edge: every chart of the fixtures is drawn (h5perf_charts.figure()) and the
window extents of its texts (titles, axis labels, tick labels, legend
entries, "failed" marks, the gaps note) measured with matplotlib's renderer.
A figure broken on purpose (a tick label written over another, a title
moved off the edge) must fail the same check.
"""
import os
import sys
import unittest

import common

sys.path.insert(0, common.TOOLS)
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import h5perf_charts  # noqa: E402
import h5perf_results  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402


def texts(fig):
    """(label, extent) of every visible, non-empty text of the figure."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    found = list(fig.texts)
    if fig._suptitle is not None:
        found.append(fig._suptitle)
    for ax in fig.axes:
        found += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        found += list(ax.texts)
        # Only the tick labels drawn: inside the view limits.
        for axis, lo_hi in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            lo, hi = sorted(lo_hi)
            for tick in axis.get_major_ticks():
                if lo - 1e-9 <= tick.get_loc() <= hi + 1e-9:
                    found.append(tick.label1)
        legend = ax.get_legend()
        if legend is not None:
            found += list(legend.get_texts())
    out, seen = [], set()
    for t in found:
        if id(t) in seen:  # the suptitle is among fig.texts too
            continue
        seen.add(id(t))
        if t.get_visible() and t.get_text().strip():
            out.append(("'%s'" % t.get_text().replace("\n", " "), t.get_window_extent(renderer)))
    return out, fig.bbox


def problems(fig):
    """Overlapping texts and texts past the figure's edges."""
    found, box = texts(fig)
    out = []
    for label, e in found:
        if e.x0 < box.x0 - 1 or e.y0 < box.y0 - 1 or e.x1 > box.x1 + 1 or e.y1 > box.y1 + 1:
            out.append("cut off: %s" % label)
    for i, (a, ea) in enumerate(found):
        for b, eb in found[i + 1:]:
            w = min(ea.x1, eb.x1) - max(ea.x0, eb.x0)
            h = min(ea.y1, eb.y1) - max(ea.y0, eb.y0)
            if w > 1 and h > 1:
                out.append("overlap: %s and %s" % (a, b))
    return out


def plots_of(*paths):
    inputs = []
    for path, name in zip(paths, h5perf_results.short_names(paths)):
        res = h5perf_results.load(path)
        res.name = name
        inputs.append(res)
    return h5perf_charts.plan_charts(inputs)


class ChartText(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls.tmp = tempfile.TemporaryDirectory()
        block = common.load(common.BLOCK)
        # Failed bars: the word "failed" in their place, beside other bars.
        failed = common.save(common.failed_in(block, (2, block["runs"][9]["transfer_size"],
                                                      "mpiio", "write", "shared")),
                             cls.tmp.name, "block-failed.json")
        cls.sets = {"headline": [common.HEADLINE], "failure": [common.FAILURE],
                    "two inputs": [common.SWEEP, common.FAILURE],
                    "block-failed": [failed], "particles": [common.PARTICLES],
                    "particles-placed": [common.PARTICLES_PLACED]}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_no_text_overlaps_or_is_cut_off(self):
        drawn = 0
        for name, paths in self.sets.items():
            for plot in plots_of(*paths):
                with self.subTest(inputs=name, chart=plot.name):
                    self.assertEqual(problems(h5perf_charts.figure(plot)), [])
                drawn += 1
        self.assertGreater(drawn, 100)

    def test_check_fails_on_broken_figures(self):
        plot = plots_of(common.HEADLINE)[0]
        fig = h5perf_charts.figure(plot)
        # A second title written over the first.
        fig.text(*fig._suptitle.get_position(), plot.title, ha="center", va="top",
                 fontsize=fig._suptitle.get_fontsize())
        self.assertIn("overlap: '%s' and '%s'" % (plot.title, plot.title), problems(fig))
        fig = h5perf_charts.figure(plot)
        fig.suptitle(plot.title + " " + "and much more " * 10)
        self.assertTrue(any(p.startswith("cut off: '%s" % plot.title) for p in problems(fig)),
                        problems(fig))

if __name__ == "__main__":
    unittest.main(verbosity=2)
