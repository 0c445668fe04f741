"""The advisor's answer (`h5perf --advise FILE --budget S --results
ADVICE.json`, docs/advice.schema.json) as h5perf-plot's evidence page.

Per data set: horizontal bars of the write and the read medians of the
candidates the text answer's table shows (the ten best, the baseline, the
worst measured), their 95% intervals as error bars, the baseline and the
recommendation in colours of their own and named in their labels, ties
with the best marked "="; the recommendation's command line, hints and
calls in text; a table of every candidate. Formats what the document
holds: nothing is computed but the order of the bars. Self-contained: CSS
inline, every chart an SVG in a data: URI.
"""
import base64
import html
import io
import json

from h5perf_html import BASE_CSS
from h5perf_results import ResultsError, deepest, one_line, schema_validator, where

SCHEMA = "h5perf-advice"
SCHEMA_VERSIONS = (1,)
# Rows of the text answer's table besides the baseline and the worst
# (src/advisor/advise_print.c, ADVISE_ROWS).
ROWS = 10
BASELINE_COLOR = "#7f7f7f"
RECOMMENDED_COLOR = "#2ca02c"
OTHER_COLOR = "#1f77b4"
RC = {"svg.fonttype": "none", "svg.hashsalt": "h5perf-plot"}

CSS = BASE_CSS + """tr.baseline td { background: #eeeeee; }
tr.recommended td { background: #e3f4e3; font-weight: bold; }
figure { margin: 0; max-width: 100%; }
figure img { max-width: 100%; }
div.recommendation { border-left: 4px solid #2ca02c; background: #f3faf3; padding: 0.3em 0.8em; }
div.recommendation.keep { border-color: #7f7f7f; background: #f4f4f4; }
"""


def is_advice(doc):
    """Is doc (any JSON value) an advisor's answer, by its schema field?"""
    return isinstance(doc, dict) and doc.get("schema") == SCHEMA


def validator():
    return schema_validator("advice.schema.json")


def check(path, doc):
    """Raises ResultsError (one line, starting with the quoted path) unless
    doc is a valid advisor's answer of a version this module reads, whose
    references name a candidate (check_references())."""
    version = doc.get("schema_version")
    if version not in SCHEMA_VERSIONS or isinstance(version, bool):
        raise ResultsError("'%s': unsupported schema_version %s of %s (supported: %s)" % (
            path, json.dumps(version), SCHEMA, ", ".join(map(str, SCHEMA_VERSIONS))))
    error = deepest(list(validator().iter_errors(doc)))
    if error is not None:
        at = where(error.absolute_path)
        raise ResultsError("'%s': %s%s" % (path, at + ": " if at else "",
                                           one_line(error.message)[:300]))
    try:
        check_references(doc)
    except ResultsError as e:
        raise ResultsError("'%s': %s" % (path, e)) from None


def check_references(doc):
    """Raises ResultsError (without the file name) where a set's
    recommendation (unless it keeps the baseline) or its "not" names no
    candidate's id: what the schema cannot say, and the page cannot show
    (docs/companion.md, "The advisor's evidence page"). Every other value
    the schema accepts is shown as it is."""
    for i, s in enumerate(doc["sets"]):
        ids = {c["id"] for c in s["candidates"]}
        refs = [("recommendation", s["recommendation"])] if \
            not s["recommendation"]["keep_baseline"] else []
        refs += [("not", s["not"])] if s["not"] else []
        for name, ref in refs:
            if ref["candidate"] not in ids:
                raise ResultsError("sets[%d].%s.candidate: %d is no candidate's id (sets[%d]"
                                   ".candidates)" % (i, name, ref["candidate"], i))


def choices_text(c):
    """The candidate's options from -A on (without -w) and its hints in
    brackets, as the text answer's table writes them."""
    argv = c["argv"]
    words = argv[argv.index("-A"):] if "-A" in argv else argv[1:]
    text = " ".join(w for w in words if w != "-w")
    return text + (" [%s]" % c["hints"] if c["hints"] else "")


def shown(s):
    """The candidates drawn, best first: the ten best measured, the
    baseline and the worst measured (the text answer's rows)."""
    measured = sorted((c for c in s["candidates"] if c["rank"] is not None),
                      key=lambda c: c["rank"])
    return [c for k, c in enumerate(measured)
            if k < ROWS or c["baseline"] or k == len(measured) - 1]


def recommended(s):
    """The id of the recommended candidate, or None (the baseline kept)."""
    rec = s["recommendation"]
    return None if rec["keep_baseline"] else rec["candidate"]


def bar_label(s, c):
    """A bar's label: its rank, its choices, and what it is."""
    marks = []
    if c["baseline"]:
        marks.append("baseline")
    if c["id"] == recommended(s):
        marks.append("recommended")
    tie = " =" if c["tie_with_best"] else ""
    return "%d. %s%s%s" % (c["rank"], choices_text(c), tie,
                           " (%s)" % ", ".join(marks) if marks else "")


def bar_color(s, c):
    if c["id"] == recommended(s):
        return RECOMMENDED_COLOR
    return BASELINE_COLOR if c["baseline"] else OTHER_COLOR


def phases(s):
    return ("write", "read") if s["read_back"] else ("write",)


def median_and_interval(c, phase):
    """(median, (low, high)) of a candidate's phase, each None where the
    document has none (a "read": null, a median or an interval of null).
    The interval is drawn as given, around the median or not, its ends in
    order."""
    summary = c[phase]
    if summary is None:
        return None, None
    ci = summary["interval"]
    return summary["median"], (min(ci), max(ci)) if ci else None


def chart_title(s):
    return "%s '%s': %s MiB/s, medians and 95%% intervals" % (
        s["key"], s["name"], " and ".join(phases(s)))


def figure(s):
    """The matplotlib Figure of set s: one panel per phase, a bar per
    shown candidate (best at the top), its interval as an error bar."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    rows = shown(s)
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(12, 1.6 + 0.38 * len(rows)), layout="constrained")
        axes = fig.subplots(1, len(phases(s)), sharey=True, squeeze=False)[0]
        ys = list(range(len(rows)))[::-1]
        for ax, phase in zip(axes, phases(s)):
            figures = [median_and_interval(c, phase) for c in rows]
            bars = ax.barh(ys, [m or 0 for m, _ in figures],
                           color=[bar_color(s, c) for c in rows])
            # Each bar's id in the SVG: the phase and the candidate's id.
            for bar, c in zip(bars.patches, rows):
                bar.set_gid("%s-%d" % (phase, c["id"]))
            # The intervals apart from the bars: an error bar of a bar is
            # relative to its median, and the document's need not hold it.
            spans = [(y, ci) for y, (_, ci) in zip(ys, figures) if ci]
            if spans:
                ax.errorbar([lo + (hi - lo) / 2 for _, (lo, hi) in spans], [y for y, _ in spans],
                            xerr=[(hi - lo) / 2 for _, (lo, hi) in spans], fmt="none",
                            ecolor="black", capsize=3, linewidth=1)
            ax.set_title("%s MiB/s" % phase)
            ax.set_xlabel("%s throughput, MiB/s (median, 95%% interval)" % phase)
            ax.set_xlim(left=0)
        axes[0].set_yticks(ys)
        axes[0].set_yticklabels([bar_label(s, c) for c in rows], fontsize=8)
        for tick, c in zip(axes[0].get_yticklabels(), rows):
            if c["id"] == recommended(s) or c["baseline"]:
                tick.set_fontweight("bold")
        fig.suptitle(chart_title(s))
        axes[-1].legend(handles=[Patch(color=RECOMMENDED_COLOR, label="recommended"),
                                 Patch(color=BASELINE_COLOR, label="baseline"),
                                 Patch(color=OTHER_COLOR, label="other (= : tied with the best)")],
                        loc="lower right", fontsize=8)
    return fig


def svg(s):
    """Set s's chart as SVG bytes."""
    import matplotlib
    buf = io.BytesIO()
    with matplotlib.rc_context(RC):
        figure(s).savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def esc(value):
    return html.escape(str(value), quote=True)


def figure_text(summary):
    """A summary's median and interval: '123.4 [100.1, 130.2]', '[n<6]'."""
    if summary is None or summary["median"] is None:
        return "-"
    ci = summary["interval"]
    return "%.1f %s" % (summary["median"],
                        "[%.1f, %.1f]" % tuple(ci) if ci else "[n&lt;6]")


def _recommendation(s):
    rec = s["recommendation"]
    by_id = {c["id"]: c for c in s["candidates"]}
    out = ['<div class="recommendation%s">' % (" keep" if rec["keep_baseline"] else "")]
    if rec["keep_baseline"]:
        out.append("<p><b>Recommendation: keep the baseline</b>: %s.</p>" % esc(rec["why"]))
    else:
        ratio = rec["ratio_to_baseline"]
        out.append("<p><b>Recommendation: %s</b>, %s (%s).</p>" % (
            esc(choices_text(by_id[rec["candidate"]])), "no ratio to the baseline's throughput"
            if ratio is None else "%.2f times the baseline's throughput" % ratio,
            esc(rec["why"])))
    out.append("<p>Command line:</p><pre><code>%s</code></pre>" % esc(rec["command"]))
    out.append("<p>In words: %s.<br>Hints: <code>%s</code>%s</p>" % (
        esc(rec["in_words"]), esc(rec["hints"] or "none (the library's own)"),
        "<br>%s calls: <code>%s</code>" % (esc(rec["calls"]["api"]), esc(rec["calls"]["text"]))
        if rec["calls"] else ""))
    if s["not"]:
        out.append("<p>Not: <code>%s</code>: %.2f of the recommendation's throughput.</p>" % (
            esc(choices_text(by_id[s["not"]["candidate"]])),
            s["not"]["share_of_recommendation"]))
    out.append("</div>")
    return out


def _table(s):
    rid = recommended(s)
    out = ["<table><tr><th>rank</th><th>candidate</th><th>write MiB/s [95% interval]</th>"
           "<th>read MiB/s [95% interval]</th><th>x base</th><th>tie</th><th>state</th>"
           "<th>samples</th></tr>"]
    for c in sorted(s["candidates"], key=lambda c: (c["rank"] is None, c["rank"], c["id"])):
        cls = "recommended" if c["id"] == rid else "baseline" if c["baseline"] else ""
        ratio = c["ratio_to_baseline"]
        out.append('<tr%s><td class="num">%s</td><td><code>%s</code>%s</td><td class="num">%s'
                   '</td><td class="num">%s</td><td class="num">%s</td><td>%s</td><td>%s</td>'
                   '<td class="num">%d</td></tr>' % (
                       ' class="%s"' % cls if cls else "",
                       "-" if c["rank"] is None else c["rank"], esc(choices_text(c)),
                       " (baseline)" if c["baseline"] else "", figure_text(c["write"]),
                       figure_text(c["read"]), "-" if ratio is None else "%.2f" % ratio,
                       "=" if c["tie_with_best"] else "", esc(c["state"]),
                       len(c["samples"]["write"])))
    out.append("</table>")
    return out


def page(title, path, doc, charts):
    """The HTML page of the answer doc read from path; charts: each set's
    SVG bytes, in order."""
    w = doc["workload"]
    title = title or "h5perf advisor: %s" % (w["name"] or w["file"])
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>%s</title><style>%s</style></head><body>" % (esc(title), CSS),
           "<h1>%s</h1>" % esc(title),
           "<p>Workload file <code>%s</code>, %d processes, MPI-IO component %s; %.1f s spent "
           "of the %.1f s budget. From <code>%s</code> (h5perf %s); see docs/advisor.md.</p>" % (
               esc(w["file"]), doc["processes"], esc(doc["mpiio_component"] or
                                                     "the MPI library's default"),
               doc["spent_seconds"], doc["budget_seconds"], esc(path),
               esc(doc["h5perf_version"]))]
    for s, chart in zip(doc["sets"], charts):
        measured = sum(c["rank"] is not None for c in s["candidates"])
        rounds = ("in %d round%s" % (s["rounds"], "" if s["rounds"] == 1 else "s")
                  if s["rounds"] else "the first round unfinished")
        out.append("<h2>%s '%s'</h2>" % (esc(s["key"]), esc(s["name"])))
        out.append("<p>%d candidates, %d measured, %s, %.1f s of the %.1f s budget%s.</p>" % (
            len(s["candidates"]), measured, rounds, s["spent_seconds"], s["budget_seconds"],
            " (the budget ended the race)" if s["out_of_budget"] else ""))
        out.extend(_recommendation(s))
        out.append('<figure><img alt="%s" src="data:image/svg+xml;base64,%s"><figcaption>%s: '
                   "the ten best, the baseline (grey) and the worst measured; the "
                   "recommendation in green; = : cannot be told apart from the best."
                   "</figcaption></figure>" % (esc(chart_title(s)),
                                              base64.b64encode(chart).decode("ascii"),
                                              esc(chart_title(s))))
        out.extend(_table(s))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
