"""MPI cases load_*: many processes on few cores, every API, with -D v."""
from common import case
from harness import TempDir, expect_eq, listing, run


def load(np, extra):
    with TempDir() as d:
        for api in ("posix", "mpiio", "phdf5"):
            r = run(np, "-e 4K -B 1K -x 2K -X 4K -p %d -D v -A %s %s" % (np, api, extra),
                    env={"HDF5_PARAPREFIX": d}, timeout=280)
            expect_eq(r.rc, 0, "exit status (%d processes, %s %s)" % (np, api, extra), r)
            expect_eq(len([l for l in r.lines if "Throughput:" in l]), 2 * 4 * 3,
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
