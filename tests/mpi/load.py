"""MPI cases load_*: many processes on few cores, every API, with -D v."""
from common import case
from harness import TempDir, expect_eq, listing, run


def load(np, extra):
    """One run of every API (one start-up of np processes, which costs more
    than the I/O here): 2 transfer sizes x 3 APIs x 4 result blocks of 3
    throughput lines, all verified."""
    with TempDir() as d:
        r = run(np, "-e 4K -B 1K -x 2K -X 4K -p %d -D v %s" % (np, extra),
                env={"HDF5_PARAPREFIX": d}, timeout=600)
        expect_eq(r.rc, 0, "exit status (%d processes %s)" % (np, extra), r)
        for api in ("POSIX", "MPIO", "PHDF5 (w/MPI-IO driver)"):
            expect_eq(r.lines.count("        IO API = " + api), 2, "runs of %s" % api, r)
        expect_eq(len([l for l in r.lines if "Throughput:" in l]), 2 * 3 * 4 * 3,
                  "throughput lines", r)
        expect_eq(listing(d), [], "files left")


@case
def load_16_processes():
    load(16, "")
    load(16, "-C -I")


@case
def load_64_processes():
    load(64, "")
    load(64, "-C -I")
