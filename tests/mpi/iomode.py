"""MPI cases about what HDF5 did with collective transfers (-C): the JSON's
actual_io_mode of every HDF5 run point, and the stderr line, once per run
point, when HDF5 did independent I/O instead (docs/results.md). HDF5 falls
back for real here: HDF5_MPI_OPT_TYPES=0 in the environment (HDF5's own
setting), and a datatype conversion on one rank (the h5convert shim).
"""
import os
import sys

from common import case
from harness import TempDir, expect, expect_eq, hdf5_version, listing, run
from results import load, validate

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
from compare import mask_line  # noqa: E402

WARNING = "h5perf: warning: HDF5 did independent I/O where collective was asked "
ARGS = "-e 64K -B 16K -x 32K -X 64K -D v"


def phase(mode, cause=None, with_cause=0):
    return {"mode": mode, "modes": [mode], "collective": cause is None and mode.endswith(
        "_collective"), "cause": cause, "cause_processes": with_cause, "processes_agree": True}


def io_modes(doc):
    """(processes, transfer size or layout, api, actual_io_mode or None) per run."""
    return [(x["processes"], x.get("layout", x["transfer_size"]), x["api"],
             x.get("actual_io_mode")) for x in doc["runs"]]


@case
def iomode_collective_recorded():
    """A collective HDF5 run records the mode HDF5 did, contiguous_collective
    for a contiguous dataset and chunk_collective for -c (a phase per phase
    run), in the guide's patterns, the block and the particles pattern, and
    prints no warning; POSIX, MPI-IO and independent HDF5 runs have no such key."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d}
        out = os.path.join(d, "r.json")
        r = run(2, "%s -C -i 2 --results %s" % (ARGS, out), env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        doc = load(out)
        validate(doc, r)
        coll = phase("contiguous_collective")
        want = [(p, x, a, {"write": coll, "read": coll} if a == "phdf5" else None)
                for p in (2, 1) for x in (32768, 65536) for a in ("posix", "mpiio", "phdf5")]
        expect_eq(io_modes(doc), want, "actual_io_mode of each run", r)
        r = run(2, "%s -C -c -w -p 2 -A phdf5 --results %s" % (ARGS, out), env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (-c)", r)
        doc = load(out)
        validate(doc, r)
        expect_eq(io_modes(doc), [(2, x, "phdf5", {"write": phase("chunk_collective")})
                                  for x in (32768, 65536)], "chunked, write only", r)
        r = run(2, "%s -p 2 -A phdf5 --results %s" % (ARGS, out), env=env)
        expect_eq(r.rc, 0, "exit status (independent)", r)
        doc = load(out)
        validate(doc, r)
        expect_eq([m for *_, m in io_modes(doc)], [None, None], "independent: no key", r)
        r = run(4, "--pattern block --global 8x8 --element-size 4 -C -A phdf5,mpiio -D v "
                "--results %s" % out, env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (block)", r)
        doc = load(out)
        validate(doc, r)
        modes = {(p, layout, a): m for p, layout, a, m in io_modes(doc)}
        for p in (4, 2, 1):
            for layout, mode in (("shared", "contiguous_collective"),
                                 ("chunked", "chunk_collective"), ("fpp", "contiguous_collective")):
                expect_eq(modes[(p, layout, "phdf5")], {"write": phase(mode), "read": phase(mode)},
                          "block pattern, %d processes, %s" % (p, layout), r)
                expect_eq(modes[(p, layout, "mpiio")], None, "MPI-IO has none", r)
        # A process without particles makes no HDF5 call on its empty file
        # (fpp): it reports nothing, and the others still agree.
        r = run(2, "--pattern particles --distribution list:0,128 -p 2 -C "
                "-A phdf5 -D v --results %s" % out, env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (particles)", r)
        doc = load(out)
        validate(doc, r)
        expect_eq(io_modes(doc), [(2, layout, "phdf5", {"write": coll, "read": coll})
                                  for layout in ("shared", "fpp")], "particles", r)
        expect_eq(listing(d), ["r.json"], "no data file left", r)


@case
def iomode_fallback_warned():
    """HDF5_MPI_OPT_TYPES=0, HDF5's own switch for MPI derived types, makes
    HDF5 do independent I/O where -C asked for collective: one warning per
    HDF5 run point on stderr, its cause in the JSON, the data still right
    (-D v), and the text report the same as without the fallback."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        args = "%s -C -A mpiio,phdf5 --results %s" % (ARGS, out)
        normal = run(2, args, env={"HDF5_PARAPREFIX": d})
        expect_eq((normal.rc, normal.h5perf_err), (0, []), "exit status and stderr (normal)",
                  normal)
        r = run(2, args, env={"HDF5_PARAPREFIX": d, "HDF5_MPI_OPT_TYPES": "0"})
        expect_eq(r.rc, 0, "exit status", r)
        cause = "MPI derived types disabled (HDF5_MPI_OPT_TYPES)"
        expect_eq(r.h5perf_err, [
            WARNING + "(%d process%s, transfer size %s, write and read): %s"
            % (p, "es" if p > 1 else "", x, cause) for p in (2, 1) for x in ("32KB", "64KB")],
            "one warning per HDF5 run point", r)
        doc = load(out)
        validate(doc, r)
        want = [(p, x, a, {"write": phase("no_collective", cause, p),
                           "read": phase("no_collective", cause, p)} if a == "phdf5" else None)
                for p in (2, 1) for x in (32768, 65536) for a in ("mpiio", "phdf5")]
        expect_eq(io_modes(doc), want, "actual_io_mode", r)
        expect_eq([mask_line(l) for l in r.lines], [mask_line(l) for l in normal.lines],
                  "text report unchanged (numbers masked)", r)
        expect(not any("h5perf:" in l for l in r.lines), "no h5perf: line on stdout", r)
        r = run(2, "%s -C -A phdf5 -p 2 -X 32K --format json" % ARGS,
                env={"HDF5_PARAPREFIX": d, "HDF5_MPI_OPT_TYPES": "0"})
        expect_eq((r.rc, r.h5perf_err), (0, [
            WARNING + "(2 processes, transfer size 32KB, write and read): " + cause]),
            "with --format json too", r)
        r = run(2, "--pattern particles --particles 64 --layout shared -p 2 -C -A phdf5 -D v",
                env={"HDF5_PARAPREFIX": d, "HDF5_MPI_OPT_TYPES": "0"})
        expect_eq((r.rc, r.h5perf_err), (0, [
            WARNING + "(2 processes, layout shared, write and read): " + cause]),
            "the particles pattern", r)
        expect_eq(listing(d), ["r.json"], "no data file left", r)


@case
def iomode_conversion_on_one_process():
    """A datatype conversion on rank 1 only (the h5convert shim passes signed
    chars as the memory type): HDF5 does independent I/O on both processes
    and says the cause came from one; the warning says so too. HDF5 1.10
    falls back writing and reading; 1.14 and 2.0 (1.14.5 and 2.0.0 measured)
    convert within collective I/O when writing, and fall back only reading
    the reopened file, with a second cause: their selection I/O, which would
    carry the conversion, is off there (H5Pget_no_selection_io_cause: the
    chunk cache)."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["H5CONVERT"],
               "H5PERF_CONVERT_RANK": "1"}
        r = run(2, "%s -C -c -A phdf5 -p 2 -i 2 --results %s" % (ARGS, out), env=env)
        expect_eq(r.rc, 0, "exit status (the data verifies)", r)
        if hdf5_version() < (1, 14):
            phases, cause = "write and read", "datatype conversion"
            write = phase("no_collective", cause, 1)
        else:
            phases, cause = "read", "datatype conversion, selection or vector I/O disabled"
            write = phase("chunk_collective")
        expect_eq(r.h5perf_err, [
            WARNING + "(2 processes, transfer size %s, %s): %s (on 1 of 2 processes)"
            % (x, phases, cause) for x in ("32KB", "64KB")], "warnings", r)
        doc = load(out)
        validate(doc, r)
        read = phase("no_collective", cause, 1)
        expect_eq(io_modes(doc), [(2, x, "phdf5", {"write": write, "read": read})
                                  for x in (32768, 65536)], "actual_io_mode", r)
        expect_eq(listing(d), ["r.json"], "no data file left", r)
