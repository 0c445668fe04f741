"""Reading h5perf results documents (docs/results.schema.json, versions 1, 2).

Loads a file, validates it against the schema (python3-jsonschema; every
value the tools use has the type the schema gives it, and numbers are what
h5perf writes: 64-bit integers and finite decimals), checks that no run is
given twice, and derives the statistics the tools show. A document that
fails is one ResultsError line; nothing is drawn or compared from it.
Nothing here prints.
"""
import copy
import json
import math
import os
import statistics
import sys

SCHEMA = "h5perf-results"
SCHEMA_VERSIONS = (1, 2, 3)  # 2 adds the block and particles patterns (config.pattern, layout); 3 latency, intervals, bounds
MIB = 1 << 20

APIS = ("posix", "mpiio", "phdf5", "pnetcdf")  # pnetcdf: builds with PnetCDF (docs/pnetcdf.md)
STATUSES = ("ok", "io_error", "verify_failed")
# Run order of the measures in a document, used to sort every listing.
MEASURES = ("write", "write_open_close", "write_raw", "write_open", "write_close",
            "read", "read_open_close", "read_raw", "read_open", "read_close")
# The measures that move data and so have a throughput; open and close
# times move nothing.
DATA_MEASURES = ("write", "write_open_close", "write_raw", "read", "read_open_close", "read_raw")
MEASURE_TITLES = {
    "write": "write", "write_open_close": "write incl. open/close", "write_raw": "raw write",
    "write_open": "write open", "write_close": "write close",
    "read": "read", "read_open_close": "read incl. open/close", "read_raw": "raw read",
    "read_open": "read open", "read_close": "read close",
}
# A pattern with phases of its own (docs/results.md, "Phases": the madbench
# pattern's S, W and C) has the measures <phase>_busy, <phase>_read and
# <phase>_write instead: the time of its busy work, which moves nothing,
# and of its read and write calls (phase_measure()).
PHASE_TIMERS = ("busy", "read", "write")
# The parameters that define the workload: two documents that differ in one
# of them measure different things (h5perf-compare notes each difference).
WORKLOAD_KEYS = ("geometry", "layout", "storage", "io_mode", "bytes_per_process", "block_size",
                 "num_dsets", "num_files")
# Later additions to version 1 (fsync before close, O_DIRECT, reading another
# process's data): compared only when both documents have them.
LATER_WORKLOAD_KEYS = ("fsync", "direct", "read_shift")
SIZE_KEYS = ("bytes_per_process", "block_size")
# The block pattern (version 2, config.pattern "block"): its layouts, in the
# order every listing and chart uses, and the parameters that define its
# workload: config's pattern and io_mode, config.block's array, and
# config.block's grid and read_grid where either document gives one (null:
# MPI_Dims_create's grid, the writer's grid).
LAYOUTS = ("shared", "chunked", "fpp")
BLOCK_WORKLOAD_KEYS = ("pattern", "io_mode")
BLOCK_ARRAY_KEYS = ("global", "element_size", "vars")
BLOCK_GRID_KEYS = ("grid", "read_grid")
# The particles pattern (docs/particles.md, later within version 2): its runs
# are keyed as the block pattern's, by layout (shared, fpp: layout_keyed()), and a run's
# transfer size (the largest process's particles of one variable) follows
# from the counts. Its workload: config's pattern and io_mode, and
# config.particles' counts (per_process null with a list, seed null but
# with normal) and variables (their names).
PARTICLES_KEYS = ("per_process", "distribution", "seed", "vars")
# --align-data and --shift (docs/particles.md, "Alignment"; later within
# version 2): the lists as given in config.block or config.particles, and
# each run's placement (align_data, shift) in bytes, (0, 0) packed. Only the
# POSIX and MPI-IO files of the shared and chunked layouts are placed (as
# h5perf's sweep_placeable()); every value runs in turn for them, the other
# runs once, packed. A placed run's key carries its placement: runs of one
# (processes, API, layout) then differ by it.
PLACEMENT_KEYS = ("align_data", "shift")
PLACEABLE_APIS = ("posix", "mpiio")
PACKED = (0, 0)
# Figures whose median time is below this are too short to judge: h5perf-compare's default
# --min-time (docs/companion.md, "The minimum time"); the report says so beside their charts.
MIN_SECONDS = 0.1


class ResultsError(Exception):
    """A file that cannot be used; str() is one line naming the file."""


def one_line(text):
    """text with control characters escaped (a newline in a file name or an
    argument must not split an error message over two lines)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def median_rank(n, level=0.95):
    """The rank l (1-based) of the distribution-free interval [x(l),
    x(n+1-l)] of the median of n samples at level, as h5perf computes it
    (docs/measuring.md): the largest l whose coverage 1 - 2 P(B(n, 1/2) <=
    l - 1) is at least level; 0 when none is (fewer than 6 at 95%)."""
    best, below = 0, 0.0
    for l in range(1, (n + 1) // 2 + 1):
        below += math.exp(math.lgamma(n + 1) - math.lgamma(l) - math.lgamma(n - l + 2) +
                          n * math.log(0.5))
        if 1.0 - 2.0 * below < level:
            break
        best = l
    return best


class Stats:
    """One measure of one run, over its successful iterations.

    Throughputs follow h5perf's own summary: only the slowest process of each
    iteration counts, and the median throughput is that of the median time
    (with an odd number of iterations, the median of the throughputs); where
    iterations moved different bytes (--stonewall, --duration), each
    iteration's own throughput. interval: the 95% interval of the median
    throughput, (low, high), from 6 iterations on, else None. For a
    failed measure, ok is False and every number is None.
    """

    def __init__(self, status, times=(), nbytes=0, data=True, spread=(), sample_bytes=None):
        self.status = status
        self.iterations = len(times)
        self.ok = status == "ok" and self.iterations > 0
        self.median_seconds = statistics.median(times) if self.ok else None
        self.median = self.min = self.max = self.interval = None
        if self.ok and data:
            sizes = sample_bytes or [nbytes] * len(times)
            if all(b == nbytes for b in sizes):
                self.median = mib_per_s(nbytes, self.median_seconds)
                self.max = mib_per_s(nbytes, min(times))
                self.min = mib_per_s(nbytes, max(times))
            else:
                rates = [mib_per_s(b, t) for b, t in zip(sizes, times)]
                self.median, self.min, self.max = statistics.median(rates), min(rates), max(rates)
            rates = sorted(mib_per_s(b, t) for b, t in zip(sizes, times))
            rank = median_rank(len(rates))
            if rank:
                self.interval = (rates[rank - 1], rates[len(rates) - rank])
        # Per-process imbalance: each successful iteration's slowest process
        # time over its fastest's (1.0: balanced), median, min and max.
        self.imbalance = None
        if self.ok and data and spread:
            self.imbalance = (statistics.median(spread), min(spread), max(spread))

    @property
    def short(self):
        """Whether the median time is too short to judge (MIN_SECONDS)."""
        return self.ok and self.median_seconds < MIN_SECONDS

    @property
    def failure(self):
        """Why there is no value: the measure's status, or "no iterations"."""
        return None if self.ok else (self.status if self.status != "ok" else "no iterations")


class Results:
    """One loaded document: the parsed JSON plus an index of its statistics
    by key (run_key()) and by configuration (configuration())."""

    def __init__(self, path, doc):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.doc = doc
        self.context = doc["context"]
        self.config = doc["config"]
        # An API's variants (HDF5's subfiling driver, multi-dataset calls:
        # docs/hdf5.md) share their API's keys; the companion leaves them
        # out, and says so (variant_note()).
        self.variant_runs = [r for r in doc["runs"] if r.get("variant")]
        self.runs = [r for r in doc["runs"] if not r.get("variant")]
        self.pattern = pattern_of(doc)
        self.block = self.pattern == "block"
        self.particles = self.pattern == "particles"
        # Keyed by layout, listed and charted as the block report's rows.
        self.by_layout = layout_keyed(doc)
        # The measures of phases of a pattern's own, in run order (sort_key()).
        self.phase_measures = []
        for run in self.runs:
            self.phase_measures += [m["measure"] for m in run["measures"]
                                    if phase_measure(m["measure"]) and
                                    m["measure"] not in self.phase_measures]
        # The measures only_measures() left out of this view, not of the file.
        self.left_out = []
        self.stats = {}
        for run in self.runs:
            for m in run["measures"]:
                self.stats[run_key(run, m["measure"], self.by_layout)] = measure_stats(run, m)
        self.configs = {configuration(k): s for k, s in self.stats.items()}
        # Each run's latency (schema 3): by run_key() without the measure,
        # {phase: {call: {"calls", "seconds", "histogram"}}}.
        self.latency = {}
        for run in self.runs:
            if isinstance(run.get("latency"), dict):
                self.latency[run_key(run, None, self.by_layout)] = run["latency"]
        # The placements run (align_data, shift), in run order, of the runs
        # that can be placed; the input is placed when a run is, or when the
        # configuration lists --align-data or --shift.
        self.placements = []
        for run in self.runs:
            pair = run_placement(run)
            if self.by_layout and placeable(run["api"], run["layout"]) \
                    and pair not in self.placements:
                self.placements.append(pair)
        self.placed = self.by_layout and (
            any(placement(k) != PACKED for k in self.stats) or
            any(self._listed(k) for k in PLACEMENT_KEYS))
        self.first = tuple((self._listed(k) or [0])[0] for k in PLACEMENT_KEYS)
        # What the block and particles charts show for (processes, API,
        # layout, measure): as h5perf's report (block_find()), the run placed
        # by the first --align-data and --shift values where it can be
        # placed, else the packed run.
        # by_placement: every run of the block and particles patterns by
        # (processes, API, layout, measure, align_data, shift), packed (0, 0).
        self.by_placement = {configuration(k)[:4] + placement(k): s
                             for k, s in self.stats.items() if len(k) > 4}
        self.main = {}
        for c, s in self.by_placement.items():
            want = self.first if placeable(c[1], c[2]) else PACKED
            if c[4:] == want:
                self.main[c[:4]] = s
        # A variant's runs of the block and particles patterns whose
        # reference h5perf named (run.overhead.over: MPI-IO's run with the
        # same method, docs/mpiio.md "Like with like"), placed as main: by
        # (processes, API, variant, layout, measure), and each one's
        # reference variant (None: MPI-IO's default run, in main), so that
        # the overhead charts divide like by like. MPI-IO's own variant runs
        # are references. Documents of earlier builds have none.
        self.variant_main, self.variant_over = {}, {}
        for run in self.variant_runs if self.by_layout else []:
            want = self.first if placeable(run["api"], run["layout"]) else PACKED
            if run_placement(run) != want:
                continue
            key = (run["processes"], run["api"], run["variant"], run["layout"])
            over = run.get("overhead")
            if isinstance(over, dict) and isinstance(over.get("over"), dict):
                self.variant_over[key] = over["over"].get("variant")
            for m in run["measures"]:
                self.variant_main[key + (m["measure"],)] = measure_stats(run, m)

    def _listed(self, name):
        """config.block's or config.particles' --align-data or --shift list,
        [] where the document has none (earlier builds) or it is not a list
        of whole numbers."""
        spec = self.config.get(self.pattern) if self.by_layout else None
        values = spec.get(name) if isinstance(spec, dict) else None
        return values if isinstance(values, list) and values and all(
            _is_count(v) for v in values) else []

    def placement_lists(self):
        """(--align-data list, --shift list) as given, [] where not."""
        return tuple(self._listed(k) for k in PLACEMENT_KEYS)

    def keys(self, measure=None):
        """The keys (run_key()), in a stable order: sort_key()'s, placements
        in run order."""
        return sorted((k for k in self.stats if measure is None or k[3] == measure),
                      key=lambda k: sort_key(k, self.placements, self.phase_measures))

    def layouts(self):
        """The layouts run (block and particles patterns), in LAYOUTS order;
        none for the guide."""
        present = {k[4] for k in self.stats if len(k) > 4}
        return [layout for layout in LAYOUTS if layout in present]

    def workload(self):
        """The parameters that define the workload, name -> value in the
        document ("absent" where it has none), in the order h5perf-compare
        notes them; the later additions (LATER_WORKLOAD_KEYS) are not here.
        Another pattern's (map, madbench): config's pattern and io_mode, and
        every member of its own config.<pattern> but the layouts (runs of a
        layout in one document only are counted apart) and the placement
        lists (noted apart)."""
        if self.pattern == "guide":
            return {k: self.config.get(k, "absent") for k in WORKLOAD_KEYS}
        values = {k: self.config.get(k, "absent") for k in BLOCK_WORKLOAD_KEYS}
        spec = self.config.get(self.pattern)
        spec = spec if isinstance(spec, dict) else {}
        if self.particles:
            values.update((k, spec.get(k, "absent")) for k in PARTICLES_KEYS)
        elif self.block:
            values.update((k, spec.get(k, "absent")) for k in BLOCK_ARRAY_KEYS)
            values.update((k, spec.get(k)) for k in BLOCK_GRID_KEYS)
        else:
            values.update((k, v) for k, v in spec.items()
                          if k != "layouts" and k not in PLACEMENT_KEYS)
        return values

    def particle_counts(self):
        """The particles pattern's counts at each process count, from its
        runs: processes -> (total, min, max); a process count whose runs do
        not give them as whole numbers is left out (they are only shown)."""
        counts = {}
        for run in self.runs:
            c = run.get("particles")
            if isinstance(c, dict) and all(_is_count(c.get(k)) for k in ("total", "min", "max")):
                counts.setdefault(run["processes"], (c["total"], c["min"], c["max"]))
        return counts

    def process_counts(self):
        return sorted({k[0] for k in self.stats})

    def transfer_sizes(self):
        return sorted({k[1] for k in self.stats})

    def failed_runs(self):
        """Runs whose status or any measure's status is not ok."""
        return [r for r in self.runs
                if r["status"] != "ok" or any(m["status"] != "ok" for m in r["measures"])]


def pattern_of(doc):
    """ "guide", "block", "particles", "map" or "madbench"; version 1 has
    no config.pattern: the guide's."""
    return doc["config"].get("pattern", "guide")


def layout_keyed(doc):
    """Whether doc's runs are keyed by their layout: h5perf gives every run
    of a pattern other than the guide's one (docs/results.md), and those
    patterns run process count x layout x API, a process count's runs
    sharing their transfer size (a process's block, the largest process's
    particles, a map's largest call, MADbench2's largest share). A document
    whose runs do not all have a layout (the guide's) is keyed by transfer
    size."""
    return bool(doc["runs"]) and all("layout" in run for run in doc["runs"])


def phase_measure(name):
    """(phase, timer) of a measure of a pattern's own phases ("W_read" ->
    ("W", "read"); docs/results.md, "Phases"), None for the guide's
    measures (MEASURES)."""
    phase, _, timer = name.rpartition("_")
    return (phase, timer) if phase and name not in MEASURES and timer in PHASE_TIMERS else None


def is_data_measure(name):
    """Whether a measure moves data and so has a throughput: the guide's
    DATA_MEASURES, and a phase's read and write calls (not its busy work)."""
    phase = phase_measure(name)
    return name in DATA_MEASURES or (phase is not None and phase[1] != "busy")


def is_transfer(name):
    """Whether a measure times the transfer calls alone: the guide's write
    and read (without open and close), a phase's read and write calls."""
    return name in ("write", "read") or (is_data_measure(name) and name not in DATA_MEASURES)


def direction(name):
    """"write" or "read": what a measure's calls do (a phase's read calls
    read); None for busy work."""
    phase = phase_measure(name)
    if phase:
        return None if phase[1] == "busy" else phase[1]
    return name.split("_")[0]


def measure_title(name):
    """A measure as charts and tables name it: MEASURE_TITLES, or a phase's
    "W read", "S busy"."""
    phase = phase_measure(name)
    return MEASURE_TITLES.get(name) or ("%s %s" % phase if phase else name)


def _is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def run_key(run, measure, by_layout):
    """The key of one measure of one run: (processes, transfer size, API,
    measure), and for the block and particles patterns the layout too,
    last: (processes, transfer size, API, measure, layout). Their runs of
    one process count share their transfer size (a process's block, the
    largest process's particles) and differ by layout. A placed run's key
    ends with its placement: (..., layout, align_data, shift); a packed
    run's (0, 0, and every run of an earlier build) has none, so documents
    without placed runs keep their keys."""
    key = (run["processes"], run["transfer_size"], run["api"], measure)
    if not by_layout:
        return key
    pair = run_placement(run)
    return key + (run["layout"],) + (pair if pair != PACKED else ())


def run_placement(run):
    """(align_data, shift) of a run; (0, 0) where it has none (packed, or
    written by an earlier build)."""
    return tuple(run.get(k, 0) for k in PLACEMENT_KEYS)


def placement(key):
    """(align_data, shift) of a key; (0, 0) packed."""
    return tuple(key[5:7]) if len(key) > 5 else PACKED


def placeable(api, layout):
    """Whether h5perf places this API's files on this layout (--align-data,
    --shift): POSIX and MPI-IO, not a file per process."""
    return api in PLACEABLE_APIS and layout != "fpp"


def configuration(key):
    """What h5perf-compare matches across two documents: a guide key as it
    is; a block or particles key without its transfer size, which follows
    from the array and the grid, or from the counts (two arrays, two
    distributions are compared, with a note): (processes, API, layout,
    measure), and a placed run's placement last (processes, API, layout,
    measure, align_data, shift)."""
    if len(key) == 4:
        return key
    p, _, api, measure, layout = key[:5]
    return (p, api, layout, measure) + tuple(key[5:])


def sort_key(key, placements=(), phase_measures=()):
    """Orders keys as h5perf runs them; block and particles keys by API,
    then layout, as the block report's rows, then placement: packed first,
    then in the order of placements (run order), else by value; the
    measures of a pattern's own phases after the guide's, in the order of
    phase_measures (run order)."""
    p, x, api, measure = key[:4]
    layout = (LAYOUTS.index(key[4]),) if len(key) > 4 else ()
    if len(key) > 5:
        pair = placement(key)
        rank = placements.index(pair) if pair in placements else len(placements)
        layout += (1, rank) + pair
    elif layout:
        layout += (0, 0, 0, 0)
    rank = MEASURES.index(measure) if measure in MEASURES else len(MEASURES) + (
        list(phase_measures).index(measure) if measure in phase_measures else len(phase_measures))
    return (p, x, APIS.index(api)) + layout + (rank,)


def placement_text(pair):
    """A placement as a chart's group names it: "packed", "4K", "4K+512",
    "packed+512" (sizes as h5perf's report writes them: 4K, 1M, 512)."""
    align, shift = pair
    text = size_text(align) if align else "packed"
    return text + ("+%s" % size_text(shift) if shift else "")


def size_text(n):
    """Bytes as h5perf's alignment table writes them: "1M", "4K", "512"."""
    for unit, scale in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= scale and n % scale == 0:
            return "%d%s" % (n // scale, unit)
    return "%d" % n


def mib_per_s(nbytes, seconds):
    """Throughput in MiB/s; 0 for a time too small to divide by, as h5perf does."""
    if seconds < sys.float_info.epsilon:
        return 0.0
    return nbytes / MIB / seconds


def measure_stats(run, measure):
    """Stats of one measure of one run, from its samples (the raw data), so
    that a document whose summaries were edited or left out still agrees
    with itself."""
    good = [s for s in measure["samples"] if s["status"] == "ok"]
    ok = [s["seconds"] for s in good]
    times = [s["slowest"] for s in ok]
    # Each sample's own bytes (--stonewall and --duration move other bytes
    # than the run's); read leniently, as the light check does.
    sizes = [s.get("bytes") for s in good]
    sizes = sizes if all(isinstance(b, int) and not isinstance(b, bool) and b > 0
                         for b in sizes) else None
    # A fastest time too small to divide by (a process with nothing to do)
    # has no ratio (the schema makes "fastest" optional).
    spread = [s["slowest"] / s["fastest"] for s in ok
              if isinstance(s.get("fastest"), (int, float)) and not isinstance(s["fastest"], bool)
              and s["fastest"] >= sys.float_info.epsilon]
    return Stats(measure["status"], times, run["bytes"], is_data_measure(measure["measure"]),
                 spread if len(spread) == len(times) else (), sizes)


def format_size(n):
    """A byte count as the report writes sizes: 4KiB, 1MiB, 1.5GiB, 100B."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            value = n / scale
            return ("%d%s" % (value, unit) if n % scale == 0 else "%.3g%s" % (value, unit))
    return "%dB" % n


def distribution_text(config):
    """The particles pattern's distribution as h5perf's report names it:
    "imbalance:0.5 around 1000 per process", "uniform, 1000 per process",
    "normal:300 around 1000 per process, seed 1", "list:4,0,6"."""
    spec = config.get("particles")
    spec = spec if isinstance(spec, dict) else {}
    dist, n = spec.get("distribution", "?"), spec.get("per_process")
    text = str(dist)
    if isinstance(n, int) and not isinstance(n, bool):
        text += (", %d per process" if dist == "uniform" else " around %d per process") % n
    if spec.get("seed") is not None:
        text += ", seed %s" % spec["seed"]
    return text


def counts_text(counts):
    """(total, min, max) particles -> "2000 particles, 500 to 1500 per
    process" (as h5perf's report titles a process count's table)."""
    total, least, most = counts
    each = "%d" % least if least == most else "%d to %d" % (least, most)
    return "%d particles, %s per process" % (total, each)


def short_names(paths):
    """Short labels for the input files: the file name without extension;
    where two inputs share it, the parent directory is prefixed, and any
    label still shared gets #2, #3... in input order."""
    names = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    if len(set(names)) < len(names):
        names = ["%s/%s" % (os.path.basename(os.path.dirname(os.path.abspath(p))), n)
                 for p, n in zip(paths, names)]
    seen = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else "%s #%d" % (n, seen[n]))
    return out


def variant_note(res, charts=False):
    """The note on the runs of API variants left out of res, or None;
    charts: h5perf-plot's, whose overhead charts show the variants h5perf
    named a reference for (h5perf-compare compares none of them)."""
    n = len(res.variant_runs)
    if not n:
        return None
    kinds = []
    for r in res.variant_runs:
        if r["variant"] not in kinds:
            kinds.append(r["variant"])
    charted = (" but from the overhead charts, which divide them by MPI-IO's run with the "
               "same method" if charts and res.variant_over else "")
    return ("note: '%s': %d run%s of API variants (%s) left out%s; h5perf's own report "
            "compares them (docs/hdf5.md)" % (res.path, n, "" if n == 1 else "s",
                                             "; ".join(kinds), charted))
# The schemas, beside this module where it is installed (share/h5perf), or
# in docs/ of the source tree.
HERE = os.path.dirname(os.path.realpath(__file__))
# What h5perf writes: int64_t and finite doubles. A larger integer is no
# count of bytes or seconds, and is more than a float holds.
INT64 = (-(1 << 63), (1 << 63) - 1)
_VALIDATORS = {}


def load(path):
    """Reads and validates one document; raises ResultsError with a
    one-line message that starts with the quoted path."""
    return from_doc(path, read_json(path))


def only_measures(res, measures):
    """A view of res with only the measures named (h5perf-plot --measures:
    scripts/demo's page shows the figures its answers are given in); the
    others stay in the file and are listed in the view's left_out, in
    run order. Raises ResultsError when res has none of them."""
    doc = copy.deepcopy(res.doc)
    left = []
    for run in doc["runs"]:
        left += [m["measure"] for m in run["measures"]
                 if m["measure"] not in measures and m["measure"] not in left]
        run["measures"] = [m for m in run["measures"] if m["measure"] in measures]
    if not any(run["measures"] for run in doc["runs"]):
        raise ResultsError("'%s': none of the measures %s (it has %s)" % (
            res.path, ", ".join(measures), ", ".join(left)))
    view = Results(res.path, doc)
    view.name, view.left_out = res.name, left
    return view


def from_doc(path, doc):
    """The Results of a document read_json() read from path, validated."""
    try:
        check_document(doc)
    except ResultsError as e:
        raise ResultsError("'%s': %s" % (path, e)) from None
    return Results(path, doc)


def read_json(path):
    """The JSON document in path, as h5perf writes them (64-bit integers,
    finite numbers), not yet checked; raises ResultsError with a one-line
    message that starts with the quoted path."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ResultsError("'%s': cannot read: %s" % (path, e.strerror or e)) from None
    try:
        doc = json.loads(raw, parse_constant=_no_constant, parse_int=_int64,
                         parse_float=_finite)
    except Beyond as e:
        raise ResultsError("'%s': %s (h5perf writes 64-bit integers and finite decimals)"
                           % (path, e)) from None
    except (ValueError, RecursionError) as e:
        raise ResultsError("'%s': not JSON: %s" % (path, _first_line(e))) from None
    return doc


def _no_constant(name):
    # Python's json accepts NaN and Infinity; JSON (RFC 8259) does not.
    raise ValueError("%s is not a JSON value" % name)


class Beyond(ValueError):
    """A number h5perf cannot have written."""


def _int64(text):
    value = int(text)
    if not INT64[0] <= value <= INT64[1]:
        raise Beyond("the integer %s%s is beyond 64 bits" % (
            text[:20], "..." if len(text) > 20 else ""))
    return value


def _finite(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise Beyond("the number %s%s is beyond a double" % (
            text[:20], "..." if len(text) > 20 else ""))
    return value


def _first_line(e):
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def schema_validator(name):
    """The validator (jsonschema, draft 2020-12) of the schema file name,
    installed beside the tools or in the source tree's docs/; made once."""
    if name not in _VALIDATORS:
        import jsonschema
        for path in (os.path.join(HERE, name), os.path.join(HERE, os.pardir, "docs", name)):
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    _VALIDATORS[name] = jsonschema.Draft202012Validator(json.load(f))
                break
        else:
            raise ResultsError("the schema %s is not installed beside %s" % (name, HERE))
    return _VALIDATORS[name]


def validator():
    """The results document's validator."""
    return schema_validator("results.schema.json")


def where(path):
    """A JSON path as the messages write it: runs[0].measures[2].status."""
    out = ""
    for part in path:
        out += "[%d]" % part if isinstance(part, int) else ("." if out else "") + str(part)
    return out


def deepest(errors):
    """The most specific of the schema's errors: the deepest in the
    document (an unknown config.pattern rather than the guide's keys its
    "else" branch then misses), and within a oneOf the deepest of its
    branches' (a time that is a string rather than "not valid under any of
    the given schemas"). None without errors."""
    if not errors:
        return None
    best = max(errors, key=lambda e: len(e.absolute_path))
    inner = deepest(list(best.context or []))
    return inner if inner is not None and len(inner.absolute_path) > len(best.absolute_path) \
        else best


def check_document(doc):
    """Raises ResultsError (without the file name) unless doc is a version 1
    or 2 h5perf results document valid against the schema, without a run
    given twice."""
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ResultsError('not an h5perf results document (no "schema": "%s")' % SCHEMA)
    version = doc.get("schema_version")
    if version not in SCHEMA_VERSIONS or isinstance(version, bool):
        raise ResultsError("unsupported schema_version %s (supported: %s)" % (
            json.dumps(version), ", ".join(str(v) for v in SCHEMA_VERSIONS)))
    error = deepest(list(validator().iter_errors(doc)))
    if error is not None:
        at = where(error.absolute_path)
        raise ResultsError("%s%s" % (at + ": " if at else "", one_line(error.message)[:300]))
    _check_runs_once(doc)


def _check_runs_once(doc):
    """Each run once: the guide's by (processes, transfer size, API), the
    other patterns' by (processes, layout, API, placement) (their runs of
    one process count share a transfer size: layout_keyed())."""
    by_layout = layout_keyed(doc)
    seen = set()
    for i, run in enumerate(doc["runs"]):
        if by_layout:
            pair = run_placement(run)
            key = (run["processes"], run.get("layout"), run["api"]) + pair
            what = "layout %s" % run.get("layout")
            placed = ", align_data %d, shift %d" % pair if pair != PACKED else ""
        else:
            key = (run["processes"], run["transfer_size"], run["api"])
            what, placed = "transfer size %s" % format_size(key[1]), ""
        # An API's variants (docs/hdf5.md) are runs of their own.
        key += (run.get("variant"),)
        if key in seen:
            raise ResultsError("runs[%d]: second run of %d processes, %s, %s%s" % (
                i, key[0], what, key[2], placed))
        seen.add(key)


def check_one_pattern(inputs, verb):
    """Raises ResultsError unless every loaded document has the same
    pattern: the guide's, the block pattern's and the particles pattern's
    figures measure different things. verb says what is not done with them
    ("compared")."""
    for res in inputs[1:]:
        if res.pattern != inputs[0].pattern:
            raise ResultsError(
                "'%s' has the %s pattern's results and '%s' the %s pattern's: they measure "
                "different things and are not %s" % (
                    inputs[0].path, inputs[0].pattern, res.path, res.pattern, verb))
