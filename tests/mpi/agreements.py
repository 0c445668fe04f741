"""What h5perf does around the timed calls, counted by the MPI shim.

The agreements inside a timed phase (docs/design.md, "Moving every
variable in one call"): a variant that moves every variable of a step in
one call (PnetCDF's nonblocking posts and one wait, MPI-IO's joined call)
makes no agreement per variable where a variable's begin is local, so
that its open-to-close time holds the application's calls and not one
collective of h5perf's per variable. Counted by the MPI shim
(tests/tools/mpicalls.c, H5PERF_CALLS_ALL): each process's
MPI_Allreduce and MPI_Barrier calls, its libraries' included, are the
same for 2 variables as for 12; the kept file holds every element.

The MPI-IO library's start (docs/measuring.md): each process opens
/dev/null through MPI-IO once, before its first run point of an API that
goes through MPI-IO, and never for POSIX alone.
"""
import os

import block
from common import Skip, case
from harness import TempDir, built_apis, expect, expect_eq, run_counted

KEEP = "HDF5_NOCLEANUP"
SUFFIX = {"pnetcdf": ".nc", "mpiio": ".mpio"}


def agreements(api, flag, nvars, mode):
    """Each process's counted MPI_Allreduce and MPI_Barrier calls of a
    block run of nvars variables of 2 steps each on 2 processes, -D v."""
    with TempDir() as d:
        args = ("--pattern block --global 16x8 --grid 2x1 --layout shared --vars %d -A %s %s "
                "--transfer-size 256 -p 2 -D v %s" % (nvars, api, flag, mode))
        r, got = run_counted(2, args, d, "MPICALLS", {KEEP: "1", "H5PERF_CALLS_ALL": "1"},
                             timeout=120)
        if api == "mpiio":
            block.check_raw(os.path.join(d, "#pio_tmp_1.mpio"),
                            block.expected((16, 8), 8, nvars))
        counts = []
        for lines in got:
            mine = dict(l.rsplit(" ", 1) for l in lines)
            counts.append((int(mine.get("MPI_Allreduce", 0)), int(mine.get("MPI_Barrier", 0))))
        expect_eq(len(counts), 2, "processes that logged calls (%s)" % args, r)
        return counts


@case
def joined_agreements_per_file_not_per_variable():
    """PnetCDF's nonblocking variant alone and MPI-IO's joined variant
    alone, independent and collective: the same agreements and barriers
    for 2 variables as for 12 (before, one agreement per variable begun)."""
    variants = [("mpiio", "--mpiio.joined=only")]
    if "pnetcdf" in built_apis():
        variants.append(("pnetcdf", "--pnetcdf.nonblocking=only"))
    for api, flag in variants:
        for mode in ("", "-C"):
            few = agreements(api, flag, 2, mode)
            many = agreements(api, flag, 12, mode)
            expect(all(a > 0 for a, _ in few), "the shim counted agreements (%s %s)" % (
                api, mode))
            expect_eq(many, few, "MPI_Allreduce and MPI_Barrier calls per process, 12 "
                      "variables against 2 (%s %s %s)" % (api, flag, mode))


@case
def mpiio_started_once_per_process():
    """The guide's sweep of 2 and 1 processes through POSIX and MPI-IO
    (two transfer sizes, so two run points per process count): each process
    opens /dev/null through MPI-IO once (process 0 takes part in both run
    points, and starts once); POSIX alone: no such open."""
    for apis, want in (("posix,mpiio", 1), ("posix", 0)):
        with TempDir() as d:
            args = "-e 4K -B 1K -x 1K -X 2K -A %s -p 1 -P 2 -D v" % apis
            r, got = run_counted(2, args, d, "MPICALLS", {"H5PERF_CALLS_ALL": "1"}, timeout=120)
            opens = [dict(l.rsplit(" ", 1) for l in lines).get("MPI_File_open/dev/null", "0")
                     for lines in got]
            expect_eq(opens, [str(want)] * 2, "opens of /dev/null per process (-A %s)" % apis, r)
