"""MPI cases of --buffer-offset (docs/performance.md, "Buffer offset"): the
transfer buffers really start that many bytes past a page boundary (the
buffer address of every POSIX call, logged by the iolog shim with
IOLOG_ADDRESS, tests/bench/iolog.c), each value in turn, for the guide's
patterns and the application patterns; the bytes on disk do not change
(every API's file equal to the one written from page-aligned buffers, and
the raw files to the content rule by numpy); the JSON and CSV name each
run's offset."""
import csv
import filecmp
import json
import os

import numpy as np

from block import check_h5, expected
from common import case, iolog_data_calls
from harness import TempDir, expect, expect_eq, run


def logged(logs, suffix):
    """{rank: [buffer's bytes past a 4096-byte boundary]} of the pwrite and
    pread calls on the data files ending in suffix, in the process's
    order."""
    return {rank: [int(f[5]) for f in calls]
            for rank, calls in iolog_data_calls(logs, suffix).items()}


def iolog_env(d, logs):
    return {"HDF5_PARAPREFIX": d, "IOLOG_MARKER": d + "/", "IOLOG_ADDRESS": "1",
            "IOLOG_FILE": os.path.join(logs, "log"), "LD_PRELOAD": os.environ["IOLOG"]}


@case
def buffer_offset_addresses():
    """Each --buffer-offset value in turn: every pwrite and pread of the
    POSIX runs starts its buffer that far past a page boundary (calls of 4K
    from a buffer whose steps are multiples of 4K), the guide's pattern
    and the block pattern alike; -D v verifies every read."""
    for args, offsets in (("-e 16K -x 4K -X 4K -B 4K -p 2 -A posix -D v --buffer-offset 0,8,4095",
                           (0, 8, 4095)),
                          ("--pattern block --global 64x64 --element-size 4 -p 2 -A posix "
                           "--layout shared,fpp --transfer-size 4K -D v --buffer-offset 100,0",
                           (100, 0))):
        with TempDir() as d:
            logs = os.path.join(d, "logs")
            os.mkdir(logs)
            r = run(2, args + " --results " + os.path.join(d, "r.json"),
                    env=iolog_env(d, logs))
            expect_eq(r.rc, 0, "exit status (%s)" % args, r)
            calls = logged(logs, ".posix")
            expect_eq(sorted(calls), [0, 1], "processes that logged calls (%s)" % args, r)
            # Each process goes through the offsets in turn, every call of a
            # run point from the same offset: the distinct offsets in order.
            for rank, at in calls.items():
                seen = [a for i, a in enumerate(at) if i == 0 or at[i - 1] != a]
                expect_eq(tuple(seen), offsets, "rank %d: buffer offsets of its calls (%s)"
                          % (rank, args), r)
            with open(os.path.join(d, "r.json")) as fh:
                doc = json.load(fh)
            expect_eq(doc["config"]["buffer_offsets"], sorted(offsets, key=offsets.index),
                      "config.buffer_offsets", r)
            runs = [x["buffer_offset"] for x in doc["runs"]]
            expect_eq(sorted(set(runs), key=runs.index), list(offsets), "runs' buffer_offset", r)


@case
def buffer_offset_same_bytes():
    """The bytes on disk do not depend on where the buffers start: the POSIX
    and MPI-IO files written from buffers 0, 1, 8 and 100 bytes past a page
    boundary are the files written from page-aligned ones, the raw files
    hold the block pattern's content rule (numpy) and the HDF5 file's
    datasets its values (h5read); the CSV's last column names each run's
    offset."""
    apis = "posix,mpiio,phdf5"
    with TempDir() as top:
        files = {}
        for off in (0, 1, 8, 100):
            d = os.path.join(top, str(off))
            os.mkdir(d)
            args = ("--pattern block --global 48x40 --grid 2x1 --element-size 8 --vars 2 "
                    "-A %s --layout shared -C -D v --buffer-offset %d --format csv -o %s"
                    % (apis, off, os.path.join(d, "r.csv")))
            r = run(2, args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
            expect_eq(r.rc, 0, "exit status (offset %d)" % off, r)
            with open(os.path.join(d, "r.csv")) as fh:
                rows = list(csv.DictReader(fh))
            expect(rows and all(row["buffer_offset"] == str(off) for row in rows),
                   "CSV buffer_offset %d on every row" % off, r)
            raw = np.fromfile(os.path.join(d, "#pio_tmp_1.posix"), dtype="<u8")
            expect(np.array_equal(raw, np.arange(2 * 48 * 40, dtype=np.uint64)),
                   "the POSIX file holds the content rule (offset %d)" % off, r)
            whole = expected((48, 40), 8, 2)
            for v in range(2):
                check_h5(os.path.join(d, "#pio_tmp_1.h5"), "v%d" % v, whole[v], ["contiguous"], 8)
            # HDF5's files hold their objects' times: compared by value above.
            for suffix in (".posix", ".mpio"):
                files.setdefault(suffix, []).append(os.path.join(d, "#pio_tmp_1" + suffix))
        for suffix, paths in files.items():
            for p in paths[1:]:
                expect(filecmp.cmp(paths[0], p, shallow=False),
                       "%s equals the file written from page-aligned buffers" % p)
