"""MPI cases about the companion on real results: h5perf-plot draws every
chart and the HTML page from a 2-process run of the three APIs, and
h5perf-compare passes the run against itself and flags it made twice as slow.
The images are read by tests/companion/checks.py (written from the file
formats, sharing nothing with tools/).
"""
import copy
import json
import os
import subprocess
import sys

from common import case
from harness import TempDir, expect, expect_eq, run

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", "tools")
sys.path.insert(0, os.path.join(HERE, "..", "companion"))
import checks  # noqa: E402

MEASURES = {"write": "write", "write_open_close": "write incl. open/close", "read": "read",
            "read_open_close": "read incl. open/close"}
APIS = ("posix", "mpiio", "phdf5")
SIZES = ("32KiB", "64KiB")


def tool(name, args):
    """tools/<name> with this interpreter (CMake's H5PERF_PYTHON, which has
    matplotlib), no display, and a private matplotlib cache."""
    env = dict(os.environ, MPLBACKEND="Agg",
               MPLCONFIGDIR=os.path.join(os.path.dirname(args[-1]), "mplconfig"))
    return subprocess.run([sys.executable, os.path.join(TOOLS, name)] + args, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)


def expected_charts():
    """{name: title} of every chart of a run at 1 and 2 processes, two sizes."""
    charts = {}
    for m, title in MEASURES.items():
        for p, procs in ((1, "1 process"), (2, "2 processes")):
            charts["throughput-size-%s-p%d" % (m, p)] = \
                "%s throughput vs transfer size, %s" % (title, procs)
        for x in SIZES:
            charts["throughput-processes-%s-x%s" % (m, x)] = \
                "%s throughput vs processes, transfer size %s" % (title, x)
        charts["overhead-%s" % m] = "%s overhead: phdf5/mpiio and mpiio/posix throughput" % title
    return charts


def expected_series(name):
    """{series id: points drawn}: two sizes or two process counts each."""
    if name.startswith("throughput"):
        return {api: 2 for api in APIS}
    return {"%s, %s" % (ratio, procs): 2 for ratio in ("phdf5/mpiio", "mpiio/posix")
            for procs in ("1 process", "2 processes")}


def slowed(doc, factor):
    """A copy in which every iteration took factor times as long; only the
    samples change: h5perf-compare computes from them."""
    doc = copy.deepcopy(doc)
    for r in doc["runs"]:
        for m in r["measures"]:
            for s in m["samples"]:
                if s["seconds"] is not None:
                    s["seconds"] = {k: v * factor for k, v in s["seconds"].items()}
    return doc


@case
def plot_and_compare_a_real_run():
    """The charts (PNG and SVG, titles, axis units, one series per API or
    ratio with a point per size or process count) and the self-contained HTML
    page from a real run; compare: the run against itself is 48 times 'same'
    and exit 0, against itself twice as slow 48 regressions and exit 1."""
    with TempDir() as d:
        results = os.path.join(d, "run.json")
        r = run(2, "-e 64K -B 16K -x 32K -X 64K -i 1 --results %s" % results,
                env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "h5perf exit status", r)
        plots = os.path.join(d, "plots")
        p = tool("h5perf-plot", ["-o", plots, results])
        charts = expected_charts()
        expect_eq((p.returncode, p.stdout), (0, "h5perf-plot: %d charts and report.html in '%s'\n"
                                             % (len(charts), plots)), "h5perf-plot", p)
        expect_eq(sorted(os.listdir(plots)),
                  sorted({n + e for n in charts for e in (".png", ".svg")} | {"report.html"}),
                  "files written", p)
        for name, title in charts.items():
            w, h = checks.png_size(os.path.join(plots, name + ".png"))
            expect(w > 0 and h > 0, "%s.png size" % name)
            svg = checks.Svg(os.path.join(plots, name + ".svg"))
            expect(title in svg.texts, "%s: title '%s' in %s" % (name, title, svg.texts))
            unit = "ratio of median throughputs (×)" if name.startswith("overhead") \
                else "throughput (MiB/s)"
            expect(unit in svg.texts, "%s: y axis '%s'" % (name, unit))
            series = expected_series(name)
            expect_eq({g: svg.markers(g) for g in series if g in svg.groups}, series,
                      "%s: series and their points" % name)
        with open(os.path.join(plots, "report.html"), encoding="utf-8") as fh:
            page = checks.Page(fh.read())
        expect_eq(page.errors, [], "report.html structure")
        expect_eq(page.external_urls(), [], "report.html external references")
        expect_eq(len(page.svg_images()), len(charts), "charts embedded in report.html")

        c = tool("h5perf-compare", [results, results])
        expect_eq((c.returncode, c.stdout.splitlines()[-1]),
                  (0, "0 regressions in 48 configurations (threshold 10%)"), "compare same", c)
        slow = os.path.join(d, "slow.json")
        with open(results) as fh, open(slow, "w") as out:
            json.dump(slowed(json.load(fh), 2.0), out)
        c = tool("h5perf-compare", [results, slow])
        expect_eq((c.returncode, c.stdout.splitlines()[-1]),
                  (1, "48 regressions in 48 configurations (threshold 10%)"), "compare 2x", c)
