"""The top of h5perf-plot's report: its title and the headline table.

The title names the run (pattern, APIs, process counts, hosts, date); the
headline table gives, per input, API (and layout), the best run's median and
best-iteration throughput of the transfers (write, read), figures the text
report prints for that run (its MB/s). Formats what h5perf_results computed;
no statistics of its own beyond picking the best run.
"""
import html

from h5perf_results import APIS, LAYOUTS, format_size, placement, placement_text

PHASES = ("write", "read")
# The one definition of MB on the page (the text report's, docs/results.md).
MB_TEXT = ("Throughputs are in MB/s as h5perf's text report writes them: 1 MB = "
           "2<sup>20</sup> = 1,048,576 bytes (a MiB), so the MB/s of the headline and the "
           "MiB/s of the charts and tables are one unit.")


def esc(value):
    return html.escape(str(value), quote=True)


def _and(words):
    words = list(words)
    return words[0] if len(words) == 1 else "%s and %s" % (", ".join(words[:-1]), words[-1])


def procs_text(counts):
    """[1, 2, 4] -> "1, 2 and 4 processes"; [1] -> "1 process"."""
    counts = sorted(counts)
    if not counts:
        return "no process count"
    return "%s process%s" % (_and(map(str, counts)), "" if counts == [1] else "es")


def kind(res):
    """What kind of run an input is, in a few words: "guide 2D, collective
    I/O", "block pattern 512x512x256, independent I/O", "particles
    imbalance:0.5, independent I/O"; placed runs add ", placed"."""
    g = res.config
    io = "%s I/O" % g.get("io_mode", "?")
    if res.block:
        dims = g["block"].get("global")
        what = "block pattern" + (" " + "x".join(map(str, dims)) if isinstance(dims, list) else "")
    elif res.particles:
        what = "particles %s" % g["particles"].get("distribution", "?")
    else:
        what = "guide %s" % str(g.get("geometry", "?")).upper()
    return "%s, %s%s" % (what, io, ", placed" if res.placed else "")


def _when(res):
    """start_time "2026-11-22T08:00:00Z" -> "2026-11-22 08:00 UTC"."""
    t = res.context.get("start_time")
    if isinstance(t, str) and len(t) >= 16 and t[10] == "T":
        return "%s %s%s" % (t[:10], t[11:16], " UTC" if t.endswith("Z") else "")
    return str(t) if t is not None else "?"


def _hosts(res):
    names = res.context.get("host_names")
    if not isinstance(names, list) or not names:
        return "?"
    if len(names) == 1:
        return str(names[0])
    return "%d hosts (%s%s)" % (len(names), ", ".join(map(str, names[:3])),
                                ", ..." if len(names) > 3 else "")


def title(inputs):
    """The page's default title: "h5perf guide 2D, collective I/O: posix,
    mpiio, phdf5 at 2 and 4 processes on node001, 2026-11-22 08:00 UTC";
    with several inputs, each input's name, hosts and date instead."""
    kinds = []
    for res in inputs:
        if kind(res) not in kinds:
            kinds.append(kind(res))
    apis = [a for a in APIS if any(a in _apis(res) for res in inputs)]
    counts = {p for res in inputs for p in res.process_counts()}
    head = "h5perf %s: %s at %s" % ("; ".join(kinds), ", ".join(apis) or "no API",
                                    procs_text(counts))
    if len(inputs) == 1:
        return "%s on %s, %s%s" % (head, _hosts(inputs[0]), _when(inputs[0]),
                                   _failed(inputs[0], ", "))
    return "%s: %s" % (head, "; ".join("%s (%s, %s%s)" % (res.name, _hosts(res), _when(res),
                                                          _failed(res, ", "))
                                       for res in inputs))


def _apis(res):
    """The APIs an input asked for (its config), else those that ran."""
    asked = res.config.get("apis")
    return set(asked) if isinstance(asked, list) else {k[2] for k in res.stats}


def _failed(res, sep):
    """sep + "failed: io_error" for a run whose status is not ok, else ""."""
    status = res.doc.get("status", "ok")
    return "" if status == "ok" else "%sfailed: %s" % (sep, status)


def rows(res):
    """The headline rows of one input: (API, layout or None, {phase: cell
    values}), in APIS then LAYOUTS order. A phase's values: (median, best,
    where) of its best run, the one with the highest median throughput, or
    ("not run", "", "") and ("failed", "", "..."). An API the run asked
    for and never reached (a failure stopped the sweep) has one row, "not
    run"."""
    out = []
    for api in APIS:
        if api in _apis(res) and not any(k[2] == api for k in res.keys()):
            out.append((api, None, {ph: _cells(res, []) for ph in PHASES}))
            continue
        for layout in (LAYOUTS if res.by_layout else (None,)):
            keys = [k for k in res.keys() if k[2] == api and (layout is None or k[4] == layout)]
            if not keys:
                continue
            out.append((api, layout, {ph: _cells(res, [k for k in keys if k[3] == ph])
                                      for ph in PHASES}))
    return out


def _cells(res, keys):
    if not keys:
        return ("not run", "", "")
    ok = [k for k in keys if res.stats[k].ok]
    failed = len(keys) - len(ok)
    note = "" if not failed else "; %d of %d run%s failed" % (
        failed, len(keys), "" if len(keys) == 1 else "s")
    if not ok:
        return ("failed", "", note[2:])
    best = max(ok, key=lambda k: res.stats[k].median)
    s = res.stats[best]
    return ("%.2f" % s.median, "%.2f" % s.max, _where(res, best) + note)


def _where(res, key):
    """Where a run ran: "4 processes, 1MiB", "2 processes" (block and
    particles: their transfer size follows from the array), "2 processes,
    4K+512" (a placed run)."""
    text = procs_text([key[0]])
    if not res.by_layout:
        return "%s, %s" % (text, format_size(key[1]))
    return text + (", %s" % placement_text(placement(key)) if res.placed else "")


def section(inputs):
    """The headline: a table of every input's rows, then what they mean."""
    several = len(inputs) > 1
    layouts = any(res.by_layout for res in inputs)
    head = (["input"] if several else []) + ["API"] + (["layout"] if layouts else [])
    cols = ["%s %s" % (ph, c) for ph in PHASES for c in ("median MB/s", "best MB/s", "best run")]
    out = ['<h2>Headline</h2>', '<p>%s</p>' % "; ".join(
        "%s%s" % ("%s: " % esc(res.name) if several else "", esc(kind(res))) for res in inputs),
        '<table class="headline">',
        "<tr>%s</tr>" % "".join("<th>%s</th>" % esc(c) for c in head + cols)]
    for res in inputs:
        for api, layout, cells in rows(res):
            tds = ([res.name] if several else []) + [api] + ([layout or ""] if layouts else [])
            row = "".join("<td>%s</td>" % esc(v) for v in tds)
            for ph in PHASES:
                median, best, where = cells[ph]
                row += '<td class="num">%s</td><td class="num">%s</td><td>%s</td>' % (
                    esc(median), esc(best), esc(where))
            out.append('<tr data-api="%s"%s>%s</tr>' % (
                esc(api), ' data-layout="%s"' % esc(layout) if layout else "", row))
    out.append("</table>")
    out.append("<p>For each API%s, of its runs of the transfers alone (write, read: without "
               "opening and closing the files), the best run: the one with the highest median "
               "throughput. <b>median</b> is that run's median throughput, <b>best</b> its "
               "fastest iteration's (the text report's Maximum Throughput of that run), both "
               "counting the slowest process of each iteration, as the text report does.</p>"
               % (" and layout" if layouts else ""))
    return "\n".join(out)
