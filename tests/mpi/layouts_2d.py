"""MPI cases, 2D layouts (-g): the guide's Figures 5, 7, 10 and 11, the
chunking emulation of POSIX and MPI-IO, several datasets, and 5 processes.
Every byte of every data file is checked by an independent reader.
"""
from common import case, data_file
from harness import TempDir, expect_eq, h5read, hdf5_version, run


def logical_2d(e, b, nprocs, interleaved):
    """The S x S dataset of the guide's figures, row-major: contiguous rows
    [r*e, (r+1)*e) belong to r; interleaved column blocks of B go round-robin."""
    side = e * nprocs
    return bytes((c // b) % nprocs + 1 if interleaved else r // e + 1
                 for r in range(side) for c in range(side))


def chunked_2d(logical, side, b):
    """The chunking emulation of docs/original.md §5.2: B x B chunks stored contiguously
    (row-major inside), in row-major chunk order."""
    out = bytearray()
    for cr in range(side // b):
        for cc in range(side // b):
            for r in range(b):
                start = (cr * b + r) * side + cc * b
                out += logical[start:start + b]
    return bytes(out)


def figure_2d(np, args, e, b, interleaved=False, chunk=False, ndsets=1, apis=None):
    """Runs a 2D command with -D v, files kept, and checks every byte of every
    data file: POSIX and MPI-IO raw (chunk-emulated with -c), HDF5 through the
    HDF5 API with its dims and chunk layout. Returns the data directory's files
    (read before the temporary directory goes) for further checks."""
    side = e * np
    logical = logical_2d(e, b, np, interleaved)
    physical = chunked_2d(logical, side, b) if chunk else logical
    apis = apis or ("posix", "mpiio", "phdf5")
    with TempDir() as d:
        r = run(np, args + " -D v -A " + ",".join(apis),
                env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(r.h5perf_err, [], "h5perf stderr lines", r)
        raw = {}
        for api in apis:
            path = data_file(d, 1, api)
            with open(path, "rb") as fh:
                raw[api] = fh.read()
            if api != "phdf5":
                expect_eq(raw[api], physical * ndsets, "bytes of " + path, r)
                continue
            for k in range(1, ndsets + 1):
                layout, dims, data = h5read(path, "Dataset_%d" % k)
                expect_eq(dims, [side, side], "dims of Dataset_%d" % k)
                expect_eq(data, logical, "data of Dataset_%d" % k)
                expect_eq(layout, ["chunked", str(b), str(b)] if chunk else ["contiguous"],
                          "layout of Dataset_%d" % k)
        return raw


@case
def fig5_2d_contiguous():
    figure_2d(3, "-B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g", 4, 2)
    figure_2d(3, "-B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g -C", 4, 2)


@case
def fig7_2d_interleaved():
    figure_2d(3, "-B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g -I", 4, 2, interleaved=True)
    figure_2d(3, "-B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g -I -C", 4, 2, interleaved=True)


@case
def fig10_2d_blocks():
    figure_2d(2, "-B 4 -e 4 -p 2 -P 2 -x 4 -X 4 -g", 4, 4)
    figure_2d(2, "-B 4 -e 4 -p 2 -P 2 -x 4 -X 4 -g -C", 4, 4)


@case
def fig11_2d_chunked():
    """-c: HDF5 chunks of B x B; POSIX and MPI-IO emulate them, byte for byte
    the raw-data area of the .h5 file (chunks from offset 3688, docs/original.md §8;
    from 3095 with HDF5 2.0, whose default file format is 1.8's)."""
    at = 3688 if hdf5_version() < (2,) else 3095
    for coll in ("", " -C"):
        raw = figure_2d(2, "-B 4 -e 4 -p 2 -P 2 -x 4 -X 4 -g -c" + coll, 4, 4, chunk=True)
        expect_eq(raw["phdf5"][at:at + 64], raw["posix"], "HDF5 chunk area" + coll)


@case
def interleaved_chunked_2d_datasets():
    for coll in ("", " -C"):
        figure_2d(3, "-B 2 -e 4 -p 3 -P 3 -x 6 -X 12 -g -I -c -d 2" + coll, 4, 2,
                  interleaved=True, chunk=True, ndsets=2)
        figure_2d(3, "-B 2 -e 4 -p 3 -P 3 -x 2 -X 4 -g -c -d 3" + coll, 4, 2, chunk=True,
                  ndsets=3)


@case
def five_processes_2d():
    for extra in ("", " -C", " -I", " -I -C", " -I -c -C"):
        figure_2d(5, "-B 2 -e 4 -p 5 -P 5 -x 10 -X 20 -g" + extra, 4, 2,
                  interleaved="-I" in extra, chunk="-c" in extra)
