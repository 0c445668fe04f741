"""The top of h5perf-plot's report: its title, the seed's answers and the
headline table.

The title names the run (pattern, APIs, process counts, hosts, date). The
answers (answers()) are one sentence each: a shared file against a file per
process, chunked against a file per process, each library against MPI-IO,
with the ratio of their median throughputs and its 95% interval, and
whether the page cache served the reads (docs/companion.md, "The
answers"). The headline table gives, per input, API (and layout), the best
run's median and best-iteration throughput of the transfers (write, read),
figures the text report prints for that run (its MB/s).

Run as a command (scripts/demo does), it prints the answers of each
results file (with --short, one line each: scripts/demo's), and with
--check-min-time exits 1 naming every figure whose median time is under
h5perf-compare's minimum time (with --answers-only, of the measures the
answers are given in, answer_measures()):
    h5perf_headline.py [--check-min-time [--answers-only]] [--short] RESULTS.json [MORE.json ...]
"""
import html
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

import h5perf_warnings  # noqa: E402  (found through the path set above)
from h5perf_results import (APIS, LAYOUTS, MIN_SECONDS, format_size,  # noqa: E402
                            is_data_measure, is_transfer, measure_title, median_rank, mib_per_s,
                            placement, placement_text, run_key)

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
    elif res.pattern == "guide":
        what = "guide %s" % str(g.get("geometry", "?")).upper()
    else:
        what = "%s pattern" % res.pattern
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


def phases(inputs):
    """The headline's phases: write and read, and the transfer measures of
    an input's own phases (the madbench pattern's S write, W read, W write,
    C read: docs/results.md, "Phases"), in run order; write and read only
    where an input has no phases of its own. Where no input has a phase's
    transfers but one has the measure its answers give instead (measure_of():
    a page of the answers' measures, h5perf-plot --measures), that measure."""
    out = []
    if any(not res.phase_measures for res in inputs):
        for ph in PHASES:
            if not any(res.keys(ph) for res in inputs):
                instead = [measure_of(res, ph) for res in inputs
                           if res.keys(measure_of(res, ph))]
                ph = instead[0] if instead else ph
            out.append(ph)
    for res in inputs:
        out += [m for m in res.phase_measures if is_transfer(m) and m not in out]
    return out


def rows(res, phases_=PHASES):
    """The headline rows of one input: (API, layout or None, {phase: cell
    values}), in APIS then LAYOUTS order, for each of phases_ (phases()).
    A phase's values: (median, best, where) of its best run, the one with
    the highest median throughput, or
    ("not run", "", "") and ("failed", "", "..."). An API the run asked
    for and never reached (a failure stopped the sweep) has one row, "not
    run"."""
    out = []
    for api in APIS:
        if api in _apis(res) and not any(k[2] == api for k in res.keys()):
            out.append((api, None, {ph: _cells(res, []) for ph in phases_}))
            continue
        for layout in (LAYOUTS if res.by_layout else (None,)):
            keys = [k for k in res.keys() if k[2] == api and (layout is None or k[4] == layout)]
            if not keys:
                continue
            out.append((api, layout, {ph: _cells(res, [k for k in keys if k[3] == ph])
                                      for ph in phases_}))
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
    shown = phases(inputs)
    cols = ["%s %s" % (measure_title(ph), c) for ph in shown
            for c in ("median MB/s", "best MB/s", "best run")]
    out = ['<h2>Headline</h2>', '<ul class="answers">'] + [
        '<li>%s%s</li>' % ("%s: " % esc(res.name) if several else "", esc(line))
        for res in inputs for line in answers(res)] + ['</ul>', '<p>%s</p>' % "; ".join(
            "%s%s" % ("%s: " % esc(res.name) if several else "", esc(kind(res)))
            for res in inputs),
        '<table class="headline">',
        "<tr>%s</tr>" % "".join("<th>%s</th>" % esc(c) for c in head + cols)]
    for res in inputs:
        for api, layout, cells in rows(res, shown):
            tds = ([res.name] if several else []) + [api] + ([layout or ""] if layouts else [])
            row = "".join("<td>%s</td>" % esc(v) for v in tds)
            for ph in shown:
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
    if "write_open_close" in shown:
        out.append("<p>This page has no transfers of the write alone: its write columns are "
                   "the write's open-close times, which with --fsync hold the flush to "
                   "storage (the figures the answers are given in).</p>")
    return "\n".join(out)


# --- the seed's answers (docs/companion.md, "The answers") ----------------------

NAMES = {"posix": "POSIX", "mpiio": "MPI-IO", "phdf5": "HDF5", "pnetcdf": "PnetCDF"}
LAYOUT_NAMES = {"shared": "a shared file", "chunked": "a chunked shared file",
                "fpp": "a file per process"}
# A ratio's interval holds both medians' intervals at once: at 97.5% each,
# the two together hold at 95% or more (the union bound, whatever the
# dependence between the runs), from 7 iterations on.
LEVEL = 0.95
EACH = 1 - (1 - LEVEL) / 2
LIBRARIES = ("phdf5", "pnetcdf", "posix")  # each against MPI-IO, in this order


def sample_rates(res, key):
    """The throughputs (MiB/s) of the successful iterations of one measure
    (key: run_key()), sorted: each iteration's bytes (the run's where the
    sample gives none) over its slowest process's time."""
    for run in res.runs:
        for m in run["measures"]:
            if run_key(run, m["measure"], res.by_layout) != key:
                continue
            out = []
            for s in m["samples"]:
                if s["status"] != "ok":
                    continue
                nbytes = s.get("bytes")
                nbytes = nbytes if isinstance(nbytes, int) and nbytes > 0 else run["bytes"]
                out.append(mib_per_s(nbytes, s["seconds"]["slowest"]))
            return sorted(out)
    return []


def ratio(res, a, b):
    """(ratio, interval) of key a's median throughput over key b's; the
    interval (low, high) bounds the ratio of the true medians at LEVEL,
    from each median's distribution-free interval at EACH (median_rank());
    None with fewer than 7 iterations on either side."""
    value = res.stats[a].median / res.stats[b].median if res.stats[b].median else 0.0
    ra, rb = sample_rates(res, a), sample_rates(res, b)
    la, lb = median_rank(len(ra), EACH), median_rank(len(rb), EACH)
    if not la or not lb or ra[len(ra) - la] <= 0 or rb[lb - 1] <= 0:
        return value, None
    return value, (ra[la - 1] / rb[len(rb) - lb], ra[len(ra) - la] / rb[lb - 1])


def verdict(interval):
    if interval is None:
        return "no 95% interval: fewer than 7 iterations"
    low, high = interval
    if low > 1:
        return "95%% interval %.2f to %.2f: faster" % (low, high)
    if high < 1:
        return "95%% interval %.2f to %.2f: slower" % (low, high)
    return "95%% interval %.2f to %.2f: no clear difference" % (low, high)


def measure_of(res, phase):
    """The measure that answers a phase: with --fsync the write's
    open-close time, which holds the flush to storage (the transfers alone
    would be copies into the page cache); else the transfers alone."""
    return "write_open_close" if phase == "write" and res.config.get("fsync") else phase


def answer_measures(res):
    """The measures the answers are given in: measure_of() of each phase
    (with --fsync the write's open-close time, and the read)."""
    return tuple(measure_of(res, ph) for ph in PHASES)


def _phase(res, phase, a, b):
    """"writing 0.53 times as fast (95% interval 0.47 to 0.60: slower;
    MPI-IO 1524 against POSIX 2853 MB/s)" for keys a and b ("writing
    (flushed)" for open-close times with --fsync), or None when either is
    missing or failed."""
    if not (a and b and res.stats[a].ok and res.stats[b].ok):
        return None
    value, interval = ratio(res, a, b)
    return "%s %.2f times as fast (%s; %s %.0f against %s %.0f MB/s)" % (
        "reading" if phase == "read" else "writing (flushed)" if a[3] == "write_open_close"
        else "writing", value, verdict(interval),
        NAMES[a[2]], res.stats[a].median, NAMES[b[2]], res.stats[b].median)


def _sentence(subject, against, where, res, pairs):
    """One answer: pairs maps "write"/"read" to the (a, b) keys compared."""
    parts = [p for p in (_phase(res, ph, *pairs[ph]) for ph in PHASES) if p]
    if not parts:
        return None
    return "%s vs %s (%s): %s." % (subject[0].upper() + subject[1:], against, where,
                                    ", ".join(parts))


def _fastest(res, p, layout, measure):
    """The key of the API with the highest median throughput of a layout's
    measure at p processes (packed runs), or None."""
    keys = [k for k in res.keys(measure) if k[0] == p and len(k) == 5 and k[4] == layout
            and res.stats[k].ok]
    return max(keys, key=lambda k: res.stats[k].median) if keys else None


def _layout_answer(res, p, layout):
    pairs = {ph: (_fastest(res, p, layout, measure_of(res, ph)),
                  _fastest(res, p, "fpp", measure_of(res, ph))) for ph in PHASES}
    where = "%s, the fastest API of each" % procs_text([p])
    return _sentence(LAYOUT_NAMES[layout], LAYOUT_NAMES["fpp"], where, res, pairs)


def _key(res, p, api, measure, layout, size):
    keys = [k for k in res.keys(measure) if k[0] == p and k[2] == api and
            (layout is None or (len(k) == 5 and k[4] == layout)) and
            (size is None or k[1] == size)]
    return keys[0] if keys else None


def _library_answer(res, p, api, layout, size):
    pairs = {ph: (_key(res, p, api, measure_of(res, ph), layout, size),
                  _key(res, p, "mpiio", measure_of(res, ph), layout, size)) for ph in PHASES}
    where = procs_text([p]) + (", %s" % LAYOUT_NAMES[layout] if layout else
                               ", %s transfers" % format_size(size))
    return _sentence(NAMES[api], NAMES["mpiio"], where, res, pairs)


def cache_answer(res):
    """Whether the page cache served the reads, from h5perf's own warning
    (page_cache_warnings, docs/differences.md, "Caches")."""
    lines = [n.text for n in h5perf_warnings.page_cache_notes(res)]
    if not lines:
        return ("Page cache: by h5perf's rule no read came only from the page cache, so the "
                "read figures are the storage's.")
    m = h5perf_warnings.PAGE_CACHE_RE.search(lines[0])
    apis = _and(NAMES.get(a, a) for a in m.group("apis").split(", ")) if m else "every API"
    counts = ("with %s" % procs_text(int(c) for c in m.group("counts").split(", "))
              if m and m.group("counts") else "at every process count")
    return ("Page cache: the reads of %s %s came from the page cache (each process read what "
            "it had just written, on its own host), so those read figures measure memory "
            "copies, not the storage." % (apis, counts))


def answers(res):
    """The seed's answers for one input, one sentence each: at its largest
    process count, a shared file and a chunked one against a file per
    process (the fastest API of each layout), each library against MPI-IO
    (the shared file; the guide's largest transfer size), then the page
    cache where reads ran. A comparison whose runs are missing is left out;
    with --fsync the writing figures are flushed (measure_of())."""
    counts = res.process_counts()
    if not counts:
        return [cache_answer(res)]
    p = counts[-1]
    out = []
    if res.by_layout:
        out += [_layout_answer(res, p, layout) for layout in ("shared", "chunked")]
    layout = "shared" if res.by_layout else None
    size = None if res.by_layout else max(k[1] for k in res.stats if k[0] == p)
    out += [_library_answer(res, p, api, layout, size) for api in LIBRARIES]
    # A write-only input (-w) has no read to say anything of.
    return [s for s in out if s] + ([cache_answer(res)] if res.keys("read") else [])


# --- the demo's answers, one line each (docs/companion.md, "The demo") ---------


def _short_ratio(res, what, phase, a, b):
    """"A shared file vs a file per process, writing (flushed): 0.62 times
    as fast, 95% interval 0.40 to 0.95: slower (HDF5 728, MPI-IO 1912 MB/s)",
    or None when key a or b is missing or failed."""
    if not (a and b and res.stats[a].ok and res.stats[b].ok):
        return None
    value, interval = ratio(res, a, b)
    return "%s, %s: %.2f times as fast, %s (%s %.0f, %s %.0f MB/s)" % (
        what, phase, value, verdict(interval), NAMES[a[2]], res.stats[a].median,
        NAMES[b[2]], res.stats[b].median)


def short_answers(res):
    """The seed's answers for one input, one line each, for a terminal: the
    comparisons of answers() at its largest process count (which the caller
    names), each phase on its own line. With --fsync the writing figure is the write's open-close
    time, which holds the flush to storage (docs/measuring.md); an input
    with one API gives that API's figures with their intervals instead. The
    page cache has a line only where reads were measured."""
    counts = res.process_counts()
    if not counts:
        return []
    p = counts[-1]
    flushed = measure_of(res, "write") == "write_open_close"
    phases = [(measure_of(res, "write"), "writing (flushed)" if flushed else "writing"),
              ("read", "reading")]
    out = []
    if res.by_layout:
        for layout in ("shared", "chunked"):
            what = "%s vs %s" % (LAYOUT_NAMES[layout][0].upper() + LAYOUT_NAMES[layout][1:],
                                 LAYOUT_NAMES["fpp"])
            out += [_short_ratio(res, what, label, _fastest(res, p, layout, m),
                                 _fastest(res, p, "fpp", m)) for m, label in phases]
    layout = "shared" if res.by_layout else None
    size = None if res.by_layout else max(k[1] for k in res.stats if k[0] == p)
    apis = sorted({k[2] for k in res.stats}, key=APIS.index)
    for api in LIBRARIES:
        what = "%s vs MPI-IO (%s)" % (NAMES[api], LAYOUT_NAMES[layout] if layout
                                      else "%s transfers" % format_size(size))
        out += [_short_ratio(res, what, label, _key(res, p, api, m, layout, size),
                             _key(res, p, "mpiio", m, layout, size)) for m, label in phases]
    if len(apis) == 1 and not res.by_layout:
        direct = ", O_DIRECT" if res.config.get("direct") else ""
        for m, label in phases:
            k = _key(res, p, apis[0], m, None, size)
            st = res.stats.get(k) if k else None
            if st and st.ok:
                out.append("%s (%s transfers%s), %s: %.0f MB/s, 95%% interval %s" % (
                    NAMES[apis[0]], format_size(size), direct, label, st.median,
                    "%.0f to %.0f" % st.interval if st.interval else
                    "none: fewer than 6 iterations"))
    out = [line for line in out if line]
    if res.keys("read"):
        notes = h5perf_warnings.page_cache_notes(res)
        out.append(cache_answer(res) if notes else
                   "Page cache: by h5perf's rule no read came from it: the read figures are "
                   "the storage's.")
    return out


def short_figures(res, measures=None):
    """The figures of res too short to judge, as the page flags them
    (Stats.short: median time under MIN_SECONDS): one text each, "2
    processes, posix, fpp, read: 0.062 s", in run order; of every data
    measure, or of measures only (answer_measures(): scripts/demo's)."""
    out = []
    for k in res.keys():
        st = res.stats[k]
        if is_data_measure(k[3]) and (measures is None or k[3] in measures) and st.short:
            out.append("%s, %s%s, %s: %.3f s" % (
                procs_text([k[0]]), k[2], ", " + k[4] if len(k) > 4 else
                ", " + format_size(k[1]), k[3], st.median_seconds))
    return out


def main(argv):
    """Prints the answers of each input (its name first when several); with
    --check-min-time, then each too-short figure on stderr (with
    --answers-only, of the answers' measures) and exit 1."""
    import h5perf_python
    import h5perf_results
    prog = "h5perf_headline.py"
    flags, paths = [], list(argv)
    while paths[:1] and paths[0] in ("--check-min-time", "--answers-only", "--short") \
            and paths[0] not in flags:
        flags.append(paths.pop(0))
    check = "--check-min-time" in flags
    try:
        if not paths or any(a.startswith("-") for a in paths) or (
                "--answers-only" in flags and not check):
            raise h5perf_results.ResultsError(
                "usage: %s [--check-min-time [--answers-only]] [--short] RESULTS.json "
                "[MORE.json ...]" % prog)
        h5perf_python.ensure(["jsonschema"], __file__, argv)
        inputs = [h5perf_results.load(p) for p in paths]
    except (h5perf_results.ResultsError, h5perf_python.UsageError) as e:
        print("%s: %s" % (prog, h5perf_results.one_line(e)), file=sys.stderr)
        return 2
    short = 0
    for path, res in zip(paths, inputs):
        for line in (short_answers if "--short" in flags else answers)(res):
            print("%s%s" % ("%s: " % res.name if len(inputs) > 1 else "", line))
        only = answer_measures(res) if "--answers-only" in flags else None
        for line in short_figures(res, only) if check else []:
            print("%s: '%s': under %g s: %s" % (prog, path, MIN_SECONDS, line), file=sys.stderr)
            short += 1
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
