"""The self-contained report.html of h5perf-plot.

Formats what the results and the rendered charts already hold: no statistics
are computed here. Self-contained means no external reference of any kind:
CSS is inline and every chart is embedded as a data: URI of its SVG (an <img>
keeps each SVG's internal ids apart from the others').
"""
import base64
import html
import math
import shlex

import h5perf_headline
import h5perf_warnings
from h5perf_results import (counts_text, distribution_text, format_size, measure_title,
                            placement, placement_text, run_placement, size_text)

# The companion's pages' common style (this page's and the advisor's,
# h5perf_advice.py).
BASE_CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { white-space: pre-wrap; overflow-wrap: anywhere; }
figcaption { font-size: 0.85em; }
"""
CSS = BASE_CSS + """tr.failed td { background: #fde8e8; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; width: 640px; max-width: 100%; }
figure img { width: 640px; max-width: 100%; }
table.context td + td { overflow-wrap: anywhere; }
ul.warnings { margin: 0.3em 0 0; padding: 0; list-style: none; font-size: 0.85em; }
ul.warnings li { margin: 0.2em 0; padding: 0.2em 0.5em; border-left: 4px solid #e08a00;
                 background: #fff4e0; overflow-wrap: anywhere; }
ul.warnings li.short { border-color: #999; background: #f2f2f2; }
table.headline td.num { min-width: 5em; }
ul.answers { padding-left: 1.2em; }
ul.answers li { margin: 0.3em 0; overflow-wrap: anywhere; }
"""

ALIGN_HEADING = "Placement: throughput against --align-data and --shift (placed runs)"
IMBALANCE_HEADING = "Per-process imbalance: the slowest process's time over the fastest's"
GUIDE_SECTIONS = (("size", "Throughput vs transfer size"),
                  ("processes", "Throughput vs process count"),
                  ("overhead", "Overhead ratios: HDF5 over MPI-IO, MPI-IO over POSIX"),
                  ("imbalance", IMBALANCE_HEADING))
# The charts of runs keyed by layout (h5perf_charts.py): each section's name
# starts with the pattern's, "block-over-fpp", "map-align".
LAYOUT_SECTIONS = (("", "Throughput by layout and API"),
                   ("-over-mpiio", "Library overhead: each API over MPI-IO on the same layout"),
                   ("-over-fpp", "Shared file: each layout over the file per process (fpp) "
                                 "with the same API"),
                   ("-align", ALIGN_HEADING),
                   ("-imbalance", IMBALANCE_HEADING))
LATENCY_SECTION = ("latency",
                   "Latency of the transfer calls: the share of calls at or below each time")


def esc(value):
    return html.escape(str(value), quote=True)


def _get(d, *keys):
    """A nested value for display; "?" where the document does not have it."""
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return "?"
        d = d[k]
    return d


def _yes_no(v):
    return "yes" if v is True else "no" if v is False else v


def _context_rows(res):
    c, g = res.context, res.config
    hosts = _get(c, "host_names")
    hosts = ", ".join(map(str, hosts[:8])) + (" ..." if len(hosts) > 8 else "") \
        if isinstance(hosts, list) else hosts
    cmd = _get(c, "command_line")
    debug = _get(g, "debug")
    flags = [f for f in ("raw", "times", "verify") if isinstance(debug, dict) and debug.get(f)]
    return [
        ("file", res.path),
        ("status", "%s (exit status %s)" % (_get(res.doc, "status"), _get(res.doc, "exit_status"))),
        ("h5perf", "%s (commit %s)" % (_get(c, "h5perf_version"), _get(c, "h5perf_commit"))),
        ("HDF5", _get(c, "hdf5_version")),
        ("MPI", "%s (MPI %s)" % (_get(c, "mpi_library"), _get(c, "mpi_version"))),
        ("processes", "%s started; runs at %s" % (
            _get(c, "processes"), ", ".join(map(str, res.process_counts())) or "none")),
        ("hosts", "%s: %s" % (_get(c, "hosts"), hosts)),
        ("file system", "%s (magic %s)" % (_get(c, "file_system", "type"),
                                           _get(c, "file_system", "magic"))),
        ("directory", _get(c, "directory")),
        ("start, end", "%s, %s" % (_get(c, "start_time"), _get(c, "end_time"))),
        ("command line", shlex.join(map(str, cmd)) if isinstance(cmd, list) else cmd),
        ("APIs", ", ".join(map(str, g.get("apis", []))) or "?"),
    ] + (_block_rows(res) if res.block else _particles_rows(res) if res.particles
         else _guide_rows(g) if res.pattern == "guide" else _pattern_rows(res)) + [
        ("iterations", _get(g, "iterations")),
        ("options", "write only: %s, read only: %s, debug level %s%s, overwrite: %s%s" % (
            _yes_no(_get(g, "write_only")), _yes_no(_get(g, "read_only")),
            _get(g, "debug", "level"), " " + "+".join(flags) if flags else "",
            _yes_no(_get(g, "overwrite")), "".join(
                ", %s: %s" % (k.replace("_", " "), _yes_no(g[k]))
                for k in ("fsync", "direct", "read_shift") if k in g))),
        ("MPI-IO hints", "; ".join("%s=%s" % kv for kv in sorted(g.get("mpi_info", {}).items()))
         or "none"),
        ("warnings", "; ".join(map(str, g.get("warnings", []))) or "none"),
        # Read figures that only a page cache can explain (docs/differences.md, "Caches") deserve
        # a row of their own: they change what the read charts mean.
        ("page cache", "; ".join(map(str, res.doc.get("page_cache_warnings", []))) or "none"),
    ]


def _guide_rows(g):
    return [
        ("workload", "%s, %s blocks, %s storage, %s I/O" % (
            _get(g, "geometry"), _get(g, "layout"), _get(g, "storage"), _get(g, "io_mode"))),
        ("sizes", "%s per process, transfers %s..%s, blocks %s" % tuple(
            _size(g, k) for k in ("bytes_per_process", "min_xfer_size", "max_xfer_size",
                                  "block_size"))),
        ("datasets x files", "%s x %s" % (_get(g, "num_dsets"), _get(g, "num_files"))),
    ]


def _block_rows(res):
    """The block pattern's workload: config.block, and each process count's
    grid from its runs."""
    g = res.config
    b = g["block"]
    grids = {}
    for run in res.runs:
        grids.setdefault(run["processes"], run.get("grid"))
    by_count = ", ".join("%d: %s" % (p, _dims(grids[p])) for p in sorted(grids))
    layouts = b.get("layouts")
    return _placement_rows(res, [
        ("workload", "block pattern, %s I/O" % _get(g, "io_mode")),
        ("array", "%s elements of %s bytes, %s variable%s%s" % (
            _dims(b.get("global")), _get(b, "element_size"), _get(b, "vars"),
            "" if b.get("vars") == 1 else "s", _phase_bytes(b))),
        ("grid", "%s; by process count: %s" % (
            "given, " + _dims(b["grid"]) if b.get("grid") else "MPI_Dims_create's",
            by_count or "none")),
        ("read grid", _dims(b["read_grid"]) if b.get("read_grid") else "the writer's"),
        ("layouts", ", ".join(map(str, layouts)) if isinstance(layouts, list) else "?"),
    ])


def _particles_rows(res):
    """The particles pattern's workload: config.particles, and each process
    count's particles from its runs (where the block pattern has its grid)."""
    g = res.config
    spec = g["particles"]
    names = spec.get("vars")
    names = names if isinstance(names, list) else []
    counts = res.particle_counts()
    layouts = spec.get("layouts")
    return _placement_rows(res, [
        ("workload", "particles pattern, %s, %d variable%s of 4-byte elements (%s), %s I/O" % (
            distribution_text(g), len(names), "" if len(names) == 1 else "s",
            ", ".join(map(str, names)), _get(g, "io_mode"))),
        ("particles", "by process count: %s" % ("; ".join(
            "%d: %s" % (p, counts_text(counts[p])) for p in sorted(counts)) or "none")),
        ("layouts", ", ".join(map(str, layouts)) if isinstance(layouts, list) else "?"),
    ])


def _pattern_rows(res):
    """Another pattern's workload (map, madbench): its own config.<pattern>
    as h5perf wrote it, a row per member, lists joined by commas."""
    spec = res.config.get(res.pattern)
    spec = spec if isinstance(spec, dict) else {}
    return _placement_rows(res, [("workload", "%s pattern, %s I/O" % (
        res.pattern, _get(res.config, "io_mode")))] + [
        (k.replace("_", " "), ", ".join(map(str, v)) if isinstance(v, list) else
         "none" if v is None else _yes_no(v)) for k, v in spec.items()])


def _placement_rows(res, rows):
    """rows, and for a placed input a row "placement": --align-data and
    --shift as given, the placements run and the one the layout charts use."""
    if not res.placed:
        return rows
    aligns, shifts = res.placement_lists()
    text = "--align-data %s, --shift %s; runs %s; the charts by layout show %s" % (
        ",".join(map(size_text, aligns)) or "not given",
        ",".join(map(size_text, shifts)) or "not given",
        ", ".join(map(placement_text, res.placements)) or "none",
        placement_text(res.first))
    return rows + [("placement", text)]


def _dims(d):
    return "x".join(map(str, d)) if isinstance(d, list) else "?"


def _phase_bytes(b):
    """", 2MiB per phase" (variables x array), or nothing where a value is odd."""
    g = b.get("global")
    values = [b.get("element_size"), b.get("vars")] + (g if isinstance(g, list) else [None])
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
        return ""
    return ": %s per phase" % format_size(math.prod(values))


def _size(cfg, key):
    v = cfg.get(key)
    return format_size(v) if isinstance(v, int) and not isinstance(v, bool) and v > 0 else "?"


def _table(header, rows, row_classes=None, cls=None):
    out = ["<table%s>" % (' class="%s"' % cls if cls else ""), "<tr>" + "".join("<th>%s</th>" % esc(h) for h in header) + "</tr>"]
    for i, row in enumerate(rows):
        cls = row_classes[i] if row_classes else ""
        out.append("<tr%s>" % (' class="%s"' % cls if cls else "") + "".join(row) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _td(value, num=False):
    return '<td class="num">%s</td>' % esc(value) if num else "<td>%s</td>" % esc(value)


def inputs_section(inputs):
    out = ["<h2>Inputs</h2>"]
    for res in inputs:
        out.append("<h3>%s</h3>" % esc(res.name))
        rows = [[_td(k), _td(v)] for k, v in _context_rows(res)]
        out.append(_table(("", res.name), rows, cls="context"))
    return "\n".join(out)


def failures_section(inputs):
    rows = []
    placed = any(res.placed for res in inputs)
    for res in inputs:
        for run in res.failed_runs():
            bad = ["%s: %s" % (m["measure"], m["status"]) for m in run["measures"]
                   if m["status"] != "ok"]
            errors = "".join("<div><code>%s</code></div>" % esc(e) for e in run["errors"])
            rows.append(([_td(res.name)] if len(inputs) > 1 else []) + [
                _td(run["processes"], True), _td(format_size(run["transfer_size"])),
                _td(run["api"])] + ([_td(run["layout"])] if res.by_layout else []) + (
                [_td(placement_text(run_placement(run)))] if placed else []) + [
                _td(run["status"]), _td(", ".join(bad) or "none"),
                "<td>%s</td>" % (errors or "(no error lines)")])
    if not rows:
        return "<h2>Failed runs</h2>\n<p>None: every run succeeded.</p>"
    header = (["input"] if len(inputs) > 1 else []) + [
        "processes", "transfer size", "API"] + (["layout"] if inputs[0].by_layout else []) + (
        ["placement"] if placed else []) + ["status", "failed measures", "errors"]
    return "<h2>Failed runs</h2>\n" + _table(header, rows, ["failed"] * len(rows))


def _heading(section, heading, these):
    """The overhead charts' heading names PnetCDF over MPI-IO when it is charted."""
    if section == "overhead" and any("pnetcdf" in p.plot.apis for p in these):
        return heading + ", PnetCDF over MPI-IO"
    return heading


def warning_items(warnings):
    """<ul class="warnings"> of (kind, text[, note]), or nothing: each text
    exact in a <span class="text">, a note after it."""
    if not warnings:
        return ""
    return '<ul class="warnings">%s</ul>' % "".join(
        '<li class="%s" data-kind="%s"><span class="text">%s</span>%s</li>' % (
            w[0], w[0], esc(w[1]), ' <span class="note">%s</span>' % esc(w[2])
            if len(w) > 2 else "") for w in warnings)


def charts_section(plots, inputs=()):
    """The charts by section; beside each, the warnings that concern it."""
    notes = h5perf_warnings.input_notes(inputs)
    out = ["<h2>Charts</h2>"]
    if not plots:
        out.append("<p>No successful data measure to plot.</p>")
    patterns = list(dict.fromkeys(res.pattern for res in inputs if res.by_layout))
    sections = GUIDE_SECTIONS + tuple((pattern + suffix, heading) for pattern in patterns
                                      for suffix, heading in LAYOUT_SECTIONS)
    for section, heading in sections + (LATENCY_SECTION,):
        these = [p for p in plots if p.plot.section == section]
        if not these:
            continue
        out.append("<h3>%s</h3>\n<div class=\"charts\">" % esc(_heading(section, heading, these)))
        for p in these:
            data = base64.b64encode(p.svg).decode("ascii")
            warnings = h5perf_warnings.chart_warnings(notes, p.plot, len(inputs) > 1)
            out.append('<figure id="chart-%s"><img alt="%s" src="data:image/svg+xml;base64,%s">'
                       "<figcaption>%s.png, %s.svg</figcaption>%s</figure>" % (
                           esc(p.plot.name), esc(p.plot.caption), data, esc(p.plot.name),
                           esc(p.plot.name), warning_items(warnings)))
        out.append("</div>")
    return "\n".join(out)


def warnings_section(inputs, rendered):
    """Every warning once, with how many charts it is beside."""
    several = len(inputs) > 1
    notes = h5perf_warnings.input_notes(inputs)
    items = []
    for n in notes:
        beside = sum(n.concerns(p.plot) for p in rendered)
        items.append((n.kind, "%s%s" % ("%s: " % n.name if several else "", n.text),
                      "(beside %d chart%s)" % (beside, "" if beside == 1 else "s")))
    short = sum(h5perf_warnings.short_text(p.plot) is not None for p in rendered)
    if short:
        items.append((h5perf_warnings.SHORT, "%d chart%s %s figures whose median time is under "
                      "%g s, too short to judge (said beside each)" % (
                          short, "" if short == 1 else "s", "has" if short == 1 else "have",
                          h5perf_warnings.MIN_SECONDS)))
    if not items:
        return "<h2>Warnings</h2>\n<p>None.</p>"
    return "<h2>Warnings</h2>\n" + warning_items(items)


def _num(v, fmt):
    return "" if v is None else fmt % v


def runs_section(inputs):
    rows, classes = [], []
    placed = any(res.placed for res in inputs)
    for res in inputs:
        for key in res.keys():
            p, x, api, measure = key[:4]
            s = res.stats[key]
            rows.append(([_td(res.name)] if len(inputs) > 1 else []) + [
                _td(p, True), _td(format_size(x)), _td(api)] + (
                [_td(key[4])] if res.by_layout else []) + (
                [_td(placement_text(placement(key)))] if placed else []) + [
                _td(measure_title(measure)),
                _td(_num(s.median, "%.1f"), True), _td(_num(s.min, "%.1f"), True),
                _td(_num(s.max, "%.1f"), True), _td(_num(s.median_seconds, "%.6f"), True),
                _td(s.iterations, True), _td("ok" if s.ok else s.failure)])
            classes.append("" if s.ok else "failed")
    first = inputs[0]
    header = (["input"] if len(inputs) > 1 else []) + [
        "processes", "transfer size", "API"] + (["layout"] if first.by_layout else []) + (
        ["placement"] if placed else []) + [
        "measure", "median MiB/s", "min MiB/s", "max MiB/s", "median s", "iterations ok",
        "status"]
    note = ("<p>Over the successful iterations, slowest process of each; the median "
            "throughput is that of the median time. Open and close times move no data.%s%s</p>"
            % (" The transfer size of the block pattern is a process's block of one "
               "variable, its one call." if first.block else
               " The transfer size of the particles pattern is the largest process's "
               "particles of one variable, its one call." if first.particles else "",
               " The placement is the run's --align-data and --shift (4K+512), packed where "
               "it has none." if placed else ""))
    return "<h2>All runs</h2>\n" + note + "\n" + _table(header, rows, classes)


def left_out_note(inputs):
    """What h5perf-plot --measures left off this page, which the results
    files still hold; "" when nothing was."""
    left = []
    for res in inputs:
        left += [m for m in res.left_out if m not in left]
    if not left:
        return ""
    shown = sorted({k[3] for res in inputs for k in res.stats})
    return ("<p>This page shows only %s (h5perf-plot --measures); %s %s in the results "
            "file%s, not here.</p>" % (
                ", ".join(esc(measure_title(m)) for m in shown),
                ", ".join(esc(measure_title(m)) for m in left),
                "is" if len(left) == 1 else "are", "" if len(inputs) == 1 else "s"))


def report(title, inputs, rendered):
    """The whole page as a string; rendered holds (plot, svg bytes) records
    with attributes .plot and .svg. title: None for the default
    (h5perf_headline.title())."""
    title = title or h5perf_headline.title(inputs)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head>\n<meta charset="utf-8">\n<title>%s</title>\n<style>%s</style>\n</head>' % (
            esc(title), CSS),
        "<body>",
        "<h1>%s</h1>" % esc(title),
        "<p>%d input file%s (%s), %d charts. %s</p>" % (
            len(inputs), "" if len(inputs) == 1 else "s",
            ", ".join(esc(r.path) for r in inputs), len(rendered), h5perf_headline.MB_TEXT),
        left_out_note(inputs),
        h5perf_headline.section(inputs),
        warnings_section(inputs, rendered),
        inputs_section(inputs),
        failures_section(inputs),
        charts_section(rendered, inputs),
        runs_section(inputs),
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"

