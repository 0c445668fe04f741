"""The charts of h5perf-plot: what to plot, then drawing it.

plan_charts() turns loaded results into Plot descriptions (pure: no
matplotlib): the guide's lines over transfer sizes and process counts, or
the other patterns' bars by layout (runs keyed by layout: block,
particles, map, madbench; for placed runs, also by --align-data and
--shift); render() draws one Plot
to PNG and SVG with matplotlib's Agg and SVG backends, never pyplot, so no
display and no global figure state. A failed measurement is a NaN point: a
gap in a line, no bar but the word "failed"; a failure is never drawn as a
throughput.
"""
import math
import os

from h5perf_results import (APIS, DATA_MEASURES, LAYOUTS, PLACEABLE_APIS, counts_text,
                            distribution_text, format_size, is_data_measure, is_transfer,
                            measure_title, placeable, placement_text)

API_COLORS = {"posix": "#1f77b4", "mpiio": "#ff7f0e", "phdf5": "#2ca02c", "pnetcdf": "#d62728"}
# The alignment charts' bars of the chunked layout: the API's colour, lighter
# (hatching already tells inputs apart).
CHUNKED_COLORS = {"posix": "#8fbbd9", "mpiio": "#ffbf86"}
# The overhead ratios of the NERSC talk: each layer against the one below it.
# PnetCDF, also built on MPI-IO, beside HDF5 when it ran.
RATIOS = (("phdf5", "mpiio"), ("mpiio", "posix"), ("pnetcdf", "mpiio"))
RATIO_COLORS = {("phdf5", "mpiio"): "#2ca02c", ("mpiio", "posix"): "#ff7f0e",
                ("pnetcdf", "mpiio"): "#d62728"}
MARKERS = "osD^v<>ph"
LINESTYLES = ("-", "--", ":", "-.")
# Bars tell inputs apart by hatching, as lines do by their style.
HATCHES = ("", "//", "..", "xx", "\\\\", "++")
NAN = float("nan")
IMBALANCE_TITLE = "%s: slowest process's time over the fastest's, %s"


class Series:
    """One line or one set of bars: label (also its SVG gid), style, and
    points (x, median, min, max); a failed point has NaN values. A bar
    chart's x is the name of a group. stats: the Stats the points come
    from (both of a ratio's), so the report can say which are too short
    to judge; apis: the APIs it charts (a ratio's two)."""

    def __init__(self, label, color, marker, linestyle, points, hatch="", stats=(), apis=()):
        self.label, self.color, self.marker, self.linestyle = label, color, marker, linestyle
        self.points, self.hatch, self.stats, self.apis = points, hatch, list(stats), set(apis)

    def has_gap(self):
        return any(math.isnan(p[1]) for p in self.points)


class Plot:
    """One chart. x is "size" (transfer size) or "processes", lines over a
    log2 axis, or "layout", "layout ratio" or "placement", bars in groups
    (the names in groups, in order); y is "throughput" (with min..max error bars) or
    "ratio" (with a line at 1). subtitle, a second line under the title,
    says what the particles pattern's charts measured. What it concerns,
    for the report's warnings: measure, processes (None: several), size
    (a transfer size, None: several) and apis (those charted, ratios'
    both)."""

    def __init__(self, name, section, title, x, y, series, groups=None, subtitle=None,
                 measure=None, processes=None, size=None, apis=()):
        self.name, self.section, self.title = name, section, title
        self.x, self.y, self.series, self.groups = x, y, series, groups
        self.subtitle = subtitle
        self.measure, self.processes, self.size, self.apis = measure, processes, size, set(apis)

    def has_data(self):
        """Whether any point has a value: a chart of runs that all failed
        or never ran is left out of the report."""
        return any(not math.isnan(p[1]) for s in self.series for p in s.points)

    @property
    def caption(self):
        """The title and the subtitle on one line (the HTML report's alt text)."""
        return self.title if not self.subtitle else "%s (%s)" % (self.title, self.subtitle)


def _label(inputs, i, text):
    """Series labels carry the input's short name only when there are several."""
    return text if len(inputs) == 1 else "%s %s" % (inputs[i].name, text)


def _point(stats, x):
    if stats is None or not stats.ok:
        return (x, NAN, NAN, NAN)
    return (x, stats.median, stats.min, stats.max)


def _api_series(inputs, keys_of, point=None):
    """A series per input x API; keys_of(results, api) gives the (x, key)
    pairs to plot, and inputs or APIs with none are left out. point(stats,
    x) makes a point (default: the median throughput, min..max)."""
    point = point or _point
    series = []
    for i, res in enumerate(inputs):
        for api in APIS:
            pairs = [(x, k) for x, k in keys_of(res, api) if k in res.stats]
            if pairs:
                series.append(Series(_label(inputs, i, api), API_COLORS[api],
                                     MARKERS[i % len(MARKERS)],
                                     LINESTYLES[i % len(LINESTYLES)],
                                     [point(res.stats[k], x) for x, k in pairs],
                                     stats=[res.stats[k] for _, k in pairs], apis=[api]))
    return series


def _apis_of(series):
    return set().union(*(s.apis for s in series))


def _measures(inputs):
    """The data measures of the inputs: the guide's in DATA_MEASURES order,
    then those of a pattern's own phases in run order."""
    present = {k[3] for res in inputs for k in res.stats}
    phases = []
    for res in inputs:
        phases += [m for m in res.phase_measures if is_data_measure(m) and m not in phases]
    return [m for m in DATA_MEASURES if m in present] + [m for m in phases if m in present]


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
                                      measure_title(m), _procs_text(p)),
                                  "size", "throughput", series, measure=m, processes=p,
                                  apis=_apis_of(series)))
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
                                  measure_title(m), format_size(x)),
                              "processes", "throughput", series, measure=m, size=x,
                              apis=_apis_of(series)))
    return plots




def _ratio_point(a, b, x):
    """The ratio of the medians of Stats a and b at x; NaN where either failed."""
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
                    pairs = [(res.stats[(p, x, num, m)], res.stats[(p, x, den, m)])
                             for x in sizes]
                    series.append(Series(label, RATIO_COLORS[(num, den)],
                                         MARKERS[procs.index(p) % len(MARKERS)],
                                         LINESTYLES[i % len(LINESTYLES)],
                                         [_ratio_point(a, b, x) for (a, b), x in zip(pairs, sizes)],
                                         stats=[st for pair in pairs for st in pair],
                                         apis=(num, den)))
        if series:
            names = ["%s/%s" % r for r in RATIOS if any(s.apis == set(r) for s in series)]
            plots.append(Plot("overhead-%s" % m, "overhead", "%s overhead: %s throughput" % (
                measure_title(m), _and(names)), "size", "ratio", series,
                measure=m, apis=_apis_of(series)))
    return plots


def _and(words):
    """"a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else "%s and %s" % (", ".join(words[:-1]), words[-1])


def imbalance(inputs):
    """Per-process imbalance of the transfers (write, read) at 2 processes
    or more: the slowest process's time over the fastest's in each
    iteration, median and min..max over the iterations, against the
    transfer size; 1.0 is a perfect balance."""
    plots = []
    procs = sorted({p for res in inputs for p in res.process_counts() if p > 1})
    for m in [m for m in _measures(inputs) if is_transfer(m)]:
        for p in procs:
            series = _api_series(inputs, lambda res, api: [
                (x, (p, x, api, m)) for x in res.transfer_sizes()], _imbalance_point)
            if series:
                plots.append(Plot("imbalance-%s-p%d" % (m, p), "imbalance",
                                  IMBALANCE_TITLE % (measure_title(m), _procs_text(p)),
                                  "size", "imbalance", series, measure=m, processes=p,
                                  apis=_apis_of(series)))
    return plots


def _imbalance_point(stats, x):
    if stats is None or not stats.ok or stats.imbalance is None:
        return (x, NAN, NAN, NAN)
    return (x,) + stats.imbalance


# --- the block and particles patterns ----------------------------------------
# Per process count and data measure, the block report's table and its two
# ratios, as bars: a group per layout, a bar per input x API (or ratio). The
# particles pattern's charts are the block pattern's, named "particles-..."
# and with a subtitle: the distribution and the counts at that process count.

def _block_plots(inputs, section, title, x, y, groups, series_of, transfers=False, least=1):
    """One Plot per data measure (with transfers, of the transfers alone:
    is_transfer()) x process count (of least or more); series_of(res, p, m)
    gives the (label, color, points, stats, apis) of one input's sets of
    bars (stats: the Stats behind the points). section is the block
    pattern's; another pattern's starts with its name ("particles",
    "map")."""
    plots = []
    particles = inputs[0].particles
    section = inputs[0].pattern + section[len("block"):]
    procs = sorted({p for res in inputs for p in res.process_counts() if p >= least})
    for m in [m for m in _measures(inputs) if not transfers or is_transfer(m)]:
        for p in procs:
            series = [Series(_label(inputs, i, label), color, "s", "-", points,
                             HATCHES[i % len(HATCHES)], stats, apis)
                      for i, res in enumerate(inputs)
                      for label, color, points, stats, apis in series_of(res, p, m) if points]
            if series and groups:
                plots.append(Plot("%s-%s-p%d" % (section, m, p), section,
                                  title % (measure_title(m), _procs_text(p)), x, y, series,
                                  groups, _particles_subtitle(inputs, p) if particles else None,
                                  measure=m, processes=p, apis=_apis_of(series)))
    return plots


def _particles_subtitle(inputs, p):
    """What the particles inputs measured at p processes: "particles
    imbalance:0.5 around 1000 per process: 2000 particles, 500 to 1500 per
    process" when every input ran the same distribution, else each input's
    distribution: "particles: uniform, 1000 per process (run); list:4,0,6
    (other)"."""
    dists = [distribution_text(res.config) for res in inputs]
    if len(set(dists)) > 1:
        return "particles: " + "; ".join("%s (%s)" % (d, res.name)
                                         for res, d in zip(inputs, dists))
    counts = {res.particle_counts().get(p) for res in inputs if p in res.process_counts()}
    if len(counts) == 1 and None not in counts:
        return "particles %s: %s" % (dists[0], counts_text(counts.pop()))
    return "particles %s" % dists[0]


def _layouts(inputs):
    present = {layout for res in inputs for layout in res.layouts()}
    return [layout for layout in LAYOUTS if layout in present]


def _ratio_points(res, pairs):
    """(group, numerator, denominator) of res.main -> (ratio points, the
    Stats behind them), where both ran."""
    both = [(group, res.main[a], res.main[b]) for group, a, b in pairs
            if a in res.main and b in res.main]
    return ([_ratio_point(a, b, group) for group, a, b in both],
            [st for _, a, b in both for st in (a, b)])


def _main_points(res, keys, point=None):
    """(group, key) of res.main -> (points, the Stats behind them), where it ran."""
    there = [(group, res.main[k]) for group, k in keys if k in res.main]
    return [(point or _point)(st, group) for group, st in there], [st for _, st in there]


def block_throughput(inputs):
    """The median throughput (min..max) of each API on each layout: of placed
    runs, those placed by the first --align-data and --shift (res.main)."""
    def series_of(res, p, m):
        return [(api, API_COLORS[api]) + _main_points(
            res, [(layout, (p, api, layout, m)) for layout in LAYOUTS]) + ([api],)
            for api in APIS]
    return _block_plots(inputs, "block", "%s throughput by layout and API, %s", "layout",
                        "throughput", _layouts(inputs), series_of)


def block_imbalance(inputs):
    """Per-process imbalance of the transfers (write, read) at 2 processes
    or more, per layout and API: as imbalance()."""
    def series_of(res, p, m):
        return [(api, API_COLORS[api]) + _main_points(
            res, [(layout, (p, api, layout, m)) for layout in LAYOUTS], _imbalance_point) +
            ([api],) for api in APIS]
    return _block_plots(inputs, "block-imbalance", IMBALANCE_TITLE, "layout", "imbalance",
                        _layouts(inputs), series_of, True, 2)


def _lighter(color):
    """A "#rrggbb" halfway to white: a variant's bars beside its API's."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join("%02x" % ((c + 255) // 2) for c in rgb)


def _variant_ratio_points(res, p, api, variant, m):
    """(points, stats) of a variant's runs over the MPI-IO run h5perf
    named as their reference (res.variant_over), per layout, where both
    ran."""
    both = []
    for layout in LAYOUTS:
        key = (p, api, variant, layout)
        if key not in res.variant_over or key + (m,) not in res.variant_main:
            continue
        ref = res.variant_over[key]
        den = (res.main.get((p, "mpiio", layout, m)) if ref is None else
               res.variant_main.get((p, "mpiio", ref, layout, m)))
        if den is not None:
            both.append((layout, res.variant_main[key + (m,)], den))
    return ([_ratio_point(a, b, layout) for layout, a, b in both],
            [st for _, a, b in both for st in (a, b)])


def block_over_mpiio(inputs):
    """The library's overhead: each API's median over MPI-IO's on the same
    layout; a variant that h5perf divided by MPI-IO's run with the same
    method (run.overhead, docs/mpiio.md "Like with like") over that run,
    as bars of its own ("pnetcdf nonblocking/mpiio joined")."""
    def series_of(res, p, m):
        out = [("%s/mpiio" % api, API_COLORS[api]) +
               _ratio_points(res, [(layout, (p, api, layout, m), (p, "mpiio", layout, m))
                                   for layout in LAYOUTS]) + ([api, "mpiio"],)
               for api in APIS if api != "mpiio"]
        pairs = []
        for (q, api, variant, _), ref in sorted(res.variant_over.items(),
                                                key=lambda kv: tuple(map(str, kv[0]))):
            if q == p and (api, variant, ref) not in pairs:
                pairs.append((api, variant, ref))
        for api, variant, ref in pairs:
            label = "%s %s/mpiio%s" % (api, variant, " " + ref if ref else "")
            out.append((label, _lighter(API_COLORS[api])) +
                       _variant_ratio_points(res, p, api, variant, m) +
                       ([api, "mpiio"],))
        return out
    return _block_plots(inputs, "block-over-mpiio", "%s: each API over MPI-IO on the same "
                        "layout, %s", "layout", "ratio", _layouts(inputs), series_of)


def block_over_fpp(inputs):
    """The cost of a shared file: each layout's median over the file per
    process's with the same API."""
    def series_of(res, p, m):
        return [(api, API_COLORS[api]) +
                _ratio_points(res, [("%s/fpp" % layout, (p, api, layout, m), (p, api, "fpp", m))
                                    for layout in LAYOUTS if layout != "fpp"]) + ([api],)
                for api in APIS]
    groups = ["%s/fpp" % layout for layout in _layouts(inputs) if layout != "fpp"]
    return _block_plots(inputs, "block-over-fpp", "%s: each layout over fpp with the same "
                        "API, %s", "layout ratio", "ratio",
                        groups if "fpp" in _layouts(inputs) else [], series_of)


def block_alignment(inputs):
    """Throughput against --align-data and --shift, when an input is placed:
    a group per placement (in run order; "packed", "4K", "4K+512"), a bar
    per input x API x layout whose files are placed (POSIX and MPI-IO on the
    shared and chunked layouts), as h5perf's "Alignment" table."""
    if not any(res.placed for res in inputs):
        return []
    groups = []
    for res in inputs:
        groups += [g for g in map(placement_text, res.placements) if g not in groups]

    def series_of(res, p, m):
        out = []
        for api in PLACEABLE_APIS:
            for layout in LAYOUTS:
                if not placeable(api, layout):
                    continue
                at = res.by_placement
                there = [(placement_text(pair), at[c]) for pair in res.placements
                         for c in [(p, api, layout, m) + pair] if c in at]
                color = CHUNKED_COLORS[api] if layout == "chunked" else API_COLORS[api]
                out.append(("%s %s" % (api, layout), color, [_point(st, g) for g, st in there],
                            [st for _, st in there], [api]))
        return out
    return _block_plots(inputs, "block-align", "%s throughput against --align-data and "
                        "--shift, %s", "placement", "throughput", groups, series_of)


def _cdf_points(call):
    """A latency histogram's cumulative distribution: (upper end, fraction of
    calls at or below it) per non-empty bucket, as Series points."""
    total, seen, out = call["calls"], 0, []
    for upper, count in call["histogram"]:
        seen += count
        out.append((upper, seen / total, seen / total, seen / total))
    return out


def latency_cdf(inputs):
    """Per phase and process count, the distribution of one transfer call's
    latency (docs/measuring.md): a line per input x API x layout, or for the
    guide's patterns per input x API at the largest transfer size."""
    plots = []
    for phase in ("write", "read"):
        counts = sorted({k[0] for res in inputs for k, lat in res.latency.items()
                         if phase in lat}, reverse=True)
        for p in counts:
            series, sizes = [], set()
            for i, res in enumerate(inputs):
                keys = [k for k, lat in res.latency.items() if k[0] == p and phase in lat]
                if keys and not res.by_layout:
                    top = max(k[1] for k in keys)
                    keys = [k for k in keys if k[1] == top]
                    sizes.add(top)
                for k in keys:
                    call = res.latency[k][phase]["transfer"]
                    if not call["calls"]:
                        continue
                    layout = k[4] if res.by_layout else None
                    style = LAYOUTS.index(layout) if layout in LAYOUTS else i
                    series.append(Series(_label(inputs, i, k[2] + (" " + layout if layout
                                                                    else "")),
                                         API_COLORS[k[2]], MARKERS[i % len(MARKERS)],
                                         LINESTYLES[style % len(LINESTYLES)], _cdf_points(call),
                                         apis=[k[2]]))
            if not series:
                continue
            at = " at %s" % ", ".join(format_size(x) for x in sorted(sizes)) if sizes else ""
            plots.append(Plot("latency-%s-p%d" % (phase, p), "latency",
                              "Latency of one %s call%s, %s" % (phase, at, _procs_text(p)),
                              "latency", "cdf", series, measure=phase, processes=p,
                              apis=_apis_of(series)))
    return plots


def plan_charts(inputs):
    """Every chart with data for these inputs (all of one pattern), in the
    order the report shows them."""
    if inputs and inputs[0].by_layout:
        plots = block_throughput(inputs) + block_over_mpiio(inputs) + block_over_fpp(inputs) + \
            block_alignment(inputs) + block_imbalance(inputs)
    else:
        plots = throughput_vs_size(inputs) + throughput_vs_processes(inputs) + \
            overhead_ratios(inputs) + imbalance(inputs)
    plots += latency_cdf(inputs)
    return [p for p in plots if p.has_data()]


# --- drawing ------------------------------------------------------------------

AXIS_LABELS = {
    "size": "transfer size (bytes, log2 scale)",
    "processes": "MPI processes (log2 scale)",
    "throughput": "throughput (MiB/s)",
    "ratio": "ratio of median throughputs (×)",
    "imbalance": "slowest process's time / fastest's (×)",
    "layout": "file layout",
    "layout ratio": "file layout, over the file per process (fpp)",
    "placement": "--align-data (+ --shift), bytes",
    "latency": "latency of the call (seconds, log scale)",
    "cdf": "fraction of the calls at or below",
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


def _draw_bars(ax, plot):
    """Grouped bars: a group per name in plot.groups, a bar per series where
    it has a point, and "failed" where that point is NaN. In the SVG each bar
    is a group "LABEL [GROUP]" and each series' error bars "LABEL min..max".
    Returns the legend's handles (a series may have no bar to show)."""
    import matplotlib.patches as mpatches
    import matplotlib.ticker as ticker
    n = len(plot.series)
    width = 0.8 / n
    style = {"edgecolor": "#333333", "linewidth": 0.5}
    handles = []
    for j, s in enumerate(plot.series):
        xs = [plot.groups.index(p[0]) + (j - (n - 1) / 2) * width for p in s.points]
        ok = [(x, p) for x, p in zip(xs, s.points) if not math.isnan(p[1])]
        yerr = None
        if plot.y in ("throughput", "imbalance") and ok:
            yerr = [[p[1] - p[2] for _, p in ok], [p[3] - p[1] for _, p in ok]]
        if ok:
            bars = ax.bar([x for x, _ in ok], [p[1] for _, p in ok], width, yerr=yerr,
                          color=s.color, hatch=s.hatch, capsize=3, **style)
            for (_, p), patch in zip(ok, bars.patches):
                patch.set_gid("%s [%s]" % (s.label, p[0]))
            if yerr:
                bars.errorbar.lines[2][0].set_gid("%s min..max" % s.label)
        for x, p in zip(xs, s.points):
            if math.isnan(p[1]):
                ax.text(x, 0, " failed", rotation=90, ha="center", va="bottom", fontsize=7,
                        color="#666666")
        handles.append(mpatches.Patch(facecolor=s.color, hatch=s.hatch, label=s.label, **style))
    ax.xaxis.set_major_locator(ticker.FixedLocator(range(len(plot.groups))))
    ax.xaxis.set_major_formatter(ticker.FixedFormatter(plot.groups))
    ax.set_xlim(-0.5, len(plot.groups) - 0.5)
    ax.set_xlabel(AXIS_LABELS[plot.x])
    return handles


def _draw_cdf(ax, plot):
    """Cumulative distributions as steps over a log axis of seconds; in the
    SVG each line is found by its label."""
    for s in plot.series:
        line = ax.step([p[0] for p in s.points], [p[1] for p in s.points], where="post",
                       label=s.label, color=s.color, linestyle=s.linestyle, linewidth=1.5)
        line[0].set_gid(s.label)
    ax.set_xscale("log")
    ax.set_xlabel(AXIS_LABELS[plot.x])


# 'none' keeps titles and legends as text in the SVG; a fixed hash salt makes
# the SVG's internal ids, and so the files, reproducible.
RC = {"svg.fonttype": "none", "svg.hashsalt": "h5perf-plot"}


def render(plot, outdir):
    """Draws plot into OUTDIR/<name>.png and .svg; returns the two paths."""
    import matplotlib
    with matplotlib.rc_context(RC):
        fig = figure(plot)
        paths = []
        for ext in ("png", "svg"):
            path = os.path.join(outdir, "%s.%s" % (plot.name, ext))
            meta = {"Date": None} if ext == "svg" else {}
            fig.savefig(path, format=ext, dpi=100, metadata=meta)
            paths.append(path)
    return paths


def figure(plot):
    """The matplotlib Figure of plot (no pyplot: no global state); the
    tests measure its texts."""
    import matplotlib
    from matplotlib.figure import Figure
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.add_subplot()
        handles = None
        if plot.y == "cdf":
            _draw_cdf(ax, plot)
        elif plot.groups is not None:
            handles = _draw_bars(ax, plot)
        else:
            for s in plot.series:
                _draw_series(ax, s, plot.y in ("throughput", "imbalance"))
        ax.set_ylim(bottom=0)
        if plot.y in ("ratio", "imbalance"):
            # Parity: above the line the upper layer is faster than the lower;
            # for imbalance, 1.0 is every process as fast as the others.
            ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
            ax.set_ylim(top=max(ax.get_ylim()[1], 1.1))
        if plot.y == "cdf":
            ax.set_ylim(0, 1.02)
        elif plot.groups is None:
            _x_axis(ax, plot.x, sorted({p[0] for s in plot.series for p in s.points}))
        ax.set_ylabel(AXIS_LABELS[plot.y])
        # The title over the whole figure, legend included: over the axes
        # alone a long one (three overhead ratios) is cut off. The
        # particles pattern's second line, what was measured, goes under
        # it, smaller; both are texts in the SVG.
        fig.suptitle(plot.title)
        if plot.subtitle:
            ax.set_title(plot.subtitle, fontsize=9)
        ax.grid(True, alpha=0.3, axis="both" if plot.groups is None else "y")
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        # A bar chart says "failed" where a bar is missing.
        if plot.groups is None and plot.y != "cdf" and any(s.has_gap() for s in plot.series):
            # Bottom right, under the legend, clear of the x axis label.
            fig.text(0.995, 0.005, "gaps: failed measurements\n(listed in report.html)",
                     fontsize=8, color="#666666", ha="right", va="bottom")
    return fig
