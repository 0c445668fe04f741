"""The charts of h5perf-plot: what to plot, then drawing it.

plan_charts() turns loaded results into Plot descriptions (pure: no
matplotlib); render() draws one Plot to PNG and SVG with matplotlib's Agg
and SVG backends, never pyplot, so no display and no global figure state.
A failed measurement is a NaN point: matplotlib leaves a gap there, and a
failure is never drawn as a throughput.
"""
import math
import os

from h5perf_results import APIS, DATA_MEASURES, MEASURE_TITLES, format_size

API_COLORS = {"posix": "#1f77b4", "mpiio": "#ff7f0e", "phdf5": "#2ca02c"}
# The overhead ratios of the NERSC talk: each layer against the one below it.
RATIOS = (("phdf5", "mpiio"), ("mpiio", "posix"))
RATIO_COLORS = {("phdf5", "mpiio"): "#2ca02c", ("mpiio", "posix"): "#ff7f0e"}
MARKERS = "osD^v<>ph"
LINESTYLES = ("-", "--", ":", "-.")
NAN = float("nan")


class Series:
    """One line: label (also its SVG gid), style, and points
    (x, median, min, max); a failed point has NaN values."""

    def __init__(self, label, color, marker, linestyle, points):
        self.label, self.color, self.marker, self.linestyle = label, color, marker, linestyle
        self.points = points

    def has_gap(self):
        return any(math.isnan(p[1]) for p in self.points)


class Plot:
    """One chart. x is "size" (transfer size) or "processes"; y is
    "throughput" (with min..max error bars) or "ratio" (with a line at 1)."""

    def __init__(self, name, section, title, x, y, series):
        self.name, self.section, self.title = name, section, title
        self.x, self.y, self.series = x, y, series


def _label(inputs, i, text):
    """Series labels carry the input's short name only when there are several."""
    return text if len(inputs) == 1 else "%s %s" % (inputs[i].name, text)


def _point(stats, x):
    if stats is None or not stats.ok:
        return (x, NAN, NAN, NAN)
    return (x, stats.median, stats.min, stats.max)


def _api_series(inputs, keys_of):
    """A series per input x API; keys_of(results, api) gives the (x, key)
    pairs to plot, and inputs or APIs with none are left out."""
    series = []
    for i, res in enumerate(inputs):
        for api in APIS:
            pairs = keys_of(res, api)
            points = [_point(res.stats.get(k), x) for x, k in pairs if k in res.stats]
            if points:
                series.append(Series(_label(inputs, i, api), API_COLORS[api],
                                     MARKERS[i % len(MARKERS)],
                                     LINESTYLES[i % len(LINESTYLES)], points))
    return series


def _measures(inputs):
    present = {k[3] for res in inputs for k in res.stats}
    return [m for m in DATA_MEASURES if m in present]


def _procs_text(p):
    return "1 process" if p == 1 else "%d processes" % p


def throughput_vs_size(inputs):
    plots = []
    procs = sorted({p for res in inputs for p in res.process_counts()})
    for m in _measures(inputs):
        for p in procs:
            series = _api_series(inputs, lambda res, api: [
                (x, (p, x, api, m)) for x in res.transfer_sizes()])
            if series:
                plots.append(Plot("throughput-size-%s-p%d" % (m, p), "size",
                                  "%s throughput vs transfer size, %s" % (
                                      MEASURE_TITLES[m], _procs_text(p)),
                                  "size", "throughput", series))
    return plots


def throughput_vs_processes(inputs):
    """Only for transfer sizes that were run at more than one process count."""
    plots = []
    sizes = sorted({x for res in inputs for x in res.transfer_sizes()})
    for m in _measures(inputs):
        for x in sizes:
            procs = {k[0] for res in inputs for k in res.stats if k[1] == x and k[3] == m}
            if len(procs) < 2:
                continue
            series = _api_series(inputs, lambda res, api: [
                (p, (p, x, api, m)) for p in res.process_counts()])
            plots.append(Plot("throughput-processes-%s-x%s" % (m, format_size(x)), "processes",
                              "%s throughput vs processes, transfer size %s" % (
                                  MEASURE_TITLES[m], format_size(x)),
                              "processes", "throughput", series))
    return plots


def _ratio(res, p, x, num, den, m):
    a, b = res.stats[(p, x, num, m)], res.stats[(p, x, den, m)]
    if not (a.ok and b.ok) or b.median <= 0:
        return (x, NAN, NAN, NAN)
    r = a.median / b.median
    return (x, r, r, r)


def overhead_ratios(inputs):
    """Per measure: a series per input x ratio x process count, over the
    transfer sizes at which both APIs of the ratio ran."""
    plots = []
    procs = sorted({p for res in inputs for p in res.process_counts()})
    for m in _measures(inputs):
        series = []
        for i, res in enumerate(inputs):
            for p in res.process_counts():
                for num, den in RATIOS:
                    sizes = [x for x in res.transfer_sizes()
                             if (p, x, num, m) in res.stats and (p, x, den, m) in res.stats]
                    if not sizes:
                        continue
                    label = _label(inputs, i, "%s/%s, %s" % (num, den, _procs_text(p)))
                    series.append(Series(label, RATIO_COLORS[(num, den)],
                                         MARKERS[procs.index(p) % len(MARKERS)],
                                         LINESTYLES[i % len(LINESTYLES)],
                                         [_ratio(res, p, x, num, den, m) for x in sizes]))
        if series:
            plots.append(Plot("overhead-%s" % m, "overhead",
                              "%s overhead: phdf5/mpiio and mpiio/posix throughput" %
                              MEASURE_TITLES[m], "size", "ratio", series))
    return plots


def plan_charts(inputs):
    """Every chart for these inputs, in the order the report shows them."""
    return throughput_vs_size(inputs) + throughput_vs_processes(inputs) + overhead_ratios(inputs)


# --- drawing ------------------------------------------------------------------

AXIS_LABELS = {
    "size": "transfer size (bytes, log2 scale)",
    "processes": "MPI processes (log2 scale)",
    "throughput": "throughput (MiB/s)",
    "ratio": "ratio of median throughputs (×)",
}


def _x_axis(ax, kind, xs):
    import matplotlib.ticker as ticker
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(ticker.FixedLocator(xs))
    ax.xaxis.set_major_formatter(ticker.FixedFormatter(
        [format_size(x) if kind == "size" else str(x) for x in xs]))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    if len(xs) == 1:
        # A log axis around a single point would otherwise be degenerate.
        ax.set_xlim(xs[0] / 2, xs[0] * 2)
    ax.set_xlabel(AXIS_LABELS[kind])


def _draw_series(ax, s, with_bars):
    xs = [p[0] for p in s.points]
    ys = [p[1] for p in s.points]
    yerr = None
    # Error bars need at least one successful point: numpy warns on all-NaN.
    if with_bars and not all(math.isnan(y) for y in ys):
        yerr = [[p[1] - p[2] for p in s.points], [p[3] - p[1] for p in s.points]]
    bars = ax.errorbar(xs, ys, yerr=yerr, label=s.label, color=s.color, marker=s.marker,
                       linestyle=s.linestyle, capsize=3, markersize=5, linewidth=1.5)
    # Tests and readers find a series in the SVG by this id.
    bars.lines[0].set_gid(s.label)


def render(plot, outdir):
    """Draws plot into OUTDIR/<name>.png and .svg; returns the two paths."""
    import matplotlib
    from matplotlib.figure import Figure
    # 'none' keeps titles and legends as text in the SVG; a fixed hash salt
    # makes the SVG's internal ids, and so the files, reproducible.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "h5perf-plot"}):
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.add_subplot()
        for s in plot.series:
            _draw_series(ax, s, plot.y == "throughput")
        ax.set_ylim(bottom=0)
        if plot.y == "ratio":
            # Parity: above the line the upper layer is faster than the lower.
            ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
            ax.set_ylim(top=max(ax.get_ylim()[1], 1.1))
        _x_axis(ax, plot.x, sorted({p[0] for s in plot.series for p in s.points}))
        ax.set_ylabel(AXIS_LABELS[plot.y])
        ax.set_title(plot.title)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        if any(s.has_gap() for s in plot.series):
            # Bottom right, under the legend, clear of the x axis label.
            fig.text(0.995, 0.005, "gaps: failed measurements\n(listed in report.html)",
                     fontsize=8, color="#666666", ha="right", va="bottom")
        paths = []
        for ext in ("png", "svg"):
            path = os.path.join(outdir, "%s.%s" % (plot.name, ext))
            meta = {"Date": None} if ext == "svg" else {}
            fig.savefig(path, format=ext, dpi=100, metadata=meta)
            paths.append(path)
    return paths
