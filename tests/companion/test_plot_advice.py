#!/usr/bin/env python3
"""companion_plot_advice: h5perf-plot makes the evidence page of an
advisor's answer (h5perf --advise ... --results ADVICE.json).

The fixture advice/advice.json is a real answer of this machine
(advice/w.yaml, 2 processes, --budget 30; not in data/, which holds
results documents): ten candidates, a
recommendation (-A posix --layout fpp), ties, intervals too few samples
have (null). Checks: the document is told by its "schema" field; the page
is well formed and self-contained, has the title, the set's heading, the
recommendation's command line and in words, one SVG chart per set with
the chart title, a bar label per candidate the text answer's table shows
(rank, options, "=" for a tie, "(recommended)", "(baseline)"), each bar
in its colour (recommended green, baseline grey, others blue), the legend;
and a table row per candidate. A kept baseline says so; an advice document
given with another, or one the schema refuses, is one line and exit 2.
--html names a results document's page too.
"""
import json
import os
import tempfile
import unittest

import checks
import common

ADVICE = os.path.join(common.HERE, "advice", "advice.json")
TITLE = "h5perf advisor: 2D field, 512 KiB"
CHART = "arrays[0] 'field': write and read MiB/s, medians and 95% intervals"
LABELS = ["1. -A posix --layout fpp = (recommended)", "2. -A phdf5 --layout fpp =",
          "3. -A posix --layout shared", "4. -A mpiio --layout shared =",
          "5. -A mpiio --layout fpp", "6. -A phdf5 --layout fpp -C",
          "7. -A mpiio --layout fpp -C", "8. -A mpiio --layout shared -C =",
          "9. -A phdf5 --layout shared =", "10. -A phdf5 --layout shared -C (baseline)"]
GREEN, GREY, BLUE = "#2ca02c", "#7f7f7f", "#1f77b4"


def plot(tmp, args):
    return common.run_tool("h5perf-plot", args, cwd=tmp)


def fill_of(svg, gid):
    (g,) = svg.groups[gid]
    styles = [p.get("style", "") for p in g.iter(checks.SVG_NS + "path")]
    return [s.split("fill: ")[1].split(";")[0] for s in styles if "fill: " in s][0]


class AdvicePage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-advice-test-")
        cls.tmp = cls._tmp.name
        cls.doc = common.load(ADVICE)
        cls.r = plot(cls.tmp, [ADVICE, "--html", "page.html"])
        cls.listing = sorted(os.listdir(cls.tmp))
        with open(os.path.join(cls.tmp, "page.html"), encoding="utf-8") as f:
            cls.html = f.read()
        cls.page = checks.Page(cls.html)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def test_run(self):
        self.assertEqual((self.r.rc, self.r.err_lines), (0, []), self.r)
        self.assertEqual(self.r.out, "h5perf-plot: the advisor's answer, 1 chart, in "
                         "'page.html'\n")
        # The page holds its charts: nothing else is written.
        self.assertEqual(self.listing, ["page.html"])

    def test_self_contained(self):
        self.assertEqual(self.page.errors, [])
        self.assertEqual(self.page.external_urls(), [])
        self.assertEqual(self.page.title, TITLE)

    def test_texts(self):
        text = " ".join("".join(self.page.text).split())
        rec = self.doc["sets"][0]["recommendation"]
        for want in (TITLE, "arrays[0] 'field'",
                     "Recommendation: -A posix --layout fpp, 605.11 times the baseline's "
                     "throughput (significantly better than the baseline, its data verified).",
                     rec["command"], "In words: " + rec["in_words"] + ".",
                     "Hints: none (the library's own)",
                     "Not: -A phdf5 --layout shared -C: 0.00 of the recommendation's "
                     "throughput.",
                     "10 candidates, 10 measured, in 2 rounds, 5.2 s of the 30.0 s budget."):
            self.assertIn(want, text)

    def test_chart(self):
        (svg_bytes,) = self.page.svg_images()
        self.assertEqual([i["alt"] for i in self.page.imgs], [CHART])
        path = os.path.join(self.tmp, "chart.svg")
        with open(path, "wb") as f:
            f.write(svg_bytes)
        svg = checks.Svg(path)
        os.remove(path)
        for want in [CHART, "write MiB/s", "read MiB/s", "recommended", "baseline",
                     "other (= : tied with the best)"] + LABELS:
            self.assertIn(want, svg.texts)
        by_label = {c["rank"]: c for c in self.doc["sets"][0]["candidates"]}
        for rank in range(1, 11):
            c = by_label[rank]
            want = GREEN if rank == 1 else GREY if c["baseline"] else BLUE
            for phase in ("write", "read"):
                self.assertEqual(fill_of(svg, "%s-%d" % (phase, c["id"])), want, (rank, phase))

    def test_table(self):
        rows = self.page.table_with("candidate")
        self.assertEqual(len(rows), 10)
        self.assertEqual([r["rank"] for r in rows], [str(k) for k in range(1, 11)])
        self.assertEqual(rows[0]["candidate"], "-A posix --layout fpp")
        self.assertEqual(rows[0]["write MiB/s [95% interval]"], "3796.7 [1101.3, 4153.5]")
        self.assertEqual(rows[1]["write MiB/s [95% interval]"], "249.2 [n<6]")
        self.assertEqual((rows[0]["state"], rows[0]["tie"]), ("verified", "="))
        self.assertEqual(rows[9]["candidate"], "-A phdf5 --layout shared -C (baseline)")
        self.assertEqual(rows[9]["x base"], "1.00")

    def test_default_page(self):
        r = plot(self.tmp, [ADVICE, "-o", "out"])
        self.assertEqual(r.rc, 0, r)
        self.assertEqual(os.listdir(os.path.join(self.tmp, "out")), ["report.html"])

    def test_results_page_named(self):
        # --html names the page of a results document too; its charts stay
        # in OUTDIR.
        with tempfile.TemporaryDirectory(prefix="h5perf-advice-test-") as tmp:
            r = plot(tmp, [common.FAILURE, "-o", "charts", "--html", "failure.html"])
            self.assertEqual(r.rc, 0, r)
            self.assertEqual(r.out, "h5perf-plot: 14 charts in 'charts', the page in "
                             "'failure.html'\n")
            self.assertEqual(sorted(os.listdir(tmp)), ["charts", "failure.html"])
            charts = os.listdir(os.path.join(tmp, "charts"))
            self.assertNotIn("report.html", charts)
            self.assertEqual(len(charts), 28)
            with open(os.path.join(tmp, "failure.html"), encoding="utf-8") as f:
                self.assertEqual(len(checks.Page(f.read()).svg_images()), 14)

    def test_baseline_kept(self):
        doc = common.load(ADVICE)
        s = doc["sets"][0]
        base = s["candidates"][0]
        s["recommendation"].update(keep_baseline=True, candidate=0, ratio_to_baseline=None,
                                   why="no candidate is significantly better than the baseline",
                                   command=base["command"])
        for c in s["candidates"]:
            c["state"] = "in race" if c["state"] == "verified" else c["state"]
        path = os.path.join(self.tmp, "kept.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        r = plot(self.tmp, [path, "--html", "kept.html"])
        self.assertEqual(r.rc, 0, r)
        with open(os.path.join(self.tmp, "kept.html"), encoding="utf-8") as f:
            page = checks.Page(f.read())
        text = " ".join("".join(page.text).split())
        self.assertIn("Recommendation: keep the baseline: no candidate is significantly better "
                      "than the baseline.", text)
        svg_path = os.path.join(self.tmp, "kept.svg")
        with open(svg_path, "wb") as f:
            f.write(page.svg_images()[0])
        svg = checks.Svg(svg_path)
        self.assertIn("1. -A posix --layout fpp =", svg.texts)
        self.assertEqual(fill_of(svg, "write-%d" % s["candidates"][0]["id"]), GREY)
        for name in ("kept.json", "kept.html", "kept.svg"):
            os.remove(os.path.join(self.tmp, name))

    def test_refusals(self):
        bad = os.path.join(self.tmp, "bad.json")
        doc = common.load(ADVICE)
        doc["sets"][0]["candidates"][0]["state"] = "excellent"
        with open(bad, "w") as f:
            json.dump(doc, f)
        for args, line in (
                ([ADVICE, common.BLOCK], "h5perf-plot: '%s' is an advisor's answer: it is "
                 "plotted alone, not with '%s'" % (ADVICE, common.BLOCK)),
                ([bad], "h5perf-plot: '%s': sets[0].candidates[0].state: 'excellent' is not one "
                 "of ['verified', 'in race', 'worse', 'halved', 'failed', 'unmeasured']" % bad)):
            r = plot(self.tmp, args + ["--html", "x.html"])
            self.assertEqual((r.rc, r.err_lines, r.out), (2, [line], ""), r)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.html")))
        os.remove(bad)


if __name__ == "__main__":
    unittest.main()
