#!/usr/bin/env python3
"""companion_plot: h5perf-plot renders the committed fixtures.

Checks the exact set of files, that every PNG and SVG is a real image, the
titles, axis labels and series of each SVG (and that failed measurements are
not drawn), and that report.html is well formed, self-contained, embeds every
chart, lists the failed runs with their errors and has one row per measure
with the right median.
"""
import os
import re
import tempfile
import unittest

import matplotlib.image

import checks
import common

KIB, MIB = 1 << 10, 1 << 20
SIZE_LABELS = {256 * KIB: "256KiB", 512 * KIB: "512KiB", MIB: "1MiB"}
TITLES = {"write": "write", "write_open_close": "write incl. open/close", "write_raw": "raw write",
          "read": "read", "read_open_close": "read incl. open/close", "read_raw": "raw read",
          "write_open": "write open", "write_close": "write close",
          "read_open": "read open", "read_close": "read close"}
APIS = ("posix", "mpiio", "phdf5")
RATIOS = (("phdf5", "mpiio"), ("mpiio", "posix"))
GAPS_NOTE = "gaps: failed measurements"
# Printed once by matplotlib when its cache directory is new; not ours.
FOREIGN_STDERR = re.compile(r"^Matplotlib is building the font cache")


def procs_text(p):
    return "1 process" if p == 1 else "%d processes" % p


def size_chart(m, p):
    return "throughput-size-%s-p%d" % (m, p), \
        "%s throughput vs transfer size, %s" % (TITLES[m], procs_text(p))


def procs_chart(m, x):
    return "throughput-processes-%s-x%s" % (m, SIZE_LABELS[x]), \
        "%s throughput vs processes, transfer size %s" % (TITLES[m], SIZE_LABELS[x])


def overhead_chart(m):
    return "overhead-%s" % m, "%s overhead: phdf5/mpiio and mpiio/posix throughput" % TITLES[m]


def ok_points(doc, p, api, m, xs):
    """How many of these (x) points the oracle says have a throughput."""
    n = 0
    for x in xs:
        run = common.find_run(doc, p, x, api)
        n += common.expected_median(run, common.find_measure(run, m)) is not None
    return n


class Rendering:
    """Mixin: runs h5perf-plot once per class and checks what every
    rendering must satisfy. Subclasses set ARGS (with {tmp}), OUTDIR and
    the expected charts {name: title}."""

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-plot-test-")
        cls.tmp = cls._tmp.name
        cls.prepare()
        cls.result = common.run_tool("h5perf-plot", [a.format(tmp=cls.tmp) for a in cls.ARGS],
                                     cwd=cls.tmp)
        cls.out = os.path.join(cls.tmp, cls.OUTDIR)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    @classmethod
    def prepare(cls):
        pass

    def path(self, name):
        return os.path.join(self.out, name)

    def all_charts(self):
        """CHARTS and the imbalance charts {name: alt text}: for the write and
        read transfers at every process count of 2 or more (their contents
        are test_report.py's)."""
        prefix = getattr(self, "PREFIX", None)
        procs = sorted({r["processes"] for _, doc in self.DOCS for r in doc["runs"]
                        if r["processes"] > 1})
        out = dict(self.CHARTS)
        for m in ("write", "read"):
            for p in procs:
                alt = "%s: slowest process's time over the fastest's, %s" % (m, procs_text(p))
                titled = getattr(self, "TITLED", {}).get("%s-write-p%d" % (prefix, p))
                out["%s-%s-p%d" % (prefix + "-imbalance" if prefix else "imbalance", m, p)] = \
                    "%s (%s)" % (alt, titled[1]) if titled else alt
        return out

    def test_exit_status_and_messages(self):
        r = self.result
        self.assertEqual(r.rc, 0, r)
        self.assertEqual([l for l in r.err_lines if not FOREIGN_STDERR.match(l)], [], r)
        self.assertEqual(r.out, "h5perf-plot: %d charts and report.html in '%s'\n" % (
            len(self.all_charts()), self.OUTDIR), r)

    def test_exactly_the_expected_files(self):
        expected = {n + ext for n in self.all_charts() for ext in (".png", ".svg")} | {
            "report.html"}
        self.assertEqual(sorted(os.listdir(self.out)), sorted(expected))

    def test_pngs_are_images(self):
        for name in self.CHARTS:
            path = self.path(name + ".png")
            w, h = checks.png_size(path)
            self.assertTrue(w > 0 and h > 0, path)
            pixels = matplotlib.image.imread(path)
            self.assertEqual(pixels.shape[:2], (h, w), path)
            # A blank canvas would have one colour.
            self.assertGreater(pixels.std(), 0.01, path)

    def test_svgs_have_titles_units_and_series(self):
        for name, title in self.CHARTS.items():
            svg = checks.Svg(self.path(name + ".svg"))
            self.assertIn(title, svg.texts, name)
            if name.startswith("overhead"):
                self.assertIn("ratio of median throughputs (×)", svg.texts, name)
            else:
                self.assertIn("throughput (MiB/s)", svg.texts, name)
            xlabel = ("MPI processes (log2 scale)" if "-processes-" in name
                      else "transfer size (bytes, log2 scale)")
            self.assertIn(xlabel, svg.texts, name)
            expected = self.series(name)
            for gid, points in expected.items():
                self.assertIn(gid, svg.groups, (name, gid))
                self.assertIn(gid, svg.texts, (name, "legend", gid))
                self.assertEqual(svg.markers(gid), points, (name, gid))
            plotted = {g for g in svg.groups if g in svg.texts}
            self.assertEqual(plotted, set(expected), name)
            gaps = any(len(self.xs(name)) > n for n in expected.values())
            self.assertEqual(any(t.startswith(GAPS_NOTE) for t in svg.texts), gaps, name)

    def page(self):
        with open(self.path("report.html"), encoding="utf-8") as f:
            page = checks.Page(f.read())
        self.assertEqual(page.errors, [])
        return page

    def test_html_is_self_contained_and_embeds_every_chart(self):
        page = self.page()
        self.assertEqual(page.external_urls(), [])
        self.assertFalse({"link", "script", "iframe", "object"} & set(page.tags))
        with open(self.path("report.html"), encoding="utf-8") as f:
            raw = f.read()
        self.assertNotIn("url(", raw)
        self.assertNotIn("@import", raw)
        embedded = sorted(page.svg_images())
        files = []
        for name in self.all_charts():
            with open(self.path(name + ".svg"), "rb") as f:
                files.append(f.read())
        self.assertEqual(len(embedded), len(self.all_charts()))
        self.assertEqual(embedded, sorted(files))
        alts = {i.get("alt") for i in page.imgs}
        self.assertEqual(alts, set(self.all_charts().values()))

    def run_cells(self, run):
        """The runs table's cells that name a run (a subclass adds more)."""
        return {"processes": str(run["processes"]),
                "transfer size": SIZE_LABELS[run["transfer_size"]], "API": run["api"]}

    def test_html_runs_table(self):
        rows = self.page().table_with("median MiB/s")
        expected = []
        for label, doc in self.DOCS:
            for run in doc["runs"]:
                for m in run["measures"]:
                    median = common.expected_median(run, m)
                    row = dict(self.run_cells(run), **{
                        "measure": TITLES[m["measure"]],
                        "median MiB/s": "" if median is None else "%.1f" % median,
                        "status": m["status"]})
                    if len(self.DOCS) > 1:
                        row["input"] = label
                    expected.append(row)
        got = [{k: r[k] for k in expected[0]} for r in rows]
        key = lambda r: sorted(r.items())  # noqa: E731
        self.assertEqual(sorted(got, key=key), sorted(expected, key=key))


class FailureFixture(Rendering, unittest.TestCase):
    """One input with failures and every kind of measure; -o and --title."""
    ARGS = ["-o", "out", "--title", "Failure <fixture> & co", common.FAILURE]
    OUTDIR = "out"
    MEASURES = ("write", "write_open_close", "write_raw", "read", "read_open_close", "read_raw")
    CHARTS = dict([size_chart(m, 2) for m in MEASURES] + [overhead_chart(m) for m in MEASURES])
    DOCS = [("failure", common.load(common.FAILURE))]
    XS = (512 * KIB, MIB)

    def xs(self, name):
        return self.XS

    def series(self, name):
        """{gid: points drawn}, from the fixture through the oracle."""
        doc = self.DOCS[0][1]
        if name.startswith("throughput"):
            m = name.split("-")[2]
            return {api: ok_points(doc, 2, api, m, self.XS) for api in APIS}
        m = name.split("-", 1)[1]
        # A ratio has a point where both of its APIs have a throughput.
        return {"%s/%s, 2 processes" % (a, b): sum(
            ok_points(doc, 2, a, m, [x]) * ok_points(doc, 2, b, m, [x]) for x in self.XS)
            for a, b in RATIOS}

    def test_failed_points_are_gaps(self):
        # Spelled out for the two failures of the fixture: mpiio's reads at
        # 512KiB (verification) and everything of phdf5 at 1MiB (I/O error).
        self.assertEqual(self.series("throughput-size-read-p2"),
                         {"posix": 2, "mpiio": 1, "phdf5": 1})
        self.assertEqual(self.series("throughput-size-write-p2"),
                         {"posix": 2, "mpiio": 2, "phdf5": 1})

    def test_title_and_context(self):
        page = self.page()
        self.assertEqual(page.title, "Failure <fixture> & co")
        text = " ".join(page.text)
        for fact in ("ext4", "/scratch/h5perf", "1.10.8", "Open MPI v4.1.4", "node001",
                     "2026-11-22T08:00:00Z", "h5perf -e 2M -x 512K -X 1M", "exit status 1"):
            self.assertIn(fact, text)

    def test_failed_runs_listed_with_errors(self):
        rows = self.page().table_with("errors")
        got = {(r["transfer size"], r["API"], r["status"]): r["errors"] for r in rows}
        self.assertEqual(set(got), {("512KiB", "mpiio", "verify_failed"),
                                    ("1MiB", "phdf5", "io_error")})
        self.assertIn("No space left on device", got[("1MiB", "phdf5", "io_error")])
        self.assertIn("rank 1: phdf5 write", got[("1MiB", "phdf5", "io_error")])
        self.assertIn("expected 0x01 found 0x00", got[("512KiB", "mpiio", "verify_failed")])


SWEEP_MEASURES = ("write", "write_open_close", "read", "read_open_close")
SWEEP_XS = (256 * KIB, 512 * KIB, MIB)
SWEEP_PROCS = (1, 2, 4)


class TwoInputs(Rendering, unittest.TestCase):
    """Two inputs, three process counts, default output directory."""
    ARGS = [common.SWEEP, "{tmp}/slow.json"]
    OUTDIR = "h5perf-plots"
    XS, PROCS = SWEEP_XS, SWEEP_PROCS
    CHARTS = dict([size_chart(m, p) for m in SWEEP_MEASURES for p in SWEEP_PROCS] +
                  [procs_chart(m, x) for m in SWEEP_MEASURES for x in SWEEP_XS] +
                  [overhead_chart(m) for m in SWEEP_MEASURES])
    DOCS = [("sweep", common.load(common.SWEEP))]
    DOCS.append(("slow", common.slowed(DOCS[0][1], 1.5)))

    @classmethod
    def prepare(cls):
        common.save(cls.DOCS[1][1], cls.tmp, "slow.json")

    def xs(self, name):
        return self.PROCS if "-processes-" in name else self.XS

    def series(self, name):
        if name.startswith("throughput"):
            return {"%s %s" % (label, api): 3 for label, _ in self.DOCS for api in APIS}
        return {"%s %s/%s, %s" % (label, a, b, procs_text(p)): 3
                for label, _ in self.DOCS for a, b in RATIOS for p in self.PROCS}

    def test_no_failures(self):
        page = self.page()
        self.assertIn("None: every run succeeded.", " ".join(page.text))
        self.assertEqual(page.title, "h5perf guide 1D, independent I/O: posix, mpiio, phdf5 at "
                         "1, 2 and 4 processes: sweep (node001, 2026-11-22 08:00 UTC); slow "
                         "(node001, 2026-11-22 08:00 UTC)")


if __name__ == "__main__":
    unittest.main(verbosity=2)
