"""MPI cases of the measurement's bounds (docs/measuring.md): --stonewall,
--duration, the latency of calls and --confidence.

A stonewalled write is checked for every API and pattern with process 1
slowed through the fault shim (each of its writes waits ten times longer
than process 0's): the processes stop at different counts, agree on the
most, and each completes that many (the wear-out); the kept file is read by
an independent reader (numpy for flat and netCDF files, h5read for HDF5)
and every element the agreed calls wrote holds the content rule, every
other element none; -D v's read phase reads exactly what was written.
--confidence is checked on the null backend's synthetic clock, where the
timings, hence the iterations, are exact.
"""
import json
import os

import numpy as np

import cdf5
from block import blocks, h5values
from common import SUFFIX, case
from harness import TempDir, built_apis, expect, expect_eq, run
from results import validate

# Each write of process 0 waits 0.2 ms, each of process 1 2 ms.
SLOWED = "200,2000"
STONEWALL = 0.3
NAMES = {"guide": "Dataset_1", "block": "v0", "particles": "x"}
H5NAMES = {"guide": "Dataset_1", "block": "v0", "particles": "Timestep_0/x"}

# The runs (2 processes): the pattern's arguments, and for each process the
# elements of the variable it writes, in call order, and the elements one
# call moves. Element sizes: the guide's bytes, block 4, particles 4.
E = 4 << 20
GLOBAL = (1024, 1024)
COUNTS = (262144, 131072)
RUNS = {
    "guide": ("-e 4M -B 1K -x 1K -X 1K", 1, 1024),
    "guide_2d": ("-g -e 1K -B 16 -x 16 -X 16", 1, 256),
    "block": ("--pattern block --global 1024x1024 --element-size 4 --transfer-size 1K", 4, 256),
    "particles": ("--pattern particles --vars 1 --transfer-size 1K "
                  "--distribution list:%d,%d" % COUNTS, 4, 256),
}


def owned(pattern, rank):
    """The flat indices (of the variable's logical array) process rank
    writes, in the order of its calls."""
    if pattern == "guide":
        return np.arange(rank * E, (rank + 1) * E)
    if pattern == "block":
        idx = np.arange(GLOBAL[0] * GLOBAL[1]).reshape(GLOBAL)
        return idx[blocks(GLOBAL, (2, 1))[rank]].reshape(-1)
    start = sum(COUNTS[:rank])
    return np.arange(start, start + COUNTS[rank])


def content(pattern, rank, idx):
    """What the content rule puts at those indices (the guide's: rank + 1)."""
    if pattern == "guide":
        return np.full(idx.size, rank + 1, dtype=np.uint64)
    return idx.astype(np.uint64)


def flat_values(path, dtype, count, offset=0):
    """count elements from offset: those the file holds, zero past its end
    (a stonewalled write leaves the tail unwritten)."""
    with open(path, "rb") as fh:
        fh.seek(offset)
        got = np.fromfile(fh, dtype=dtype, count=count).astype(np.uint64)
    return np.concatenate([got, np.zeros(count - got.size, dtype=np.uint64)])


def variable(d, api, pattern, layout, rank, size):
    """The file's variable (the whole array, or process rank's own in a
    file per process), its elements in C order."""
    path = os.path.join(d, "#pio_tmp_1%s%s" % ("" if layout == "shared" else ".%d" % rank,
                                               SUFFIX[api]))
    dtype = "<u1" if pattern == "guide" else "<u4"
    if api == "phdf5":
        return h5values(path, H5NAMES[pattern])[3]
    if api == "pnetcdf":
        _, shape, begin, code = cdf5.header(path)["vars"][NAMES[pattern]]
        # Big-endian, its bits as unsigned integers (x is a float).
        size = np.dtype(cdf5.TYPES[code][1]).itemsize
        return flat_values(path, ">u%d" % size, int(np.prod(shape)), begin)
    return flat_values(path, dtype, size)


def check_written(d, api, pattern, layout, calls, per_call, r):
    """Every element of the first calls calls of each process holds the
    rule; every other element is unwritten (zero)."""
    mine = [owned(pattern, p) for p in (0, 1)]
    total = sum(m.size for m in mine)
    if layout == "shared":
        got = variable(d, api, pattern, layout, 0, total)
        want = np.zeros(total, dtype=np.uint64)
    for p in (0, 1):
        done = mine[p][:calls * per_call]
        if layout == "fpp":
            got = variable(d, api, pattern, layout, p, mine[p].size)
            want = np.zeros(mine[p].size, dtype=np.uint64)
            want[:done.size] = content(pattern, p, done)
            bad = np.flatnonzero(got != want)
            expect(bad.size == 0, "%s %s fpp %d: %d elements differ, the first at %s" % (
                api, pattern, p, bad.size, bad[:1].tolist()), r)
        else:
            want[done] = content(pattern, p, done)
    if layout == "shared":
        bad = np.flatnonzero(got != want)
        expect(bad.size == 0, "%s %s shared: %d elements differ, the first at %s" % (
            api, pattern, bad.size, bad[:1].tolist()), r)


def check_guide_2d(d, api, calls, r):
    """The guide's 2D geometry: every byte is its owner's value or
    unwritten, and each process wrote calls x 256 bytes."""
    side = 1024 * 2
    got = variable(d, api, "guide", "shared", 0, side * side)
    owner = np.repeat(np.arange(1, 3, dtype=np.uint64), side * side // 2)
    expect(np.all((got == 0) | (got == owner)), "%s 2D: a byte of another process" % api, r)
    for p in (1, 2):
        expect_eq(int(np.count_nonzero(got == p)), calls * 256,
                  "%s 2D: bytes of process %d" % (api, p - 1), r)


def stonewalled(api, pattern, layout="shared", extra=""):
    """One stonewalled run, files kept, and the checks of this module's
    docstring. Returns the run's stonewall account."""
    args, elem, per_call = RUNS[pattern]
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1", "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": SUFFIX[api], "H5PERF_FAULT_DELAYS_US": SLOWED}
        if pattern in ("block", "particles"):
            args += " --layout " + layout
        results = os.path.join(d, "r.json")
        r = run(2, "%s -A %s -p 2 -D v --stonewall %g --results %s %s" % (
            args, api, STONEWALL, results, extra), env=env, timeout=300)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        with open(results) as fh:
            doc = json.load(fh)
        validate(doc)
        run0 = doc["runs"][0]
        sw = run0["bounded"][0]["stonewall"]
        # Process 1 may make no call before the deadline on a loaded machine
        # (its first waits ten times longer): it then writes only in the
        # wear-out.
        expect(sw["calls"] == sw["calls_max"] >= sw["calls_min"] >= 0 and sw["calls_max"] > 0,
               "calls %s" % sw, r)
        calls = sw["calls"]
        # The phases moved exactly the agreed calls of every process.
        moved = sum(min(calls * per_call, owned(pattern if pattern != "guide_2d" else "guide",
                                                p).size) for p in (0, 1)) * elem
        if pattern == "guide_2d":
            moved = 2 * calls * per_call
        expect_eq((run0["bounded"][0]["write_bytes"], run0["bounded"][0]["read_bytes"]),
                  (moved, moved), "bytes written and read", r)
        if pattern == "guide_2d":
            check_guide_2d(d, api, calls, r)
        else:
            check_written(d, api, pattern, layout, calls, per_call, r)
        lines = [l for l in r.lines if l.startswith("Stonewall after 0.3 s")]
        expect_eq(len(lines), 1, "the text report's stonewall section", r)
        return sw


def stonewall_every_pattern(api):
    if api not in built_apis():
        from common import Skip
        raise Skip("%s is not in this build" % api)
    for pattern in ("guide", "guide_2d", "block", "particles"):
        sw = stonewalled(api, pattern)
        # Process 1, ten times slower, had stopped well before process 0.
        expect(sw["calls_min"] < sw["calls_max"], "%s %s: one count %s" % (api, pattern, sw))
    stonewalled(api, "block", "fpp")


@case
def stonewall_posix():
    stonewall_every_pattern("posix")


@case
def stonewall_mpiio():
    stonewall_every_pattern("mpiio")


@case
def stonewall_phdf5():
    stonewall_every_pattern("phdf5")


@case
def stonewall_pnetcdf():
    stonewall_every_pattern("pnetcdf")


@case
def stonewall_collective_stops_together():
    """With -C every call is collective: process 0 decides for all, so the
    processes stop at the same count."""
    for api in ("mpiio", "phdf5"):
        sw = stonewalled(api, "block", extra="-C")
        expect_eq(sw["calls_min"], sw["calls_max"], "%s -C: one count" % api)


def check_block_file(d, api, side):
    """The whole shared file of the block pattern (side x side, 4 bytes)."""
    got = variable(d, api, "block", "shared", 0, side * side)
    bad = np.flatnonzero(got != np.arange(got.size, dtype=np.uint64))
    expect(bad.size == 0, "%s: %d elements differ, the first at %s" % (api, bad.size,
                                                                         bad[:1].tolist()))


def check_duration(x, r):
    """A run of --duration: every repetition's bytes in the samples, the
    read's once, and the repetitions' spread (how many repetitions a
    duration takes is checked on the synthetic clock,
    duration_counts_on_a_synthetic_clock)."""
    b = x["bounded"][0]
    reps = b["repetitions"]
    write = [y for y in x["measures"] if y["measure"] == "write_open_close"][0]
    expect(reps["count"] >= 1, "%s: %d repetitions" % (x["api"], reps["count"]), r)
    expect_eq((b["write_bytes"], b["read_bytes"], write["samples"][0]["bytes"]),
              (reps["count"] * x["bytes"], x["bytes"], b["write_bytes"]),
              "bytes of %s" % x["api"], r)
    m = reps["mib_per_s"]
    expect(0 < m["min"] <= m["mean"] <= m["max"] and m["sd"] >= 0, "spread %s" % m, r)


@case
def duration_repeats_and_reports():
    """--duration repeats each file's write phase, a new file each time or
    the same one rewritten, until the time has passed; the read phase reads
    (and -D v verifies) the last repetition, which the kept file holds
    whole. The results count the repetitions and the bytes of all of them;
    the report gives their spread."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    for repeat in ("new", "overwrite"):
        with TempDir() as d:
            results = os.path.join(d, "r.json")
            r = run(2, "--pattern block --global 256x256 --element-size 4 --layout shared "
                    "-A %s -D v --duration 0.5 --repeat %s --results %s" % (
                        ",".join(apis), repeat, results),
                    env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}, timeout=300)
            expect_eq((r.rc, r.h5perf_err[1:]), (0, []), "exit status and stderr", r)
            with open(results) as fh:
                doc = json.load(fh)
            validate(doc, r)
            expect_eq(doc["config"]["repeat"], repeat, "config.repeat", r)
            for x in doc["runs"]:
                b = x["bounded"][0]
                reps = b["repetitions"]
                check_duration(x, r)
                write = [y for y in x["measures"] if y["measure"] == "write_open_close"][0]
                # The whole duration's throughput: all bytes over all seconds.
                s = write["samples"][0]["seconds"]["slowest"]
                expect(abs(write["summary"]["mib_per_s"]["avg"] * s * 1048576
                           - b["write_bytes"]) < 1e-6 * b["write_bytes"], "average", r)
                if x["processes"] == 2:
                    check_block_file(d, x["api"], 256)
            title = [l for l in r.lines if l.startswith("Writes repeated for 0.5 s")]
            # The guide's and the particles pattern's write phases repeat
            # alike (the particles pattern's group Timestep_0 each time).
            counts = [x["bounded"][0]["repetitions"]["count"] for x in doc["runs"]]
            more = os.path.join(d, "more")
            os.mkdir(more)
            for args in ("-e 256K -x 64K -X 64K -B 64K", "--pattern particles --particles 4096"):
                r2 = run(2, "%s -A %s -p 2 -D v --duration 0.3 --repeat %s --results %s" % (
                    args, ",".join(apis), repeat, results),
                    env={"HDF5_PARAPREFIX": more}, timeout=300)
                expect_eq(r2.rc, 0, "exit status (%s)" % args, r2)
                with open(results) as fh:
                    doc2 = json.load(fh)
                validate(doc2, r2)
                for x in doc2["runs"]:
                    check_duration(x, r2)
                    counts.append(x["bounded"][0]["repetitions"]["count"])
            # Small POSIX writes repeat many times, whatever the load.
            expect(max(counts) >= 2, "repetitions %s" % counts, r)
            # One section per process count (2, then 1).
            expect_eq(title, ["Writes repeated for 0.5 s (%s): MB/s over the whole duration "
                              "(median over iterations), and the repetitions' spread (of the "
                              "last iteration)" % ("each a new file" if repeat == "new" else
                                                    "the same file overwritten")] * 2,
                      "the report's sections", r)


@case
def latency_of_every_call():
    """Each process times every open, transfer and close; the histograms
    merged over the processes count every call (2 processes, 2400 calls each
    per phase: more than a latency log holds, so that it is binned once
    full and once at the end; one open and one close each), their
    quantiles are ordered and bounded by min and max, and --latency adds
    the table to the text report (never without it)."""
    with TempDir() as d:
        results = os.path.join(d, "r.json")
        r = run(2, "--pattern block --global 600x512 --element-size 4 --transfer-size 256 "
                "--layout shared,fpp -A posix,mpiio -p 2 --latency --results %s" % results,
                env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        with open(results) as fh:
            doc = json.load(fh)
        validate(doc, r)
        expect_eq(doc["config"]["latency_table"], True, "config", r)
        for x in doc["runs"]:
            for phase in ("write", "read"):
                lat = x["latency"][phase]
                expect_eq([lat[c]["calls"] for c in ("open", "transfer", "close")],
                          [2, 2 * 2400, 2], "calls of %s %s" % (x["api"], phase), r)
                for c in ("open", "transfer", "close"):
                    s = lat[c]["seconds"]
                    q = [s[k] for k in ("min", "p50", "p90", "p99", "p99.9", "max")]
                    expect(q == sorted(q) and q[0] > 0, "quantiles %s" % s, r)
                    expect_eq(sum(n for _, n in lat[c]["histogram"]), lat[c]["calls"],
                              "histogram", r)
                    expect_eq(lat[c]["histogram"][-1][0], s["max"], "last bucket", r)
        table = [l.split() for l in r.lines if l.startswith("    layout ")]
        expect_eq(len(table), 2 * 2 * 2 * 3, "latency table rows", r)
        expect_eq(table[1][:6], ["layout", "shared", "POSIX", "write", "transfer", "4800"],
                  "a row", r)
        r = run(2, "--pattern block --global 512x512 -A posix -p 2", env={"HDF5_PARAPREFIX": d})
        expect_eq([l for l in r.lines if l.startswith("Latency")], [], "no table without", r)


def null_run(seconds, extra):
    """engine_null on the synthetic clock: the confidence table's rows."""
    r = run(2, "-e 1K -B 1K -x 1K -X 1K -A posix -p 2 --confidence 5 " + extra,
            env={"H5PERF_NULL_SECONDS": seconds}, exe=os.environ["ENGINE_NULL"])
    expect_eq(r.rc, 0, "exit status", r)
    return [l.split()[-3:] for l in r.lines if l.startswith("    transfer size 1KB")]


@case
def confidence_stops_at_the_interval_or_a_bound():
    """On timings that do not vary the 95% interval is exact from the 6
    iterations it needs; on timings that never narrow (each transfer 10, 30
    or 20 ms in turn) it is never within 5%, so --max-iterations ends the
    run point, or --max-time (0.3 s of the synthetic clock: 8 iterations of
    two transfers each, 0.04 s on average)."""
    steady = null_run("0.01", "")
    expect_eq(len(steady), 4, "four measures", None)
    expect_eq([x[1:] for x in steady], [["6", "interval"]] * 4, "steady timings", None)
    noisy = null_run("0.01,0.03,0.02", "--max-iterations 12")
    expect_eq([x[1:] for x in noisy], [["12", "max_iterations"]] * 4, "noise, 12 at most", None)
    timed = null_run("0.01,0.03,0.02", "--max-time 0.3")
    expect_eq([x[1:] for x in timed], [["8", "max_time"]] * 4, "noise, 0.3 s at most", None)


@case
def confidence_records_grow_with_the_iterations():
    """--max-iterations bounds a run point's record, it does not size it:
    with 2147483647 allowed, noise that never narrows to 5% and --max-time
    1 (1 s of the synthetic clock: 25 iterations of 0.04 s on average), the
    run ends at the time bound with its throughput, its confidence table and
    its run in the results (docs/measuring.md, "--confidence")."""
    with TempDir() as d:
        results = os.path.join(d, "r.json")
        r = run(2, "-e 1K -B 1K -x 1K -X 1K -A posix -p 2 --confidence 5 "
                "--max-iterations 2147483647 --max-time 1 --results %s" % results,
                env={"H5PERF_NULL_SECONDS": "0.01,0.03,0.02", "HDF5_PARAPREFIX": d},
                exe=os.environ["ENGINE_NULL"])
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq([l.strip() for l in r.lines if l.strip().startswith("Write (")],
                  ["Write (25 iteration(s)):"], "the throughput table", r)
        rows = [l.split()[-3:] for l in r.lines if l.startswith("    transfer size 1KB")]
        expect_eq([x[1:] for x in rows], [["25", "max_time"]] * 4, "the confidence table", r)
        with open(results) as fh:
            doc = json.load(fh)
        expect_eq([(x["stop"], [m["summary"]["iterations"] for m in x["measures"]])
                   for x in doc["runs"]], [("max_time", [25] * 4)], "the results' runs", r)


@case
def duration_counts_on_a_synthetic_clock():
    """On the null backend's clock every write repetition takes exactly 0.1 s
    (one transfer): --duration 0.35 makes 4 repetitions (0.1, 0.2 and 0.3 s
    are short of it, the fourth starts at 0.3 s), --duration 0.3 makes 3
    (the third ends at exactly 0.3 s), and the read phase reads once."""
    for duration, count in (("0.35", "4"), ("0.3", "3")):
        r = run(2, "-e 1K -B 1K -x 1K -X 1K -A posix -p 2 --duration " + duration,
                env={"H5PERF_NULL_SECONDS": "0.1"}, exe=os.environ["ENGINE_NULL"])
        expect_eq(r.rc, 0, "exit status", r)
        rows = [l.split() for l in r.lines if l.startswith("    transfer size 1KB")]
        expect_eq([x[4] for x in rows], [count], "repetitions with --duration %s" % duration, r)


@case
def measures_name_every_run():
    """The rows of the measures' tables name each run point of a process
    count apart: the layout, the API's variant, and the placement when
    --align-data or --shift was given more than one value (the runs of a
    file per process, and an API whose files h5perf does not place, once,
    without it); the Run column is as wide as its longest label, so that
    every row's API starts where the header's does."""
    pnetcdf = "pnetcdf" in built_apis()
    apis = "posix,pnetcdf --pnetcdf.nonblocking" if pnetcdf else "posix"
    r = run(2, "--pattern block --global 64x64 --layout shared,fpp -A %s -p 2 "
            "--align-data 512,4K --shift 0,100 --duration 0.3" % apis,
            env={"H5PERF_NULL_SECONDS": "0.1"}, exe=os.environ["ENGINE_NULL"])
    expect_eq(r.rc, 0, "exit status", r)
    at = [i for i, l in enumerate(r.lines) if l.startswith("Writes repeated")][0]
    header, rows = r.lines[at + 1], r.lines[at + 2:]
    rows = rows[:[i for i, l in enumerate(rows + [""]) if not l.startswith("    layout")][0]]
    placed = ["layout shared, align-data %s, shift %s" % p
              for p in (("512", "0"), ("512", "100"), ("4KB", "0"), ("4KB", "100"))]
    netcdf = [("layout shared", "PnetCDF"), ("layout shared, nonblocking", "PnetCDF")]
    want = [(placed[0], "POSIX")] + (netcdf if pnetcdf else []) + \
        [(p, "POSIX") for p in placed[1:]] + [("layout fpp", "POSIX")] + \
        ([("layout fpp", "PnetCDF"), ("layout fpp, nonblocking", "PnetCDF")] if pnetcdf else [])
    column = header.index("API")
    expect_eq([(l[:column].strip(), l[column:].split()[0]) for l in rows], want,
              "the rows' runs and APIs", r)
    expect_eq(column, 4 + len(placed[1]) + 1, "the Run column's width", r)


@case
def confidence_in_the_results():
    """A real run: each summary's median interval (6 iterations at least),
    the stop reason, and the configuration."""
    with TempDir() as d:
        results = os.path.join(d, "r.json")
        r = run(2, "-e 256K -B 64K -x 64K -X 64K -A posix -p 2 --confidence 50 "
                "--max-iterations 8 --results %s" % results, env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        with open(results) as fh:
            doc = json.load(fh)
        validate(doc, r)
        expect_eq((doc["config"]["confidence_percent"], doc["config"]["max_iterations"]),
                  (50, 8), "config", r)
        x = doc["runs"][0]
        expect(x["stop"] in ("interval", "max_iterations"), "stop %s" % x["stop"], r)
        for m in x["measures"]:
            n = m["summary"]["iterations"]
            ci = m["summary"]["median_interval"]
            expect(6 <= n <= 8 and ci["level"] == 0.95 and ci["coverage"] >= 0.95,
                   "%s: %d iterations, %s" % (m["measure"], n, ci), r)
            lo, hi = ci["mib_per_s"]["low"], ci["mib_per_s"]["high"]
            expect(lo <= m["summary"]["mib_per_s"]["median"] <= hi, "median inside", r)
