"""MPI cases of the block pattern (docs/block.md): every layout through POSIX,
MPI-IO and HDF5, independent and collective, with 1, 2, 3, 4, 6 and 8
processes, each file checked element by element by readers that share no
code with h5perf (numpy for the raw files, h5read for HDF5) against the
content rule: element i (C order) of variable v holds (i + v*N) mod
2^(8*size), little-endian. Also reading back with another grid, a kept file
read by another process count, the report and the JSON.
"""
import json
import os
import re
import subprocess

import numpy as np

from common import SUFFIX, case
from harness import TempDir, expect, expect_eq, listing, run

GLOBAL = (12, 12, 8)
GRIDS = {1: (1, 1, 1), 2: (2, 1, 1), 3: (3, 1, 1), 4: (2, 2, 1), 6: (3, 2, 1), 8: (2, 2, 2)}
DTYPES = {1: "<u1", 2: "<u2", 4: "<u4", 8: "<u8"}


def dims_text(d):
    return "x".join(str(x) for x in d)


def expected(shape, elem, nvars):
    """The whole content: variables x array, as the rule says."""
    n = int(np.prod(shape))
    values = np.arange(nvars * n, dtype=np.uint64)
    if elem < 8:
        values %= np.uint64(1 << (8 * elem))
    return values.astype(DTYPES[elem]).reshape((nvars,) + tuple(shape))


def blocks(shape, grid):
    """The slices of each rank's block, ranks in C order of grid coords."""
    out = []
    for r in range(int(np.prod(grid))):
        coords, rest = [], r
        for g in reversed(grid):
            coords.append(rest % g)
            rest //= g
        coords.reverse()
        out.append(tuple(slice(c * (s // g), (c + 1) * (s // g))
                         for c, s, g in zip(coords, shape, grid)))
    return out


def h5values(path, name):
    p = subprocess.run([os.environ["H5READ"], path, name, "values"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, universal_newlines=True)
    expect_eq(p.returncode, 0, "h5read %s %s: %s" % (path, name, p.stderr))
    lines = dict(line.split(" ", 1) for line in p.stdout.splitlines())
    return (lines["layout"].split(), [int(x) for x in lines["dims"].split()],
            lines["type"].split(), np.array([int(x) for x in lines["values"].split()],
                                            dtype=np.uint64), lines["fill"])


def check_raw(path, want):
    got = np.fromfile(path, dtype=want.dtype)
    expect_eq(got.size, want.size, "elements in %s" % path)
    bad = np.flatnonzero(got != want.reshape(-1))
    expect(bad.size == 0, "%s: %d elements differ, the first at %s" % (
        path, bad.size, bad[:1].tolist()))


def check_h5(path, name, want, layout, elem):
    lay, dims, typ, values, fill = h5values(path, name)
    expect_eq(lay, layout, "HDF5 layout of %s:%s" % (path, name))
    # Every element is written by the run: HDF5 must not write the chunks
    # twice (zeros at creation), docs/block.md.
    expect_eq(fill, "never", "HDF5 fill time of %s:%s" % (path, name))
    expect_eq(dims, list(want.shape), "HDF5 dims of %s:%s" % (path, name))
    expect_eq(typ, ["integer", str(elem), "unsigned", "le"], "HDF5 type of %s" % path)
    expect(np.array_equal(values, want.reshape(-1).astype(np.uint64)),
           "HDF5 values of %s:%s" % (path, name))


def check_files(d, layout, nprocs, grid, elem, nvars, shape=GLOBAL):
    """Every file of one layout, every API, against the rule."""
    whole = expected(shape, elem, nvars)
    parts = blocks(shape, grid)
    chunk = [s // g for s, g in zip(shape, grid)]
    for api in ("posix", "mpiio", "phdf5"):
        if layout == "fpp":
            for r in range(nprocs):
                path = os.path.join(d, "#pio_tmp_1.%d%s" % (r, SUFFIX[api]))
                own = np.stack([whole[v][parts[r]] for v in range(nvars)])
                if api == "phdf5":
                    for v in range(nvars):
                        check_h5(path, "v%d" % v, own[v], ["contiguous"], elem)
                else:
                    check_raw(path, own)
            continue
        path = os.path.join(d, "#pio_tmp_1" + SUFFIX[api])
        if api == "phdf5":
            kind = ["chunked"] + [str(c) for c in chunk] if layout == "chunked" else ["contiguous"]
            for v in range(nvars):
                check_h5(path, "v%d" % v, whole[v], kind, elem)
        elif layout == "shared":
            check_raw(path, whole)
        else:
            tiles = np.concatenate([np.concatenate([whole[v][p].reshape(-1) for p in parts])
                                    for v in range(nvars)])
            check_raw(path, tiles)


def block_files(nprocs, shape=GLOBAL, grid=None, extra=""):
    grid = grid or GRIDS[nprocs]
    for mode in ("", "-C"):
        for layout, elem, nvars in (("shared", 8, 2), ("chunked", 4, 1), ("fpp", 2, 2)):
            with TempDir() as d:
                args = ("--pattern block --global %s --grid %s --layout %s --element-size %d "
                        "--vars %d -D v %s %s" % (dims_text(shape), dims_text(grid), layout, elem,
                                                  nvars, mode, extra))
                r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"},
                        timeout=240)
                expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args,
                          r)
                check_files(d, layout, nprocs, grid, elem, nvars, shape)
                count = 3 * (nprocs if layout == "fpp" else 1)
                expect_eq(len(listing(d)), count, "files of %s" % layout, r)


@case
def block_files_1d_and_2d():
    """The same checks on a 1D array over 4 processes and a 2D array over a
    2x2 grid (and 1x4: blocks of whole columns' pieces, runs of 2 elements)."""
    block_files(4, (96,), (4,))
    block_files(4, (12, 8), (2, 2))
    block_files(4, (12, 8), (1, 4))


@case
def block_files_in_calls_of_a_transfer_size():
    """--transfer-size splits each process's block into calls in its C
    order (a partial row, whole rows, whole planes, and the rest): the files
    are the same, element for element, independent and collective, on a 3D
    array of 2 processes and a 2D one of 4 whose blocks are pieces of rows;
    read back and verified with -D v."""
    block_files(2, extra="--transfer-size 40")
    block_files(4, (12, 8), (1, 4), extra="--transfer-size 12")
    block_files(3, extra="--transfer-size 1000")


@case
def block_files_1_process():
    block_files(1)


@case
def block_files_2_processes():
    block_files(2)


@case
def block_files_3_processes():
    block_files(3)


@case
def block_files_4_processes():
    block_files(4)


@case
def block_files_6_processes():
    block_files(6)


@case
def block_files_8_processes():
    block_files(8)


@case
def block_refused_at_4_processes():
    """Refusals that need more processes than the bad-input table's 2: a
    block of a shared array whose dimension MPI-IO's subarray cannot hold
    (the block itself is below MPI-IO's 2 GiB per call); the chunked
    layout, whose blocks are one run each, needs no view and passes that
    check. One line, exit status 2, no file."""
    with TempDir() as d:
        args = ("--pattern block --global 2x2147483648 --element-size 1 --grid 1x4 "
                "-A posix,mpiio --layout chunked,shared")
        r = run(4, args, env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: --global '2x2147483648' with 4 processes, layout shared: MPI-IO: "
            "dimension 2 of 2147483648 elements is above the 2147483647 elements of an MPI "
            "subarray; use --layout chunked or fpp, or leave mpiio out of -A"]), "refusal", r)
        expect_eq(listing(d), [], "no file created", r)


@case
def block_fpp_failure_removes_every_process_file():
    """A write that fails on one process of a file-per-process run: one
    line, exit 1, and every process's file removed, not only process 0's
    (each process owns its file)."""
    for api, suffix in (("posix", ".posix"), ("mpiio", ".mpio")):
        with TempDir() as d:
            env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
                   "H5PERF_FAULT_SUFFIX": suffix, "H5PERF_FAULT_EIO_RANK": "2"}
            r = run(3, "--pattern block --global 6x4 --layout fpp -A %s" % api, env=env)
            expect_eq(r.rc, 1, "exit status (%s)" % api, r)
            expect_eq(len(r.h5perf_err), 1, "one failure line (%s)" % api, r)
            expect(r.h5perf_err[0].startswith("h5perf: rank 2: ") and
                   "#pio_tmp_1.2" + suffix in r.h5perf_err[0], "the failing process's line", r)
            expect_eq(listing(d), [], "files left (%s)" % api, r)


@case
def block_read_with_another_grid():
    """The shared file written by a 4x1x1 grid read back, verified, by 1x2x2
    (the same processes, another decomposition); a kept file read by 3
    processes (--read-only with another grid and count); a corrupted element
    is found."""
    with TempDir() as d:
        base = "--pattern block --global %s --layout shared -D v" % dims_text(GLOBAL)
        r = run(4, base + " --grid 4x1x1 --read-grid 1x2x2", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "read with another grid", r)
        expect_eq(listing(d), [], "files left", r)
        r = run(4, base + " --grid 2x2x1 -w", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "write-only run", r)
        r = run(3, base + " --grid 3x1x1 --read-only", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "read-only run with 3 processes", r)
        expect_eq(len(listing(d)), 3, "kept files", r)
        # A kept file of another array or element type is refused before
        # anything is read: its elements would be misplaced or converted.
        # Without --grid the sweep runs 1 and 2 processes, and the line
        # names the run point whose check failed first.
        ro = "--pattern block --layout shared --read-only"
        for args, api, why in (
                ("--global 12x12x4", "posix", "holds 9216 bytes, not the 4608 of the array "
                 "this run reads"),
                ("--global 12x12x4", "phdf5", "has a dataset 'v0' that is not the 12x12x4 "
                 "array this run reads"),
                ("--global 12x12x8 --element-size 4", "phdf5", "has a dataset 'v0' whose "
                 "elements are not the 4-byte unsigned little-endian integers this run reads")):
            r = run(2, "%s %s -A %s" % (ro, args, api), env={"HDF5_PARAPREFIX": d})
            path = os.path.join(d, "#pio_tmp_1" + SUFFIX[api])
            expect_eq((r.rc, r.h5perf_err), (2, ["h5perf: --read-only: data file '%s' %s with 2 "
                                                 "processes (written with other options?)" % (
                                                     path, why)]),
                      "kept file refused: " + args, r)
        expect_eq(len(listing(d)), 3, "kept files untouched", r)
        # Element 1000 (8 bytes each) of the POSIX file flipped: rank 2 of
        # the 3x1x1 grid reads rows 8-11, elements 768..1151.
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_CORRUPT_SUFFIX": ".posix", "H5PERF_CORRUPT_OFFSET": str(1000 * 8)}
        r = run(3, base + " --grid 3x1x1 --read-only -A posix", env=env)
        expect_eq(r.rc, 1, "exit status with a corrupted element", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 2: verify '%s' (POSIX, 3 processes, layout shared, iteration 1): 1 "
            "bytes differ, the first at offset 8000: expected 232, found 23"
            % os.path.join(d, "#pio_tmp_1.posix")], "mismatch line", r)


@case
def block_report_and_json():
    """The text report's table (rows API x layout, then the two ratio
    tables) and the JSON (schema version 2, each run's layout and grid)."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        r = run(4, "--pattern block --global 16x16 -p 2 -i 3 --results %s" % out,
                env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
        expect(r.lines[1] == "Block pattern: array 16x16 of 8-byte elements, 1 variable, "
               "0.00 MB per phase", "header", r)
        for p, grid in ((4, "2x2"), (2, "2x1")):
            i = r.lines.index("Number of processors = %d (grid %s); MB/s including open and "
                              "close" % (p, grid))
            rows = r.lines[i + 3:i + 12]
            names = [tuple(l.split()[:2]) for l in rows]
            expect_eq(names, [(a, l) for a in ("POSIX", "MPI-IO", "HDF5")
                              for l in ("shared", "chunked", "fpp")], "table rows", r)
            expect(all(re.match(r"^ {4}\S+ +\S+( +[0-9]+\.[0-9]{2}){8}$", l) for l in rows),
                   "eight figures per row", r)
            expect_eq(r.lines[i + 12], "Library overhead: throughput over MPI-IO's on the same "
                      "layout (medians)", "overhead title", r)
        with open(out) as fh:
            doc = json.load(fh)
        expect_eq(doc["schema_version"], 3, "schema version", r)
        expect_eq(doc["config"]["pattern"], "block", "pattern", r)
        expect_eq(doc["config"]["block"]["global"], [16, 16], "global", r)
        keys = [(x["processes"], x["layout"], x["api"], x["grid"], x["transfer_size"])
                for x in doc["runs"]]
        expect_eq(keys, [(p, l, a, g, b) for p, g, b in ((4, [2, 2], 512), (2, [2, 1], 1024))
                         for l in ("shared", "chunked", "fpp")
                         for a in ("posix", "mpiio", "phdf5")], "runs", r)
