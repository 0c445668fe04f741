"""MPI cases of the file system's layout in the results' context
(docs/results.md, "file_system"; docs/cluster.md): statfs's block size and
the directory's I/O size, on an ext4 image of 1 KiB blocks mounted here
(root only) beside the tests' directory; and Lustre's default striping of
the directory, from a lustre.lov attribute this machine cannot hold, given
by the faults shim from values built here as Lustre lays them out.
"""
import json
import os
import struct
import subprocess

from common import Skip, case
from harness import TempDir, expect, expect_eq, run
from results import validate

ARGS = "-e 8K -A posix -w --format json"


def file_system(d, env=None):
    e = {"HDF5_PARAPREFIX": d}
    e.update(env or {})
    r = run(2, ARGS, env=e)
    expect_eq(r.rc, 0, "exit status", r)
    doc = json.loads(r.out)
    validate(doc, r)
    return doc["context"]["file_system"]


@case
def file_system_block_size():
    """block_size is statfs's f_bsize and io_size the directory's
    st_blksize: on the tests' directory as Python reads them, and on an
    ext4 file system of 1 KiB blocks (a loop-mounted image), where both are
    1024; no Lustre striping on either."""
    with TempDir() as d:
        fs = file_system(d)
        expect_eq((fs["block_size"], fs["io_size"], fs["lustre"]),
                  (os.statvfs(d).f_bsize, os.stat(d).st_blksize, None), "the tests' directory")
        image, mnt = os.path.join(d, "ext4.img"), os.path.join(d, "mnt")
        os.mkdir(mnt)
        with open(image, "wb") as fh:
            fh.truncate(8 << 20)
        p = subprocess.run(["mkfs.ext4", "-q", "-b", "1024", image], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if p.returncode != 0:
            raise Skip("cannot make an ext4 image here (%s)" % p.stdout.decode().strip())
        p = subprocess.run(["mount", "-o", "loop", image, mnt], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if p.returncode != 0:
            raise Skip("cannot mount a loop device here (%s)" % p.stdout.decode().strip())
        try:
            fs = file_system(mnt)
            expect_eq((fs["type"], fs["block_size"], fs["io_size"], fs["lustre"]),
                      ("ext4", 1024, 1024, None), "an ext4 file system of 1 KiB blocks")
        finally:
            subprocess.run(["umount", mnt])


def plain(size, count, offset, pool=None):
    """lov_user_md v1, or v3 with a pool (lustre_user.h)."""
    magic = 0x0BD30BD0 if pool is not None else 0x0BD10BD0
    head = struct.pack("<II16sIHH", magic, 1, b"\0" * 16, size, count, offset)
    return head + (pool.encode().ljust(16, b"\0") if pool is not None else b"")


def composite(first, entries=2):
    """lov_comp_md_v1 whose first entry's component is first (after every
    entry, as Lustre places them)."""
    at = 32 + 48 * entries
    head = struct.pack("<IIIHH16x", 0x0BD60BD0, at + len(first), 1, 0, entries)
    entry = struct.pack("<II16sII16x", 1, 0, b"\0" * 16, at, len(first))
    return head + entry + b"\0" * (48 * (entries - 1)) + first


@case
def file_system_lustre_striping():
    """A directory's lustre.lov (through the faults shim) is decoded into
    context.file_system.lustre: v1, v3 with a pool and every OST, a
    composite layout's first component; a value of another kind gives
    null."""
    cases = [
        (plain(1 << 20, 4, 2), {"stripe_size": 1048576, "stripe_count": 4, "stripe_offset": 2,
                                "pool": None, "components": 0}),
        (plain(4 << 20, 0xFFFF, 0xFFFF, "flash"),
         {"stripe_size": 4194304, "stripe_count": -1, "stripe_offset": -1, "pool": "flash",
          "components": 0}),
        (composite(plain(256 << 10, 1, 0xFFFF), 3),
         {"stripe_size": 262144, "stripe_count": 1, "stripe_offset": -1, "pool": None,
          "components": 3}),
        (struct.pack("<I", 0x0BD20BD0) + b"\0" * 28, None),
    ]
    with TempDir() as d:
        lov = os.path.join(d, "lov")
        for value, want in cases:
            with open(lov, "wb") as fh:
                fh.write(value)
            data = os.path.join(d, "data")
            os.mkdir(data)
            fs = file_system(data, {"LD_PRELOAD": os.environ["FAULTS"], "H5PERF_FAULT_LOV": lov})
            expect_eq(fs["lustre"], want, "lustre of %s" % value.hex())
            expect(fs["block_size"] > 0, "block size with the shim")
            os.rmdir(data)
