"""MPI cases of MPI-IO's atomic mode (--mpiio.atomic, docs/mpiio.md,
"Atomic mode"): MPI_File_set_atomicity(fh, 1) after every open of every
MPI-IO file, counted by a shim (tests/tools/mpicalls.c), under Open MPI's
ompio and under ROMIO (OMPI_MCA_io=romio321; MPICH's MPI-IO is ROMIO,
which takes a lock around each call in atomic mode); the kept file read
back by numpy against the content rule, the report's header line and the
JSON's configuration. Without the option, no call turns atomic mode on.
"""
import json
import os

import block
from common import case
from harness import TempDir, expect, expect_eq, run_counted
from map import KEEP
from mpiio_joined import romio
from results import validate

HEADER = "MPI-IO consistency: atomic mode (MPI_File_set_atomicity) on every file"


def counted(flag, mode, io):
    """A block run of 3 variables of 2 steps each (--transfer-size half a
    block) on 2 processes, -D v, its file kept and read back: each
    process's counted calls, the report's lines and the JSON document."""
    with TempDir() as d, TempDir() as o:
        out = os.path.join(o, "r.json")
        args = ("--pattern block --global 16x8 --grid 2x1 --layout shared --vars 3 -A mpiio "
                "%s --transfer-size 256 -p 2 -D v %s --results %s" % (flag, mode, out))
        r, got = run_counted(2, args, d, "MPICALLS", dict(io, **{KEEP: "1"}), timeout=120)
        block.check_raw(os.path.join(d, "#pio_tmp_1.mpio"), block.expected((16, 8), 8, 3))
        doc = json.load(open(out))
        validate(doc, r)
        return r, got, doc


@case
def mpiio_atomic_calls():
    """Atomic mode is turned on once per open of each process: the write
    phase's and the read phase's (2), independent and collective, under
    ompio and ROMIO; the transfers are the plain ones (6 writes, 6 reads
    per process); the file holds every element. Without the option there
    is no such call, no header line, and config.mpiio_atomic is false."""
    for io in ({}, romio()):
        for mode, suffix in (("", ""), ("-C", "_all")):
            for flag in ("", "--mpiio.atomic"):
                r, got, doc = counted(flag, mode, io)
                want = ["MPI_File_read_at%s 6" % suffix, "MPI_File_write_at%s 6" % suffix]
                if flag:
                    want.append("MPI_File_set_atomicity 2")
                what = "%s %s (%s)" % (flag, mode, io or "default MPI-IO")
                expect_eq(got, [sorted(want)] * 2, "MPI-IO's calls, " + what, r)
                expect_eq(HEADER in r.lines, bool(flag), "the header line, " + what, r)
                expect_eq(doc["config"]["mpiio_atomic"], bool(flag), "config.mpiio_atomic", r)
                expect(any(l.startswith("    MPI-IO  shared ") for l in r.lines),
                       "the report's row, " + what, r)
