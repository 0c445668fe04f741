"""Backend conformance (docs/design.md, "Adding an API"): every backend of
the build carries out the same small plans of tests/tools/conform.c (one
box, several slabs and runs in one call, C-order ranges of a box in three
calls, an empty selection, flat extents) on 1 and 2 processes, independent
and collective, each written, read back and verified by h5perf's own engine
phase, then the kept file checked by an independent reader: every byte of
a flat file, HDF5 with the h5read tool, PnetCDF with cdf5.py. One ctest
test per API: `ctest -L api_mpiio` runs it with the API's other tests.
"""
import os
import subprocess

import numpy as np

import cdf5
from block import h5values
from common import Skip, case
from harness import TempDir, expect, expect_eq, mpiexec_command

CASES = ("box", "boxes", "ranges", "empty", "flat")
SUFFIX = {"posix": ".posix", "mpiio": ".mpio", "phdf5": ".h5", "pnetcdf": ".nc"}
ROWS, COLS = 4, 6


def expected():
    """Element i of variable v: i + 24 v."""
    return [np.arange(ROWS * COLS, dtype=np.uint64) + v * ROWS * COLS for v in (0, 1)]


def check_file(api, path):
    want = expected()
    if api in ("posix", "mpiio"):
        got = np.fromfile(path, dtype="<u4").astype(np.uint64)
        expect(np.array_equal(got, np.concatenate(want)), "the bytes of %s: %s" % (path, got))
        return
    for v in (0, 1):
        name = "c%d" % v
        if api == "phdf5":
            _, dims, typ, values, _ = h5values(path, name)
            expect_eq((dims, typ), ([ROWS, COLS], ["integer", "4", "unsigned", "le"]),
                      "shape and type of %s:%s" % (path, name))
        else:
            typ, shape, a = cdf5.values(path, name)
            expect_eq((typ, shape), ("uint", [ROWS, COLS]), "type and shape of %s:%s"
                      % (path, name))
            values = a.reshape(-1).astype(np.uint64)
        expect(np.array_equal(values, want[v]), "values of %s:%s: %s" % (path, name, values))


def conform(api):
    runs = 0
    for nprocs in (1, 2):
        for mode in ("ind", "coll"):
            for kind in CASES:
                with TempDir() as d:
                    argv = mpiexec_command(nprocs, [os.environ["CONFORM"], api, kind, mode, d])
                    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       universal_newlines=True, timeout=120,
                                       stdin=subprocess.DEVNULL)
                    what = "%s %s %s on %d process%s" % (api, kind, mode, nprocs,
                                                         "" if nprocs == 1 else "es")
                    if p.returncode == 77 and "not in this build" in p.stdout:
                        raise Skip("%s is not in this build" % api)
                    if p.returncode == 77:
                        continue
                    expect_eq(p.returncode, 0, "%s: exit status\n%s" % (what, p.stderr[-2000:]))
                    check_file(api, os.path.join(d, "conform-%s%s" % (kind, SUFFIX[api])))
                    runs += 1
    expect(runs >= 16, "plans carried out: %d" % runs)


@case
def conform_posix():
    conform("posix")


@case
def conform_mpiio():
    conform("mpiio")


@case
def conform_phdf5():
    conform("phdf5")


@case
def conform_pnetcdf():
    conform("pnetcdf")
