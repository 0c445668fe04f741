"""MPI cases of the madbench pattern's --opens once (docs/madbench.md,
"Opens"): the file opened before S and closed after C, as MADbench2 does;
per process as many opens of its file as MADbench2 makes, under strace,
with the same byte ranges in the same order; through every API and
layout, independent and collective, blocking and asynchronous, with gangs,
the files those of --opens phase (byte for byte but HDF5's, whose object
headers hold times) and read back by numpy, h5read and cdf5.py against
the content rule; the header and the results say so.
"""
import filecmp
import json
import os

import madbench
import madbench_gangs
from common import SUFFIX, case
from harness import TempDir, built_apis, expect, expect_eq, listing, run
from results import validate

ARGS = "--pattern madbench --pixels 100 --bins 4 --scalapack-block 16 --file-block 4096 " \
       "-A %s -D v %s"


def check_files(d, g, apis):
    """The content rule in every file, with gangs W's in each gang's
    distribution (madbench_gangs.py)."""
    if g.gangs == 1:
        madbench.check_files(d, g, apis)
        return
    for api in apis:
        lib = api in ("phdf5", "pnetcdf")
        check = madbench_gangs.check_library if lib else madbench_gangs.check_flat
        check(os.path.join(d, "#pio_tmp_1" + SUFFIX[api]), *((api, g) if lib else (g,)))
        for rank in range(g.procs):
            path = os.path.join(d, "#pio_tmp_1.%d%s" % (rank, SUFFIX[api]))
            check(path, *((api, g, rank) if lib else (g, rank)))


def same_files(procs, apis, extra, g):
    """--opens once and --opens phase on the same arguments: exit 0 with
    -D v, the same files holding the content rule, those of POSIX, MPI-IO
    and PnetCDF byte for byte the same."""
    with TempDir() as once, TempDir() as phase:
        for d, how in ((once, "once"), (phase, "phase")):
            r = run(procs, ARGS % (",".join(apis), extra) + " --opens " + how,
                    env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}, timeout=170)
            expect_eq((r.rc, r.h5perf_err), (0, []), "--opens %s %s" % (how, extra), r)
        check_files(once, g, apis)
        names = listing(once)
        expect_eq(names, listing(phase), "the same files (%s)" % extra)
        # HDF5's object headers hold the datasets' times of creation:
        # its files are read back above, not compared.
        for n in (n for n in names if not n.endswith(".h5")):
            expect_eq(filecmp.cmp(os.path.join(once, n), os.path.join(phase, n), shallow=False),
                      True, "%s byte for byte --opens phase's (%s)" % (n, extra))


@case
def madbench_opens_once_files():
    """Every API, shared and fpp, independent (taking turns) and
    collective, and with 4 gangs of 1 process."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    for extra, gangs in (("--read-mod 2 --write-mod 4", 1), ("-C", 1), ("--gangs 4", 4)):
        same_files(4, apis, extra, madbench.Geom(4, 100, 4, 16, 4096, gangs))


@case
def madbench_opens_once_async():
    """The asynchronous mode through MPI-IO and PnetCDF."""
    apis = [a for a in ("mpiio", "pnetcdf") if a in built_apis()]
    same_files(4, apis, "--io-mode async", madbench.Geom(4, 100, 4, 16, 4096))


@case
def madbench_opens_once_report_and_json():
    """The header says ", opened once"; the results' config.madbench has
    "opens": "once" (absent with --opens phase, the default)."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        for how, tail, key in (("once", ", opened once", {"opens": "once"}), ("phase", "", {})):
            r = run(4, "--pattern madbench --pixels 64 --bins 2 -A posix --layout fpp --opens "
                    "%s --results %s --overwrite" % (how, out), env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
            expect_eq(r.lines[1], "MADbench pattern: NO_PIX 64, NO_BIN 2, NO_GANG 1, SBLOCKSIZE "
                      "32, FBLOCKSIZE 8, RMOD 1, WMOD 1, BWEXP 0" + tail, "header", r)
            with open(out) as fh:
                doc = json.load(fh)
            validate(doc, r)
            got = {k: v for k, v in doc["config"]["madbench"].items() if k == "opens"}
            expect_eq(got, key, "config.madbench's opens (--opens %s)" % how, r)
            expect(all(x["measures"] for x in doc["runs"]), "measures", r)


@case
def madbench_opens_once_against_madbench2():
    """MADbench2 and h5perf --opens once under strace: per process, its
    file opened as many times as MADbench2 opens it (which opens it once
    for S, W and C), and the same byte ranges in the same order, through
    POSIX and MPI-IO, shared and a file per process."""
    mb = madbench.madbench2_or_skip()
    for method in ("POSIX", "MPI"):
        for layout in ("shared", "fpp"):
            with TempDir() as d:
                madbench.peer_compare(mb, 4, (100, 3, 16, 4096, 2, 2), method, layout, d,
                                      once=True)
