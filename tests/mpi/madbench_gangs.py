"""MPI cases of the madbench pattern's gangs (docs/madbench.md, "Gangs"):
MADbench2's NO_GANG through --gangs. The same byte ranges per process as
MADbench2's with gangs, in both traces (where MADbench2 is built); every
API, both layouts, blocking and asynchronous, verified (-D v) and every kept
file read back by readers that share no code with h5perf against the files
MADbench2's offsets and h5perf's content rule make; the report's header;
the refusals.
"""
import json
import os

import numpy as np

import cdf5
from common import SUFFIX, Skip, case
from harness import (TempDir, built_apis, expect, expect_eq, launcher_is_hydra, listing, run,
                     run_counted)
from madbench import Geom, busy_madds, h5values, madbench2_or_skip, peer_compare
from results import validate


def s_values(g, r, b):
    """S's share of bin b of process r (every process's distribution)."""
    j = np.arange(g.first[r], g.first[r] + g.shares[r], dtype=np.uint64)
    return np.uint64(b * g.pixels * g.pixels) + j


def w_values(g, r, b):
    """W's gang share of bin b of process r: the complement of the content
    rule's values in the gang's distributed order."""
    j = np.arange(g.gfirst[r], g.gfirst[r] + g.gshares[r], dtype=np.uint64)
    return ~(np.uint64(b * g.pixels * g.pixels) + j)


def gang_bins(g, r):
    """(gang slot, bin) that process r's gang writes in W and reads in C."""
    return [(k, k * g.gangs + g.gang_of[r]) for k in range(g.bins // g.gangs)]


def check_flat(path, g, rank=None):
    """A POSIX or MPI-IO file after a run: S's shares at MADbench2's slots,
    W's gang shares over them at its gang slots, nothing else written."""
    shared = rank is None
    data = np.fromfile(path, dtype="<u8")
    want = np.zeros(g.file_end(shared, rank or 0) // 8, dtype=np.uint64)
    for r in range(g.procs) if shared else [rank]:
        for b in range(g.bins):
            at = g.offset(shared, r, b) // 8
            want[at:at + g.shares[r]] = s_values(g, r, b)
        for k, b in gang_bins(g, r):
            at = g.gang_offset(shared, r, k) // 8
            want[at:at + g.gshares[r]] = w_values(g, r, b)
    expect_eq(data.size, want.size, "elements of %s" % path)
    bad = np.flatnonzero(data != want)
    expect(bad.size == 0, "%s: %d elements differ, the first at element %s" % (
        path, bad.size, bad[:1].tolist()))


def library_values(path, api, name):
    """(dims, elements): the elements the file holds (a netCDF file per
    process ends at the last bin's last element written: its larger share
    may be cut short)."""
    if api == "phdf5":
        return h5values(path, name)
    typ, dims, begin, code = cdf5.header(path)["vars"][name]
    expect_eq(typ, "uint64", "type of %s:%s" % (path, name))
    with open(path, "rb") as fh:
        fh.seek(begin)
        return dims, np.fromfile(fh, dtype=cdf5.TYPES[code][1], count=dims[0]).astype(np.uint64)


def check_library(path, api, g, rank=None):
    """An HDF5 or netCDF file: bin_<b> per matrix. Shared, the whole matrix
    in its gang's distributed order, every element W's; a file per process
    holds the larger of the process's shares: its gang's bins W's gang
    share, the others S's share."""
    for b in range(g.bins):
        dims, got = library_values(path, api, "bin_%d" % b)
        if rank is None:
            want = ~(np.uint64(b * g.pixels * g.pixels) +
                     np.arange(g.pixels * g.pixels, dtype=np.uint64))
            expect_eq(dims, [want.size], "dims of %s:bin_%d" % (path, b))
        else:
            expect_eq(dims, [max(g.shares[rank], g.gshares[rank])], "dims of %s:bin_%d" % (
                path, b))
            mine = b % g.gangs == g.gang_of[rank]
            want = w_values(g, rank, b) if mine else s_values(g, rank, b)
            expect(got.size >= want.size, "%s:bin_%d cut short" % (path, b))
            got = got[:want.size]
        expect(np.array_equal(got, want), "values of %s:bin_%d" % (path, b))


def gang_files(procs, gangs, pixels, bins, sblock, fblock, apis, mode):
    """A verified run (-D v), its files kept and read back here."""
    g = Geom(procs, pixels, bins, sblock, fblock, gangs)
    with TempDir() as d:
        args = ("--pattern madbench --pixels %d --bins %d --scalapack-block %d --file-block %d "
                "--gangs %d -A %s -D v %s" % (pixels, bins, sblock, fblock, gangs,
                                              ",".join(apis), mode))
        r = run(procs, args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}, timeout=170)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
        gp = procs // gangs
        side = round(gp ** 0.5)
        expect("Gangs in W = %d of %d process%s (a %dx%d grid each; gang shares of %d to %d "
               "bytes in slots of %d)" % (gangs, gp, "" if gp == 1 else "es", side, side,
                                          8 * min(g.gshares), 8 * max(g.gshares), g.gslot)
               in r.lines, "the gangs' line", r)
        for api in apis:
            lib = api in ("phdf5", "pnetcdf")
            path = os.path.join(d, "#pio_tmp_1" + SUFFIX[api])
            check_library(path, api, g) if lib else check_flat(path, g)
            for rank in range(procs):
                path = os.path.join(d, "#pio_tmp_1.%d%s" % (rank, SUFFIX[api]))
                check_library(path, api, g, rank) if lib else check_flat(path, g, rank)
        expect_eq(len(listing(d)), len(apis) * (procs + 1), "files", r)


@case
def madbench_gangs_files_4_processes():
    """4 gangs of 1 process (their grids 1x1: each process writes whole
    matrices in W), every API, independent with turns and collective; the
    asynchronous mode through MPI-IO and PnetCDF."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    for mode in ("", "-C"):
        gang_files(4, 4, 100, 8, 16, 4096, apis, mode)
    gang_files(4, 4, 100, 4, 16, 8, [a for a in apis if a in ("mpiio", "pnetcdf")],
               "--io-mode async")


@case
def madbench_gangs_files_16_processes():
    """4 gangs of 4 processes on 2x2 grids of their own (a 4x4 grid for S
    and W's reads), partial blocks, turns within the gangs. Not under
    MPICH: the plans are h5perf's own, the same under either MPI (the
    4-process case runs there), and 16 MPICH processes, which spin while
    they wait, took 126 s on this project's 2 cores (docs/ci.md)."""
    if launcher_is_hydra():
        raise Skip("16 MPICH processes on this machine's cores: the 4-process case covers MPICH")
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    gang_files(16, 4, 70, 8, 8, 1024, apis, "--read-mod 2 --write-mod 4")
    gang_files(16, 4, 70, 4, 8, 8, [a for a in apis if a in ("mpiio", "pnetcdf")],
               "--io-mode async")


@case
def madbench_gangs_against_madbench2():
    """MADbench2 with NO_GANG 4 and h5perf with --gangs 4 under strace: per
    process, the same byte ranges in the same order (S's writes, W's reads
    of every bin and gang writes at MADbench2's gang slots, C's gang reads),
    through POSIX and MPI-IO, shared and a file per process; 4 gangs of 1
    process and 4 gangs of 4; MPI-IO's asynchronous mode too."""
    mb = madbench2_or_skip()
    for method in ("POSIX", "MPI"):
        for layout in ("shared", "fpp"):
            with TempDir() as d:
                peer_compare(mb, 4, (100, 8, 16, 4096, 1, 1), method, layout, d, gangs=4)
    with TempDir() as d:
        peer_compare(mb, 16, (70, 4, 8, 4096, 2, 2), "MPI", "shared", d, gangs=4)
    # IOMODE=ASYNC through MPI-IO: MPI_File_iread and iwrite, completed
    # after the busy work that follows
    for layout in ("shared", "fpp"):
        with TempDir() as d:
            peer_compare(mb, 4, (100, 8, 16, 4096, 1, 1), "MPI", layout, d, gangs=4,
                         iomode="ASYNC")


@case
def madbench_gangs_barriers_are_the_gangs():
    """MADbench2 synchronizes a gang's I/O calls and W's pdgemm over the
    gang alone (io_distmatrix and busy_work over gang2), everything else
    over every process (docs/madbench.md, "Gangs"). Counted by the MPI shim
    (tests/tools/mpicalls.c): each process's barriers on a communicator
    smaller than the world's, 4 gangs of 1 process, NO_BIN 8. Through the
    flat APIs: W's 2 pdgemms and 2 gang writes, C's 2 gang reads, two
    barriers each: 12. Through HDF5 and PnetCDF, a call per bin (8 writes
    in W, 8 reads in C) and the 2 pdgemms: 36. With one gang: none. The
    shared file (a file per process is opened over MPI_COMM_SELF, where the
    libraries' own barriers would count)."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    for api in apis:
        for gangs, want in ((4, 36 if api in ("phdf5", "pnetcdf") else 12), (1, 0)):
            with TempDir() as d:
                args = ("--pattern madbench --pixels 100 --bins 8 --scalapack-block 16 "
                        "--file-block 4096 --gangs %d -A %s --layout shared -D v" % (gangs, api))
                r, got = run_counted(4, args, d, "MPICALLS", {"H5PERF_CALLS_ALL": "1"},
                                     timeout=120)
                parts = [int(dict(l.rsplit(" ", 1) for l in lines).get("MPI_Barrier/part", 0))
                         for lines in got]
                expect_eq(parts, [want] * 4,
                          "each process's barriers over its gang alone (%s)" % args, r)


@case
def madbench_gangs_report():
    """The header's NO_GANG, the results' gang, W's busy work of a gang's
    pdgemm (divided among a gang's processes)."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        r = run(4, "--pattern madbench --pixels 64 --bins 4 --gangs 4 --busy-exponent 1 -A mpiio "
                "--layout shared --results " + out, env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
        expect_eq(r.lines[1], "MADbench pattern: NO_PIX 64, NO_BIN 4, NO_GANG 4, SBLOCKSIZE 32, "
                  "FBLOCKSIZE 8, RMOD 1, WMOD 1, BWEXP 1", "header", r)
        g = Geom(4, 64, 4, 32, 8, 4)
        expect("Gangs in W = 4 of 1 process (a 1x1 grid each; gang shares of 32768 to 32768 "
               "bytes in slots of %d)" % g.gslot in r.lines, "the gangs' line", r)
        with open(out) as fh:
            doc = json.load(fh)
        validate(doc, r)
        expect_eq(doc["config"]["madbench"]["gang"], 4, "config's gang", r)
        for x in doc["runs"]:
            expect_eq(x["madbench"]["slot"], g.slot, "slot", r)
            expect_eq(x["madbench"]["busy_multiply_adds"],
                      {"S": busy_madds(64, 4, 32, 1, 0), "W": busy_madds(64, 1, 32, 1, 0),
                       "C": busy_madds(64, 4, 32, 1, 0)}, "busy work", r)


@case
def madbench_gangs_refusals_on_4_processes():
    """MADbench2's conditions on NO_GANG that need the process count: it
    divides them, RMOD and WMOD divide a gang's; one line, no file."""
    cases = [("--gangs 9 --bins 9", "h5perf: --gangs '9': does not divide the 4 processes "
              "(MADbench2 splits them into gangs of equal size); give a square that divides "
              "them"),
             ("--gangs 4 --read-mod 2", "h5perf: --read-mod '2': does not divide the 1 process "
              "of a gang (groups of that many take turns)")]
    for extra, line in cases:
        with TempDir() as d:
            r = run(4, "--pattern madbench --pixels 64 " + extra, env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.h5perf_err), (2, [line]), extra, r)
            expect_eq(listing(d), [], "files (%s)" % extra, r)
