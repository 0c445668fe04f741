"""The warnings of h5perf-plot's report, and the charts each one concerns.

Three kinds: h5perf's page-cache warning (the document's
page_cache_warnings, as h5perf wrote it), HDF5's fallback from collective
I/O (the runs' actual_io_mode, in the words of h5perf's stderr line), and
figures too short to judge (median time under MIN_SECONDS). A warning
concerns a chart when a figure the chart draws comes from a run it names:
the charts keep the Stats behind their points. Pure: no matplotlib, no HTML.
"""
import re

from h5perf_results import MIN_SECONDS, direction, run_key

PAGE_CACHE, IO_MODE, SHORT = "page-cache", "io-mode", "short"
# HDF5's causes in the order of their bits (H5D_mpio_no_collective_cause_t),
# as h5perf words them (docs/results.md, "actual_io_mode"): the stderr line
# lists the union of both phases' in this order.
CAUSES = ("independent I/O was set", "datatype conversion", "data transforms",
          "MPI derived types disabled (HDF5_MPI_OPT_TYPES)", "not simple or scalar dataspaces",
          "not contiguous or chunked dataset", "parallel filtered writes disabled",
          "error while checking whether collective I/O is possible")
# h5perf's page-cache line names the APIs and, when not every process count
# is concerned, the counts: "... the read throughputs of posix, mpiio with 2,
# 4 processes can only come from the page cache ...".
PAGE_CACHE_RE = re.compile(r"the read throughputs of (?P<apis>[a-z0-9, ]+?)"
                           r"(?: with (?P<counts>[0-9, ]+) process(?:es)?)? can only come")


class Note:
    """One warning of one input: kind, text (exact), the input's name, and
    the Stats it concerns (by id)."""

    def __init__(self, kind, text, name, stats):
        self.kind, self.text, self.name = kind, text, name
        self.ids = {id(s) for s in stats}

    def concerns(self, plot):
        return any(id(st) in self.ids for s in plot.series for st in s.stats)


def text_size(n):
    """A size as h5perf's text report and stderr lines write it: 1MB, 256KB, 1000."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return "%d%s" % (n // scale, unit)
    return "%d" % n


def _measures_of(res, run, phase):
    """The Stats of run's measures of phase ("write", "read"; a pattern's
    own phases' read or write calls: direction())."""
    return [res.stats[run_key(run, m["measure"], res.by_layout)] for m in run["measures"]
            if direction(m["measure"]) == phase]


def page_cache_notes(res):
    """h5perf's page-cache warnings of res, each concerning the read
    figures of the APIs and process counts it names (all of them where it
    cannot be read)."""
    notes = []
    for line in res.doc.get("page_cache_warnings") or []:
        if not isinstance(line, str):
            continue
        m = PAGE_CACHE_RE.search(line)
        apis = set(m.group("apis").split(", ")) if m else None
        counts = {int(c) for c in m.group("counts").split(", ")} \
            if m and m.group("counts") else None
        stats = [st for run in res.runs
                 if (apis is None or run["api"] in apis)
                 and (counts is None or run["processes"] in counts)
                 for st in _measures_of(res, run, "read")]
        notes.append(Note(PAGE_CACHE, line, res.name, stats))
    return notes


def _fell_back(phase):
    return isinstance(phase, dict) and phase.get("collective") is False


def io_mode_line(run, block):
    """h5perf's stderr line for an HDF5 run that did independent I/O where
    collective was asked (src/base/iomode.c), or None."""
    modes = run.get("actual_io_mode")
    if not isinstance(modes, dict):
        return None
    fell = [ph for ph in ("write", "read") if _fell_back(modes.get(ph))]
    if not fell:
        return None
    causes = set()
    for ph in fell:
        causes.update(w for w in (modes[ph].get("cause") or "").split(", ") if w)
    words = [c for c in CAUSES if c in causes] + sorted(
        (c for c in causes if c not in CAUSES), key=lambda c: int(c.split("0x")[-1], 16)
        if re.fullmatch(r"unknown cause 0x[0-9a-f]+", c) else 0)
    with_cause = max(int(modes[ph].get("cause_processes") or 0) for ph in fell)
    agree = all(modes[ph].get("processes_agree", True) for ph in fell)
    p = run["processes"]
    text = ", ".join(words) or "HDF5 gave no cause (mode %s)" % modes[fell[0]].get("mode")
    if words and with_cause < p:
        text += " (on %d of %d processes)" % (with_cause, p)
    what = "layout %s" % run.get("layout") if block else \
        "transfer size %s" % text_size(run["transfer_size"])
    return ("h5perf: warning: HDF5 did independent I/O where collective was asked "
            "(%d process%s, %s, %s): %s%s" % (
                p, "" if p == 1 else "es", what, " and ".join(fell), text,
                "" if agree else "; the processes reported different modes"))


def io_mode_notes(res):
    """One note per HDF5 run that fell back, concerning its figures of the
    phases that fell back."""
    notes = []
    for run in res.runs:
        line = io_mode_line(run, res.by_layout)
        if line:
            fell = [ph for ph in ("write", "read") if _fell_back(run["actual_io_mode"].get(ph))]
            notes.append(Note(IO_MODE, line, res.name,
                              [st for ph in fell for st in _measures_of(res, run, ph)]))
    return notes


def input_notes(inputs):
    """Every input's page-cache and HDF5 notes, in input order."""
    return [n for res in inputs for n in page_cache_notes(res) + io_mode_notes(res)]


def short_text(plot):
    """"too short to judge: ..." when figures of plot have a median time
    under MIN_SECONDS, else None. A figure is a measure of a run (a ratio
    has two)."""
    seen = {}
    for s in plot.series:
        for st in s.stats:
            if st.ok:
                seen[id(st)] = st
    short = sum(st.short for st in seen.values())
    if not short:
        return None
    return ("too short to judge: %d of %d figures in this chart have a median time under %g s "
            "(h5perf-compare's --min-time); their differences may be noise" % (
                short, len(seen), MIN_SECONDS))


def chart_warnings(notes, plot, several):
    """[(kind, text)] beside plot: the notes that concern it (prefixed by
    their input's name when several inputs), then the short figures'."""
    out = [(n.kind, "%s: %s" % (n.name, n.text) if several else n.text)
           for n in notes if n.concerns(plot)]
    short = short_text(plot)
    return out + ([(SHORT, short)] if short else [])
