"""MPI cases of HDF5's metadata options and the block pattern's chunk shape
(docs/hdf5.md, "Metadata"; docs/block.md, "Chunk shape"): the file each
one makes, checked without h5perf's code. The chunks by h5read (the
dataset's layout and chunk dimensions as HDF5 reads them back) and the
block pattern's content rule (block.py); the metadata settings by the
h5calls shim, which reads every file access property list given to
H5Fcreate and H5Fopen back through HDF5's own getters. Also the report
headers and the results' configuration.
"""
import glob
import json
import os

from block import check_h5, dims_text, expected
from common import case
from harness import TempDir, expect, expect_eq, listing, run
from results import validate


def chunked_file(nprocs, shape, grid, chunk, mode):
    """A run of the chunked layout with --chunk-shape chunk; its HDF5 file
    checked element by element, its chunks as given."""
    with TempDir() as d:
        args = ("--pattern block --global %s --grid %s --layout chunked -A phdf5 "
                "--element-size 4 --vars 2 --chunk-shape %s -D v %s"
                % (dims_text(shape), dims_text(grid), dims_text(chunk), mode))
        r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
        expect("HDF5 chunks of the chunked layout: %s" % dims_text(chunk) in r.lines,
               "the header's chunk line", r)
        whole = expected(shape, 4, 2)
        for v in range(2):
            check_h5(os.path.join(d, "#pio_tmp_1.h5"), "v%d" % v, whole[v],
                     ["chunked"] + [str(c) for c in chunk], 4)


@case
def hdf5_chunk_shape_files():
    """Chunks that do not follow the blocks (a chunk across two processes'
    blocks, edge chunks past the array's end), 1 to 3 dimensions,
    independent and collective."""
    for mode in ("", "-C"):
        chunked_file(2, (12, 10, 8), (2, 1, 1), (5, 4, 8), mode)
        chunked_file(3, (9, 6), (3, 1), (9, 1), mode)
        chunked_file(2, (100,), (2,), (7,), mode)


def fapl_lines(d, nprocs, args):
    """Every process's fapl lines of a run under the h5calls shim."""
    log = os.path.join(d, "calls")
    env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["H5CALLS"], "H5PERF_CALLS_LOG": log,
           "H5PERF_CALLS_FAPL": "1"}
    r = run(nprocs, args, env=env)
    expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
    got = []
    for path in sorted(glob.glob(log + ".*")):
        with open(path) as fh:
            lines = [l for l in fh.read().splitlines() if l.startswith("fapl")]
        if lines:
            got.append(lines)
        os.unlink(path)
    return r, got


@case
def hdf5_metadata_settings():
    """--hdf5.collective-metadata and --hdf5.metadata-block-size reach
    every file HDF5 creates and opens, in the guide's pattern and the block
    pattern (shared, chunked and fpp files, write and read, verified); the
    headers say so; without them, HDF5's defaults."""
    with TempDir() as d:
        _, got = fapl_lines(d, 2, "-A phdf5 -e 8K -x 8K -X 8K -p 2 -D v")
        expect_eq(got, [["fapl 0 0 2048"]] * 2, "HDF5's defaults")
        r, got = fapl_lines(d, 2, "-A phdf5 -e 8K -x 8K -X 8K -p 2 -D v "
                            "--hdf5.collective-metadata")
        expect_eq(got, [["fapl 1 1 2048"]] * 2, "the guide's pattern, collective metadata")
        expect("rank 0: HDF5 metadata=collective operations, block size HDF5's" in r.lines,
               "the guide's header", r)
        for mode in ("", "-C"):
            r, got = fapl_lines(d, 2, "--pattern block --global 16x12x8 -A phdf5 -p 2 -D v "
                                "--chunk-shape 3x5x8 --hdf5.collective-metadata "
                                "--hdf5.metadata-block-size 64K %s" % mode)
            expect_eq(got, [["fapl 1 1 65536"]] * 2, "the block pattern %s" % mode)
            expect("HDF5 metadata: collective operations, block size 65536 bytes" in r.lines,
                   "the block pattern's header", r)
        r, got = fapl_lines(d, 2, "--pattern particles --particles 64 -A phdf5 -p 2 -D v "
                            "--hdf5.metadata-block-size 4K")
        expect_eq(got, [["fapl 0 0 4096"]] * 2, "the particles pattern, a block size")
        expect("HDF5 metadata: independent operations, block size 4096 bytes" in r.lines,
               "the particles pattern's header", r)
        expect_eq(listing(d), [], "files left")


@case
def hdf5_choices_in_results():
    """The results' configuration records the options (null and false when
    not given) and validates against docs/results.schema.json."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        for extra, want in (("", (False, None, None)),
                            ("--hdf5.collective-metadata --hdf5.metadata-block-size 8K "
                             "--chunk-shape 4x2", (True, 8192, [4, 2]))):
            r = run(2, "--pattern block --global 8x8 -A phdf5 --layout chunked -p 2 "
                    "--results %s --overwrite %s" % (out, extra), env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
            with open(out) as fh:
                doc = json.load(fh)
            validate(doc, r)
            c = doc["config"]
            expect_eq((c["hdf5_collective_metadata"], c["hdf5_metadata_block_size"],
                       c["block"]["chunk_shape"]), want, "configuration (%s)" % extra, r)
            os.unlink(out)
