"""MPI cases of the trace pattern (docs/trace.md, "The trace pattern"):
every committed trace (tests/data/traces: IOR's runs on 4 processes, and
the real programs' in cases of their own, h5bench's VPIC-IO write on 4
and E3SM-IO's G case on 16) replayed on its processes. Their level is
POSIX, the calls that reached the file system, which a replay through
POSIX or MPI-IO (independent calls) makes again. Through POSIX and
MPI-IO the iolog shim (tests/bench/iolog.c) logs each process's pwrite and
pread calls on the data file, which must be exactly the trace's: first
the prepare phase's writes of what the process reads, then its calls, in
recorded order, each at the file's base plus OFFSET for LENGTH bytes.
Through every API of the build with -D v, the kept files are read back
by readers that share no code with h5perf (numpy for the flat files,
h5read for HDF5, cdf5.py for PnetCDF) and every byte a call moved is
checked against the content rule: byte OFFSET of recorded file K holds
g((OFFSET + 4099 K) mod 65521), g(i) = (167 i xor (i >> 8) xor 0x5a) mod
256.
"""
import json
import os

import numpy as np

from cdf5 import header
from common import SUFFIX, case, iolog_data_calls
from harness import TempDir, built_apis, expect, expect_eq, run
from map import h5_values
from results import validate

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "data", "traces")
KEEP = "HDF5_NOCLEANUP"
PERIOD, SHIFT = 65521, 4099


def read_trace(path):
    """(nprocs, sizes of the files, calls) of a committed trace; a call is
    (process, file, op, offset, length)."""
    nprocs, nfiles, calls = 0, 0, []
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if not f or line.startswith("#"):
                continue
            if f[0] == "processes":
                nprocs = int(f[1])
            elif f[0] == "file":
                nfiles += 1
            elif f[0] != "level":
                calls.append((int(f[0]), int(f[1]), f[2], int(f[3]), int(f[4])))
    sizes = [0] * nfiles
    for _, k, _, off, length in calls:
        sizes[k] = max(sizes[k], off + length)
    return nprocs, sizes, calls


def bases(sizes):
    out, at = [], 0
    for s in sizes:
        out.append(at)
        at += max(s, 1)
    return out


def content(k, off, length):
    i = (np.arange(length, dtype=np.uint64) + np.uint64((off % PERIOD + k * SHIFT) % PERIOD))
    i %= np.uint64(PERIOD)
    return (((i * np.uint64(167)) ^ (i >> np.uint64(8)) ^ np.uint64(0x5A)) & np.uint64(0xFF)) \
        .astype(np.uint8)


def fixtures(programs=False):
    """The committed traces: IOR's (ior-*), or with programs every other
    (the real programs': h5bench's, E3SM-IO's)."""
    return sorted(os.path.join(TRACES, n) for n in os.listdir(TRACES)
                  if n.endswith(".trace") and n.startswith("ior-") != programs)


def expected_calls(sizes, calls, p):
    """Process p's calls on the flat data file: the prepare phase's writes
    of its reads, then its calls, each in recorded order."""
    base = bases(sizes)
    mine = [c for c in calls if c[0] == p]
    out = []
    if any(c[2] == "read" for c in calls):
        out += [("pwrite", base[k] + off, n) for _, k, op, off, n in mine if op == "read"]
    out += [("pwrite" if op == "write" else "pread", base[k] + off, n)
            for _, k, op, off, n in mine]
    return out


def logged(logs, suffix):
    """{rank: [(pwrite|pread, offset, length)]} of the calls on the data
    files ending in suffix, in each process's order (vector forms named as
    their plain ones)."""
    return {rank: [("pwrite" if f[1].startswith("pwrite") else "pread", int(f[3]), int(f[4]))
                   for f in calls]
            for rank, calls in iolog_data_calls(logs, suffix).items()}


def run_logged(trace, api, more, nprocs, sizes, calls):
    """The trace through api (posix or mpiio) under the iolog shim, on
    nprocs processes: each process's pwrite and pread calls on the data
    file are those of calls, the recorded files at bases from sizes."""
    with TempDir() as d:
        logs = os.path.join(d, "logs")
        os.mkdir(logs)
        args = "--pattern trace --trace %s -A %s %s" % (trace, api, more)
        env = {"HDF5_PARAPREFIX": d, "IOLOG_MARKER": d + "/",
               "IOLOG_FILE": os.path.join(logs, "log"), "LD_PRELOAD": os.environ["IOLOG"]}
        r = run(nprocs, args, env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
        got = logged(logs, SUFFIX[api])
        for p in range(nprocs):
            expect_eq(got.get(p, []), expected_calls(sizes, calls, p),
                      "process %d's calls (%s)" % (p, args), r)
        return r


def expect_calls(trace, api, more):
    """Each process's calls through api are the trace's (run_logged)."""
    nprocs, sizes, calls = read_trace(trace)
    run_logged(trace, api, more, nprocs, sizes, calls)


def calls_posix_mpiio(traces):
    for trace in traces:
        for api in ("posix", "mpiio"):
            expect_calls(trace, api, "--trace-gaps drop")


@case
def trace_calls_posix_mpiio():
    """Each committed trace of IOR through POSIX and MPI-IO under the iolog
    shim: every process's pwrite and pread calls on the data file are
    exactly the trace's (the prepare phase's writes of its reads, then its
    calls), at the same offsets (the file's base plus OFFSET) for the same
    lengths; a process without a call makes none."""
    calls_posix_mpiio(fixtures())


@case
def trace_programs_calls_posix_mpiio():
    """trace_calls_posix_mpiio for the real programs' traces (vpic-*,
    e3sm-g-16p): HDF5's metadata writes among the data, writes of the same
    bytes twice, one process of 16 making every call."""
    calls_posix_mpiio(fixtures(programs=True))


def check_files(d, trace, apis):
    _, sizes, calls = read_trace(trace)
    base = bases(sizes)
    for api in apis:
        path = os.path.join(d, "#pio_tmp_1" + SUFFIX[api])
        if api in ("posix", "mpiio"):
            raw = np.fromfile(path, dtype=np.uint8)
            expect_eq(raw.size, base[-1] + sizes[-1], "bytes of " + path)
            get = [raw[base[k]:base[k] + max(s, 1)] for k, s in enumerate(sizes)]
        elif api == "phdf5":
            get = []
            for k, s in enumerate(sizes):
                dims, typ, got = h5_values(path, "file_%d" % k)
                expect_eq((dims, typ), ([max(s, 1)], "integer 1 unsigned le"),
                          "shape and type of %s:file_%d" % (path, k))
                get.append(got.astype(np.uint8))
        else:
            h = header(path)
            get = []
            with open(path, "rb") as fh:
                raw = fh.read()
            for k, s in enumerate(sizes):
                typ, shape, begin, _ = h["vars"]["file_%d" % k]
                expect_eq((typ, shape), ("ubyte", [max(s, 1)]),
                          "type and shape of %s:file_%d" % (path, k))
                get.append(np.frombuffer(raw[begin:begin + max(s, 1)], dtype=np.uint8))
        for p, k, op, off, n in calls:
            seg = get[k][off:off + n]
            bad = np.flatnonzero(seg != content(k, off, n))
            expect(bad.size == 0, "%s: file %d bytes %d+%d (process %d's %s): %d differ" % (
                path, k, off, n, p, op, bad.size))


def verify_every_api(traces, apis):
    for trace in traces:
        nprocs, sizes, calls = read_trace(trace)
        with TempDir() as d:
            res = os.path.join(d, "r.json")
            args = "--pattern trace --trace %s -A %s -D v --results %s" % (
                trace, ",".join(apis), res)
            r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            expect(any(l.startswith("    recorded (the application)") for l in r.lines),
                   "the recorded line", r)
            for api in apis:
                name = {"posix": "POSIX", "mpiio": "MPI-IO", "phdf5": "HDF5",
                        "pnetcdf": "PnetCDF"}[api]
                expect(any(l.startswith("    replay, %s " % name) for l in r.lines),
                       "the replay line of " + api, r)
            check_files(d, trace, apis)
            with open(res) as fh:
                doc = json.load(fh)
            validate(doc)
            written = sum(c[4] for c in calls if c[2] == "write")
            read = sum(c[4] for c in calls if c[2] == "read")
            for x in doc["runs"]:
                t = x["trace"]
                expect_eq((t["processes"], t["files"], t["bytes_written"], t["bytes_read"]),
                          (nprocs, len(sizes), written, read), "the run's trace figures", r)


@case
def trace_verify_every_api():
    """Each committed trace of IOR through every API of the build with -D v
    (gaps kept): exit 0, the report's recorded and replayed lines, the
    JSON results valid with the trace's figures, and each kept file read
    back independently: every byte a call moved holds the content rule's."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    verify_every_api(fixtures(), apis)


@case
def trace_programs_verify_every_api():
    """trace_verify_every_api for the real programs' traces (vpic-*,
    e3sm-g-16p), their recorded gaps kept (h5bench's 10 ms of compute)."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    verify_every_api(fixtures(programs=True), apis)


SYNTHETIC = """# 3 processes, 2 files: process 0 reads bytes of file 1 that no call
# writes, process 1 goes from file to file and back, process 2 makes no call
processes 3
level posix
file 0 /app/a.dat
file 1 /app/b with a blank.dat
0 0 write 0 5000 0.000100 0.000010
0 1 read 70000 3000 0.000100 0.000010
0 0 read 100 4000 0.000100 0.000010
1 1 write 0 100000 0.000100 0.000010
1 0 write 5000 1 0.000100 0.000010
1 1 read 99999 1 0.000100 0.000010
1 0 read 0 5001 0.000100 0.000010
"""


@case
def trace_synthetic_files_and_reads():
    """A trace written here: two files (process 1 goes from one to the
    other and back), reads of bytes no call writes (process 0's of file
    1), a process without a call. Through POSIX and MPI-IO under the iolog
    shim each process's calls are the trace's, in recorded order from file
    to file; through every API with -D v the
    kept files hold the content rule's bytes wherever a call moved one;
    started on one process more, with -P, the same."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    with TempDir() as t:
        trace = os.path.join(t, "app.trace")
        with open(trace, "w") as fh:
            fh.write(SYNTHETIC)
        nprocs = read_trace(trace)[0]
        for api in ("posix", "mpiio"):
            expect_calls(trace, api, "")
        with TempDir() as d:
            args = "--pattern trace --trace %s -A %s -D v" % (trace, ",".join(apis))
            r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            check_files(d, trace, apis)
        # More processes started than the trace's, the run on its own (-P):
        # the others receive no call.
        with TempDir() as d:
            args = "--pattern trace --trace %s -A posix -D v -P %d" % (trace, nprocs)
            r = run(nprocs + 1, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"})
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            check_files(d, trace, ["posix"])


def own_calls(calls, p):
    return [c for c in calls if c[0] == p]


@case
def trace_fpp_layout():
    """--layout fpp: each process its own data file (#pio_tmp_1.P.suffix)
    holding every recorded file at the same places as the shared file.
    Under the iolog shim each process's pwrite and pread calls on its own
    file are exactly the trace's (its reads written first by the prepare
    phase, then its calls in recorded order, at base plus OFFSET); through
    every API with -D v each process's kept file holds the content rule's
    bytes wherever that process's calls moved one, and a flat file ends at
    the end of the process's last call."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    with TempDir() as t:
        synthetic = os.path.join(t, "app.trace")
        with open(synthetic, "w") as fh:
            fh.write(SYNTHETIC)
        for trace in [synthetic, os.path.join(TRACES, "ior-posix-fpp.trace")]:
            for api in ("posix", "mpiio"):
                expect_calls(trace, api, "--layout fpp --trace-gaps drop")
            nprocs, sizes, calls = read_trace(trace)
            base = bases(sizes)
            with TempDir() as d:
                args = "--pattern trace --trace %s -A %s -D v --layout fpp --trace-gaps drop" % (
                    trace, ",".join(apis))
                r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
                expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
                for p in range(nprocs):
                    mine = own_calls(calls, p)
                    for api in apis:
                        path = os.path.join(d, "#pio_tmp_1.%d%s" % (p, SUFFIX[api]))
                        expect(os.path.exists(path), "process %d's own file %s" % (p, path), r)
                        if api in ("posix", "mpiio"):
                            end = max([base[k] + off + n for _, k, _, off, n in mine] or [0])
                            expect_eq(os.path.getsize(path), end, "bytes of " + path, r)
                    check_files_of(d, "#pio_tmp_1.%d" % p, sizes, mine, apis)


def check_files_of(d, stem, sizes, calls, apis):
    """check_files for the files d/stem.suffix and the given calls."""
    base = bases(sizes)
    for api in apis:
        path = os.path.join(d, stem + SUFFIX[api])
        if api in ("posix", "mpiio"):
            raw = np.fromfile(path, dtype=np.uint8)
            get = [raw[base[k]:base[k] + max(s, 1)] for k, s in enumerate(sizes)]
        elif api == "phdf5":
            get = [h5_values(path, "file_%d" % k)[2].astype(np.uint8) for k in range(len(sizes))]
        else:
            h = header(path)
            with open(path, "rb") as fh:
                raw = fh.read()
            get = []
            for k, s in enumerate(sizes):
                begin = h["vars"]["file_%d" % k][2]
                get.append(np.frombuffer(raw[begin:begin + max(s, 1)], dtype=np.uint8))
        for p, k, op, off, n in calls:
            seg = get[k][off:off + n]
            bad = n - seg.size + np.count_nonzero(seg != content(k, off, seg.size))
            expect(bad == 0, "%s: file %d bytes %d+%d (process %d's %s): %d differ" % (
                path, k, off, n, p, op, bad))


RESHAPE = """# 2 processes, 2 files: contiguous runs of writes and reads, runs broken
# by a hole, by another file, by a read, and runs too long for one call
processes 2
level posix
file 0 /app/a.dat
file 1 /app/b.dat
0 0 write 0 1000 0.000100 0.000010
0 0 write 1000 1000 0.000200 0.000010
0 0 write 2000 3000 0.000300 0.000010
0 0 write 6000 100 0.000100 0.000010
0 0 write 6100 100 0.000100 0.000010
0 1 write 0 100 0.000100 0.000010
0 0 write 6200 100 0.000100 0.000010
0 0 read 0 2000 0.000100 0.000010
0 0 read 2000 2000 0.000100 0.000010
0 0 write 4000 10 0.000100 0.000010
1 0 write 5000 1000 0.000100 0.000010
1 0 write 6300 500 0.000100 0.000010
1 0 read 6300 500 0.000100 0.000010
1 1 write 100 5000 0.000100 0.000010
1 1 write 5100 5000 0.000100 0.000010
1 1 read 100 10000 0.000100 0.000010
"""


def reshape(calls, gather, align):
    """The calls of docs/trace.md, "Transformations": each process's
    consecutive calls of one file and direction, each starting where the
    previous ended, gathered while the sum stays within gather bytes;
    then each from a multiple of align to a multiple of align."""
    out = []
    for c in calls:
        p, k, op, off, n = c
        last = out[-1] if out else None
        if (gather and last and last[0] == p and last[1] == k and last[2] == op and
                last[3] + last[4] == off and last[4] + n <= gather):
            out[-1] = (p, k, op, last[3], last[4] + n)
        else:
            out.append(c)
    if align:
        out = [(p, k, op, off - off % align, -(-(off + n) // align) * align - (off - off % align))
               for p, k, op, off, n in out]
    return out


def sizes_of(nfiles, calls):
    sizes = [0] * nfiles
    for _, k, _, off, n in calls:
        sizes[k] = max(sizes[k], off + n)
    return sizes


def expect_reshaped_calls(trace, api, more, calls, nfiles):
    """expect_calls with the calls as reshaped: each process's pwrite and
    pread calls on the data file are those of calls (bases from their
    sizes)."""
    return run_logged(trace, api, more, 1 + max(c[0] for c in calls), sizes_of(nfiles, calls),
                      calls)


def expect_reshaped(gather, align):
    """RESHAPE with --trace-gather gather and/or --trace-align align: the
    calls under the iolog shim (POSIX, MPI-IO) are reshape()'s exactly;
    every API with -D v reads back what the content rule says, each kept
    file checked independently; the report's Replayed line and the JSON
    results' replay figures are the reshaped calls' and the recorded
    figures the trace's."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    words = ("--trace-gather %d " % gather if gather else "") + (
        "--trace-align %d " % align if align else "")
    with TempDir() as t:
        trace = os.path.join(t, "app.trace")
        with open(trace, "w") as fh:
            fh.write(RESHAPE)
        nprocs, _, recorded = read_trace(trace)
        calls = reshape(recorded, gather, align)
        for api in ("posix", "mpiio"):
            expect_reshaped_calls(trace, api, words + "--trace-gaps drop", calls, 2)
        with TempDir() as d:
            res = os.path.join(d, "r.json")
            args = "--pattern trace --trace %s -A %s -D v %s--results %s" % (
                trace, ",".join(apis), words, res)
            r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            check_files_of(d, "#pio_tmp_1", sizes_of(2, calls), calls, apis)
            how = ", ".join(x for x in [
                "gathered into calls of at most %d bytes" % gather if gather else "",
                "aligned to %d bytes" % align if align else ""] if x)
            moved = {op: (sum(1 for c in calls if c[2] == op), sum(c[4] for c in calls
                                                                  if c[2] == op))
                     for op in ("write", "read")}
            line = ("Replayed (docs/trace.md, Transformations): calls %s: %d writes (%d bytes), "
                    "%d reads (%d bytes)" % (how, moved["write"][0], moved["write"][1],
                                             moved["read"][0], moved["read"][1]))
            expect(line in r.lines, "the line %r" % line, r)
            with open(res) as fh:
                doc = json.load(fh)
            validate(doc)
            expect_eq((doc["config"]["trace"]["gather"], doc["config"]["trace"]["align"]),
                      (gather, align), "the configuration's gather and align", r)
            for x in doc["runs"]:
                tr = x["trace"]
                expect_eq((tr["writes"], tr["reads"], tr["replay_writes"], tr["replay_reads"],
                           tr["replay_bytes_written"], tr["replay_bytes_read"]),
                          (sum(1 for c in recorded if c[2] == "write"),
                           sum(1 for c in recorded if c[2] == "read"),
                           moved["write"][0], moved["read"][0], moved["write"][1],
                           moved["read"][1]), "the run's recorded and replay figures", r)
                # The phases' measures: the calls alone, and from before the
                # open to after the close (as the programs time theirs).
                got = {m["measure"]: m["samples"][0]["seconds"]["slowest"]
                       for m in x["measures"]}
                expect_eq(sorted(got), sorted(
                    ["prepare", "prepare_open_close", "prepare_write", "replay",
                     "replay_open_close", "replay_busy", "replay_read", "replay_write"]),
                    "the trace pattern's measures", r)
                expect(got["replay_open_close"] >= got["replay"] > 0,
                       "replay_open_close %r holds replay %r" % (got["replay_open_close"],
                                                                 got["replay"]), r)


@case
def trace_gather():
    """--trace-gather 4096 on RESHAPE: process 0's calls become exactly
    write 0+2000 (0+1000 and 1000+1000; 2000+3000 would pass 4096), write
    2000+3000, write 6000+200, file 1's write 0+100, write 6200+100 (after
    a call of another file), read 0+4000, write 4000+10; process 1's
    writes of file 1 stay apart (5000 + 5000 > 4096), its read of 10000
    bytes stays whole. Then expect_reshaped: the calls logged, every API
    read back, the report and results."""
    _, _, recorded = read_trace_text(RESHAPE)
    mine = [c[1:] for c in reshape(recorded, 4096, 0) if c[0] == 0]
    expect_eq(mine, [(0, "write", 0, 2000), (0, "write", 2000, 3000), (0, "write", 6000, 200),
                     (1, "write", 0, 100), (0, "write", 6200, 100), (0, "read", 0, 4000),
                     (0, "write", 4000, 10)], "the oracle's gathered calls of process 0")
    expect_reshaped(4096, 0)


@case
def trace_align():
    """--trace-align 4096 on RESHAPE (processes 0 and 1 then write the
    same blocks of file 0: the content rule gives both the same bytes),
    and --trace-gather 4096 --trace-align 1000 together (gathered first):
    the calls logged are reshape()'s, every API reads back what the
    content rule says (-D v) and the kept files hold it."""
    expect_reshaped(0, 4096)
    expect_reshaped(4096, 1000)


def read_trace_text(text):
    with TempDir() as t:
        path = os.path.join(t, "x.trace")
        with open(path, "w") as fh:
            fh.write(text)
        return read_trace(path)


TAIL = """# the reads end before the writes: after the prepare phase the data file
# is shorter than after the replay
processes 2
level posix
file 0 /app/a.dat
0 0 write 0 8192 0.000100 0.000010
0 0 read 0 4096 0.000100 0.000010
1 0 write 8192 100 0.000100 0.000010
"""


@case
def trace_prepare_shorter_than_replay():
    """A trace whose reads end before its writes (TAIL): the data file
    after the prepare phase ends at the last read, and the size check
    after each write phase takes that (it failed, 'data was lost', before
    the shared file's prepare end was known). Through every API, shared
    and fpp in one run, with -D v: exit 0, no error; the kept flat files
    end at the last call's end (shared 8292; fpp: process 0's 8192,
    process 1's 8292)."""
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    with TempDir() as t:
        trace = os.path.join(t, "app.trace")
        with open(trace, "w") as fh:
            fh.write(TAIL)
        with TempDir() as d:
            args = "--pattern trace --trace %s -A %s -D v --layout shared,fpp" % (
                trace, ",".join(apis))
            r = run(2, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            for api in ("posix", "mpiio"):
                for name, size in (("#pio_tmp_1", 8292), ("#pio_tmp_1.0", 8192),
                                   ("#pio_tmp_1.1", 8292)):
                    path = os.path.join(d, name + SUFFIX[api])
                    expect_eq(os.path.getsize(path), size, "bytes of " + path, r)
