"""MPI cases, 1D layouts: the guide's Figures 2 and 3 (contiguous and
interleaved, independent and collective), HDF5 chunks of one block, several
datasets and files, where HDF5 puts raw data, and a run on one process. Every
byte of every data file is checked by an independent reader.
"""
import os
import subprocess

from common import FIG2, FIG3, FIG3_HALF, case, data_file
from harness import TempDir, expect, expect_eq, h5read, hdf5_version, run


def check_files(d, dset, apis=("posix", "mpiio", "phdf5"), ndsets=1, nfiles=1, chunk=None):
    """Every data file holds dset in each of its datasets (docs/original.md §8)."""
    for f in range(1, nfiles + 1):
        for api in apis:
            path = data_file(d, f, api)
            if api != "phdf5":
                with open(path, "rb") as fh:
                    expect_eq(fh.read(), dset * ndsets, "bytes of " + path)
                continue
            for k in range(1, ndsets + 1):
                layout, dims, data = h5read(path, "Dataset_%d" % k)
                expect_eq(dims, [len(dset)], "dims of %s Dataset_%d" % (path, k))
                expect_eq(data, dset, "data of %s Dataset_%d" % (path, k))
                want = ["chunked", str(chunk)] if chunk else ["contiguous"]
                expect_eq(layout, want, "layout of %s Dataset_%d" % (path, k))


def figure(np, args, dset, **kw):
    with TempDir() as d:
        r = run(np, args + " -D v", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(r.h5perf_err, [], "h5perf stderr lines", r)
        check_files(d, dset, **kw)


@case
def fig2_independent():
    figure(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4", FIG2)


@case
def fig2_collective():
    figure(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -C", FIG2)


@case
def fig3_independent():
    figure(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -I", FIG3)


@case
def fig3_collective():
    figure(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -I -C", FIG3)


@case
def fig3_guide_command():
    """The guide's own Figure 3 command (-e 4) gives half the drawn figure."""
    figure(3, "-B 2 -e 4 -p 3 -P 3 -x 4 -X 4 -I", FIG3_HALF)


@case
def chunked_1d():
    """-c: HDF5 chunks of one block; POSIX and MPI-IO unchanged in 1D."""
    figure(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -c", FIG2, chunk=2)
    figure(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -c -I -C", FIG3, chunk=2)


@case
def datasets_and_files():
    two = bytes([1, 1, 2, 2] * 4)
    figure(2, "-B 2 -e 8 -p 2 -P 2 -x 4 -X 8 -d 3 -F 2 -I", two, ndsets=3, nfiles=2)
    figure(2, "-B 2 -e 8 -p 2 -P 2 -x 4 -X 8 -d 3 -F 2 -I -C", two, ndsets=3, nfiles=2)


def raw_at(path, offsets, length):
    with open(path, "rb") as fh:
        data = fh.read()
    return [data[o:o + length] for o in offsets]


# Where HDF5 puts the raw data of three 24-byte datasets, by version and
# -a/-T. HDF5 2.0 writes the 1.8 file format by default (superblock 2, newer
# object headers: H5Pset_libver_bounds' low bound), 1.10 and 1.14 the
# earliest (superblock 0), so with alignment its metadata, and the data after
# it, sit elsewhere. Measured with 1.10.8, 1.14.5 and 2.0.0.
RAW_OFFSETS = {
    1: (0, {"": [2048, 2072, 2096], "-a 4K": [20480, 32768, 40960],
            "-a 1K -T 32": [4368, 4392, 4416]}),
    2: (2, {"": [2048, 2072, 2096], "-a 4K": [12288, 20480, 28672],
            "-a 1K -T 32": [2332, 2356, 2380]}),
}


@case
def hdf5_raw_data_offsets():
    """The .h5 files put raw data where the original's do (docs/original.md §5.3): default
    layout, -a 4K, and -a 1K -T 32; -a/-T reach H5Pset_alignment. With HDF5 2.0, where
    the same calls put it in 2.0's default file format."""
    superblock, offsets = RAW_OFFSETS[hdf5_version()[0]]
    for args in ("", "-a 4K", "-a 1K -T 32"):
        with TempDir() as d:
            r = run(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -d 3 -A phdf5 -D v " + args,
                    env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
            expect_eq(r.rc, 0, "exit status", r)
            path = data_file(d, 1, "phdf5")
            expect_eq(raw_at(path, [8], 1), [bytes([superblock])], "superblock version", r)
            expect_eq(raw_at(path, offsets[args], 24), [FIG2] * 3,
                      "raw data of the three datasets with '%s'" % args, r)


# The cases tests/unit/test_extent.c holds the sizes of, measured with HDF5
# 1.10.8, 1.14.5 and 2.0.0.
ALIGNED = ("-a 1M -T 1 -d 1 -e 8K", "-a 1M -T 1 -d 3 -e 8K", "-a 1M -T 1 -d 5 -e 8K",
           "-a 1M -T 64 -d 3 -e 8K", "-a 1M -T 1024 -d 3 -e 8K", "-a 1M -T 4096 -d 3 -e 8K",
           "-a 1M -T 1 -d 1 -e 8K -c -B 2K", "-a 1M -T 1 -d 2 -e 8K -c -B 2K",
           "-a 1M -T 1 -d 1 -e 8K -g -c -B 2K", "-a 1M -T 1 -d 1 -e 4M")


@case
def hdf5_aligned_file_within_bounds():
    """With -a and -T, the .h5 file the HDF5 of this build writes ends between
    the bounds h5perf checks before a run (api/hdf5_model.c; docs/differences.md,
    "HDF5 alignment"), whichever HDF5 it is: the upper bound is what keeps a
    file the file system cannot hold from being started."""
    for args in ALIGNED:
        p = subprocess.run([os.environ["EXTENT_BOUNDS"]] + args.split(), stdout=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
        expect_eq(p.returncode, 0, "extent_bounds " + args)
        lower, upper = (int(x) for x in p.stdout.split())
        with TempDir() as d:
            r = run(1, "-A phdf5 -w " + args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
            expect_eq(r.rc, 0, "exit status", r)
            size = os.path.getsize(data_file(d, 1, "phdf5"))
            expect(lower <= size <= upper, "HDF5 %s, '%s': a file of %d bytes, bounds %d to %d"
                   % (".".join(map(str, hdf5_version())), args, size, lower, upper), r)


@case
def one_process():
    figure(1, "-B 2 -e 8 -x 2 -X 8", bytes([1] * 8))
