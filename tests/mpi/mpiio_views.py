"""MPI-IO's state from one call, variable or decomposition to the next
(docs/design.md, "MPI-IO views"): every variable is moved under a view of
its own, or the default view at explicit offsets, whatever view the
variable before it left; a call's count is never what an earlier call
left in its status. Maps of decompositions of different ranks, boxes and
runs (a subarray view, no view, a view of runs, ...) through MPI-IO,
independent and collective, under ompio and ROMIO (where the library is
Open MPI), with -D v; every kept file read back by numpy (tests/mpi/map.py's
readers) and checked element by element.
"""
import os
import subprocess

from common import case
from harness import (TempDir, base_env, expect, expect_eq, launcher_is_hydra, listing,
                     mpiexec_command, run)
from map import KEEP, Decomp, check_fpp, check_shared

NPROCS = 3

# Per decomposition: the array, then each process's entries (the text
# format's runs "OFFSET:LENGTH" and boxes "START:COUNT,START:COUNT"), the
# view each asks of MPI-IO in a shared file in the comment.
DECOMPS = [
    ([6, 8], {0: "0:3,0:4", 1: "0:3,4:4", 2: "3:3,0:8"}),  # one box each: subarrays
    ([40], {0: "0:15", 1: "15:10", 2: "25:15"}),  # one run each: no view
    ([2, 3, 4], {0: "0:1,0:3,0:2 1:1,0:1,0:4", 1: "0:1,0:3,2:2",
                 2: "1:1,1:2,0:4"}),  # several boxes: a view of runs
    ([5, 6], {0: "0:2,0:6", 2: "2:3,0:6"}),  # whole rows, process 1 none: no view
    ([30], {0: "0:5 10:5 20:5", 1: "5:5 15:5 25:4"}),  # runs; the last element no one's
]


def entries(dims, text):
    """The flat C-order indices of a process's entries."""
    out = []
    for entry in text.split():
        pairs = [tuple(int(x) for x in p.split(":")) for p in entry.split(",")]
        if len(pairs) == 1 and len(dims) > 1:  # a run of the flat array
            out += range(pairs[0][0], pairs[0][0] + pairs[0][1])
            continue
        idx = [0]
        for (start, count), n in zip(pairs, dims):
            idx = [i * n + s for i in idx for s in range(start, start + count)]
        out += idx
    return out


def views_map(d, spec=DECOMPS, name="views"):
    """Writes the map of spec into directory d; returns (its path,
    decomps)."""
    lines, decomps = ["processes %d" % NPROCS], []
    for dims, mine in spec:
        dc = Decomp(dims, NPROCS)
        lines.append("array " + "x".join(str(n) for n in dims))
        for p, text in sorted(mine.items()):
            dc.owner[entries(dims, text)] = p
            lines.append("%d: %s" % (p, text))
        decomps.append(dc)
    path = os.path.join(d, name + ".map")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return path, decomps


def io_components():
    """Open MPI's two MPI-IO components; MPICH has ROMIO alone."""
    return [{}] if launcher_is_hydra() else [{}, {"OMPI_MCA_io": "romio321"}]


@case
def mpiio_views_per_variable():
    """A map of five decompositions whose views differ (a subarray, none,
    runs, none, runs) through MPI-IO, both layouts, independent and
    collective, whole selections and --transfer-size cuts, ompio and
    ROMIO, -D v: exit 0, no line on stderr, every element of every kept
    file as the content rule says."""
    with TempDir() as m:
        path, decomps = views_map(m)
        counts = [1] * len(DECOMPS)
        for io in io_components():
            for mode in ("", "-C"):
                for extra in ("", "--transfer-size 40"):
                    with TempDir() as d:
                        full = ("--pattern map --map %s -A mpiio --layout shared,fpp -D v %s %s"
                                % (path, mode, extra))
                        env = dict(io, HDF5_PARAPREFIX=d, **{KEEP: "1"})
                        r = run(NPROCS, full, env=env, timeout=120)
                        what = "%s (%s)" % (full, io or "default MPI-IO")
                        expect_eq((r.rc, r.h5perf_err), (0, []),
                                  "exit status and stderr of " + what, r)
                        expect(any(l.startswith("    MPI-IO  shared ") for l in r.lines),
                               "the shared row of " + what, r)
                        check_shared(d, decomps, counts, 8, ["mpiio"])
                        check_fpp(d, decomps, counts, 8, ["mpiio"], NPROCS)
                        expect_eq(len(listing(d)), 1 + NPROCS, "files of " + what, r)


def run_checked(decomps_spec, args, io, name):
    """Writes the map of decomps_spec, runs it through MPI-IO with args
    under io (environment), both layouts, -D v; checks exit 0, no line on
    stderr and every element of the kept files."""
    with TempDir() as m, TempDir() as d:
        path, decomps = views_map(m, decomps_spec, name)
        counts = [1] * len(decomps)
        full = "--pattern map --map %s -A mpiio --layout shared,fpp -D v --watchdog 10 %s" % (
            path, args)
        r = run(NPROCS, full, env=dict(io, HDF5_PARAPREFIX=d, **{KEEP: "1"}), timeout=120)
        what = "%s (%s)" % (full, io or "default MPI-IO")
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr of " + what, r)
        check_shared(d, decomps, counts, 8, ["mpiio"])
        check_fpp(d, decomps, counts, 8, ["mpiio"], NPROCS)
        expect_eq(len(listing(d)), 1 + NPROCS, "files of " + what, r)


@case
def mpiio_empty_call_romio():
    """ROMIO returns from a collective call of nothing (a process without
    elements) without setting its status: the count check must see 0
    bytes moved, not what the status held from the call before. -C, both
    layouts; process 1 moves data, then none, then data again, each
    process one run (no view)."""
    spec = [([12], {0: "0:4", 1: "4:4", 2: "8:4"}), DECOMPS[3], ([9], {1: "0:5", 2: "5:4"})]
    for io in io_components()[-1:]:
        run_checked(spec, "-C", io, "empty")


@case
def mpiio_cut_runs_collective():
    """Selections of one run each (no view), cut by --transfer-size 40 (5
    elements) across rows of 6: a call's piece spans two rows, two runs
    that follow one another in the file, moved in one call; with -C every
    process makes the same calls (a process with none of the array too).
    ompio and ROMIO, independent and collective."""
    spec = [DECOMPS[3], ([4, 6], {0: "0:1,0:6", 1: "1:3,0:6"})]
    for io in io_components():
        for mode in ("", "-C"):
            run_checked(spec, "--transfer-size 40 " + mode, io, "cut")


# --- a datatype that cannot be built ----------------------------------------

def type_fault_env(fault):
    """The ranks' environment of tests/tools/typefaults.c: every call of
    the constructor fault fails on rank 1."""
    return ["env", "LD_PRELOAD=" + os.environ["TYPEFAULTS"], "H5PERF_TYPE_FAULT=" + fault,
            "H5PERF_TYPE_FAULT_RANK=1"]


def expect_type_failure(rc, err, path, what):
    """Exit 1 and one line, rank 1's: the datatype of path failed (the
    library's words after it; Open MPI's are checked)."""
    lines = [l for l in err.splitlines() if l.startswith("h5perf:") and
             not l.startswith("h5perf: warning:")]
    head = "h5perf: rank 1: MPI-IO datatype '%s': " % path
    expect_eq(rc, 1, "exit status of %s\n%s" % (what, err[-3000:]))
    expect(len(lines) == 1 and lines[0].startswith(head), "the lines of %s: %s" % (what, lines))
    if not launcher_is_hydra():
        expect_eq(lines[0], head + "MPI_ERR_TYPE: invalid datatype", "the line of " + what)


@case
def mpiio_view_type_faults():
    """A file view whose datatype cannot be built on one process (the
    LD_PRELOAD shim tests/tools/typefaults.c fails every
    MPI_Type_create_hvector, MPI_Type_create_hindexed (a step of several
    contiguous runs) or MPI_Type_contiguous on rank 1): that process
    still joins the collective MPI_File_set_view (with the default view),
    makes a collective transfer only when the others do (-C), and reports
    the datatype, not a short write; no hang, no crash, exit 1. A view per
    step (the conformance plans boxes and flat, whose single run's piece is
    a contiguous type), the guide's tiled view (-I -C) and a map's whole
    view (a subarray of elements), independent and collective."""
    conform = os.environ["CONFORM"]
    for fault, kind in (("hindexed", "boxes"), ("hvector", "flat"), ("contiguous", "flat")):
        for mode in ("ind", "coll"):
            with TempDir() as d:
                argv = mpiexec_command(2, type_fault_env(fault) + [conform, "mpiio", kind, mode,
                                                                   d])
                what = "conform mpiio %s %s, %s failing" % (kind, mode, fault)
                try:
                    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       universal_newlines=True, timeout=60,
                                       stdin=subprocess.DEVNULL, env=base_env())
                except subprocess.TimeoutExpired:
                    raise AssertionError("%s: timed out (processes in different calls)" % what)
                expect_type_failure(p.returncode, p.stderr,
                                    os.path.join(d, "conform-%s.mpio" % kind), what)
    with TempDir() as m:
        path, _ = views_map(m, [DECOMPS[0]], "box")
        runs = [("-B 2 -e 8 -p 2 -P 2 -x 4 -X 4 -I -C", 2, "contiguous"),
                ("-B 2 -e 8 -p 2 -P 2 -x 4 -X 4 -I -C", 2, "hvector"),
                ("--pattern map --map %s --layout shared" % path, NPROCS, "contiguous"),
                ("--pattern map --map %s --layout shared -C" % path, NPROCS, "contiguous")]
        for args, nprocs, fault in runs:
            with TempDir() as d:
                full = "%s -A mpiio --watchdog 10" % args
                r = run(nprocs, full, env={"HDF5_PARAPREFIX": d}, timeout=60,
                        wrap="export LD_PRELOAD=%s H5PERF_TYPE_FAULT=%s H5PERF_TYPE_FAULT_RANK=1"
                        % (os.environ["TYPEFAULTS"], fault))
                expect_type_failure(r.rc, r.err, os.path.join(d, "#pio_tmp_1.mpio"),
                                    "%s, %s failing" % (full, fault))
                expect_eq(listing(d), [], "files after " + full)


@case
def mpiio_error_before_view():
    """Independent I/O: rank 1's writes fail (EIO through the faults shim)
    in a decomposition without a view; the next one sets a view, which is
    collective. Rank 1 goes on to that view and its agreement instead of
    waiting alone in the close: exit 1 with rank 1's line alone (no
    watchdog), no data file left."""
    spec = [DECOMPS[1], DECOMPS[0]]
    with TempDir() as m, TempDir() as d:
        path, _ = views_map(m, spec, "eio")
        full = "--pattern map --map %s -A mpiio --layout shared --watchdog 10" % path
        r = run(NPROCS, full, env={"HDF5_PARAPREFIX": d}, timeout=60,
                wrap="export LD_PRELOAD=%s H5PERF_FAULT_SUFFIX=.mpio H5PERF_FAULT_EIO_RANK=1"
                % os.environ["FAULTS"])
        expect_eq(r.rc, 1, "exit status", r)
        head = "h5perf: rank 1: MPI-IO write '%s' at offset 120, length 80: " % os.path.join(
            d, "#pio_tmp_1.mpio")
        expect(len(r.h5perf_err) == 1 and r.h5perf_err[0].startswith(head),
               "one line, rank 1's write: %s" % r.h5perf_err, r)
        expect_eq(listing(d), [], "files")
