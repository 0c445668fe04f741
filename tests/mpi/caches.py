"""MPI cases about the options that keep caches honest (docs/performance.md): --fsync,
--direct and --read-shift, checked through the calls h5perf makes (the iolog
shim, tests/bench/iolog.c, logs them per process) and through -D v, and the
page-cache warning of reads that can only come from memory.
"""
import glob
import json
import os

from common import case, data_file
from harness import PAGE_CACHE, TempDir, expect, expect_eq, listing, run

O_DIRECT = 0o40000  # Linux x86-64 and arm64
TRACES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "traces")


def calls(d):
    """Per data file (by suffix), the calls of every process in order, as
    (rank, call, fd, a, b) tuples, with the open flags for 'open'."""
    out = {}
    for log in glob.glob(os.path.join(d, "log", "io.*")):
        rank = int(os.path.basename(log).split(".")[1])
        paths = {}
        with open(log) as fh:
            for line in fh:
                f = line.rstrip("\n").split(" ", 4)
                if f[1] == "open":
                    paths[f[2]] = f[4]
                    out.setdefault(os.path.splitext(f[4])[1], []).append(
                        (rank, "open", f[2], int(f[3], 16), 0))
                elif f[2] in paths:
                    out.setdefault(os.path.splitext(paths[f[2]])[1], []).append(
                        (rank, f[1], f[2], int(f[3]), int(f[4])))
    return out


def logged_run(d, np, args):
    os.makedirs(os.path.join(d, "log"), exist_ok=True)
    env = {"HDF5_PARAPREFIX": os.path.join(d, "data"), "LD_PRELOAD": os.environ["IOLOG"],
           "IOLOG_MARKER": "/data/", "IOLOG_FILE": os.path.join(d, "log", "io")}
    os.makedirs(env["HDF5_PARAPREFIX"], exist_ok=True)
    return run(np, args, env=env)


def syncs_before_close(seq, rank, min_len=1):
    """Per write session of one process: the fsync/fdatasync calls after its
    last write of at least min_len bytes and before its close (a session
    starts at an open)."""
    out, fd, writes, n = [], None, False, 0
    for r, call, f, a, b in seq:
        if r != rank:
            continue
        if call == "open":
            fd, writes, n = f, False, 0
        elif f != fd:
            continue
        elif call.startswith(("pwrite", "write")):
            writes = True
            n = 0 if b >= min_len else n
        elif call in ("fsync", "fdatasync"):
            n += 1
        elif call == "close" and writes:
            out.append(n)
    return out


@case
def fsync_flushes_every_written_file():
    """--fsync: every process flushes each file it wrote, after its last write
    and before closing it, through every API; without it no flush happens.
    HDF5 flushes (H5Fflush) after the data and metadata but H5Fclose then
    rewrites the superblock (96 bytes): for it the flush must follow the last
    raw-data write (64 KiB)."""
    with TempDir() as d:
        args = "-e 64K -B 16K -x 64K -X 64K -p 2 -i 2"
        r = logged_run(d, 2, args + " --fsync")
        expect_eq(r.rc, 0, "exit status", r)
        got = calls(d)
        for suffix, min_len in ((".posix", 1), (".mpio", 1), (".h5", 65536)):
            for rank in (0, 1):
                flushes = syncs_before_close(got[suffix], rank, min_len)
                expect_eq(len(flushes), 2, "%s rank %d: write sessions" % (suffix, rank), r)
                expect(all(n >= 1 for n in flushes), "%s rank %d flushes before each close: %r"
                       % (suffix, rank, flushes), r)
        expect_eq(syncs_before_close(got[".posix"], 0), [1, 1], "POSIX: exactly one fsync", r)
    with TempDir() as d:
        r = logged_run(d, 2, args)
        expect_eq(r.rc, 0, "exit status", r)
        got = calls(d)
        n = sum(1 for seq in got.values() for c in seq if c[1] in ("fsync", "fdatasync"))
        expect_eq(n, 0, "flushes without --fsync", r)


@case
def direct_opens_posix_files_with_o_direct():
    """--direct: every open of a POSIX data file has O_DIRECT, no other API's
    does; the data is still verified. Without it no open has O_DIRECT."""
    for flag, want in (("--direct", O_DIRECT), ("", 0)):
        with TempDir() as d:
            r = logged_run(d, 2, "-e 64K -B 4K -x 16K -X 16K -p 2 -D v -A posix,mpiio " + flag)
            expect_eq(r.rc, 0, "exit status " + flag, r)
            got = calls(d)
            opens = [c[3] & O_DIRECT for c in got[".posix"] if c[1] == "open"]
            expect_eq(opens, [want] * 4, "POSIX opens (2 processes x 2 phases) " + flag, r)
            opens = [c[3] & O_DIRECT for c in got[".mpio"] if c[1] == "open"]
            expect(opens and not any(opens), "MPI-IO opens without O_DIRECT", r)
    with TempDir() as d:
        r = run(2, "-e 64K -B 4K -A posix,mpiio --direct", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.h5perf_err, ["h5perf: warning: --direct applies to POSIX only: MPI-IO and "
                                 "HDF5 still go through the page cache"], "warning", r)
        expect_eq(r.page_cache, [PAGE_CACHE + "mpiio can only come from the page cache: each "
                  "process reads data written moments before on its own host, through that "
                  "host's cache (use --direct for POSIX, or --read-shift with processes on "
                  "several hosts)"], "page-cache warning names MPI-IO only", r)


@case
def direct_refused_by_the_file_system():
    """A file system that refuses O_DIRECT is found before any data file
    exists: one line, exit 2, nothing left."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_NO_DIRECT": "1"}
        r = run(2, "-e 64K -B 4K -A posix --direct", env=env)
        expect_eq(r.rc, 2, "exit status", r)
        expect_eq(r.h5perf_err, ["h5perf: --direct: the file system of '%s' refuses O_DIRECT "
                                 "(Invalid argument); run without --direct" % d], "message", r)
        expect_eq(listing(d), [], "files left", r)


@case
def read_shift_reads_the_next_process_data():
    """--read-shift 1 with 3 processes: process r reads (from every API) the
    bytes process (r+1) mod 3 wrote, and -D v expects that writer's value: a
    corrupted byte of process 1's data is reported by process 0."""
    with TempDir() as d:
        r = logged_run(d, 3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix --read-shift 1 -D v")
        expect_eq(r.rc, 0, "exit status", r)
        reads = {}
        for rank, call, fd, off, length in calls(d)[".posix"]:
            if call.startswith("pread"):
                reads.setdefault(rank, []).append((off, length))
        for rank in range(3):
            src = (rank + 1) % 3
            expect_eq(sorted(reads[rank]), [(src * 65536, 32768), (src * 65536 + 32768, 32768)],
                      "rank %d reads rank %d's data" % (rank, src), r)
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_CORRUPT_SUFFIX": ".posix", "H5PERF_CORRUPT_OFFSET": "65536",
               "H5PERF_CORRUPT_COUNT": "1"}
        r = run(3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix --read-shift 1 -D v", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 0: verify '%s' (POSIX, 3 processes, transfer size 32768, iteration "
            "1): 1 bytes differ, the first at offset 65536: expected 2, found 253"
            % data_file(d, 1, "posix")], "mismatch found by the reader of process 1's data", r)
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        r = run(3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A mpiio,phdf5 -C --read-shift 2 -D v "
                "--results " + out, env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "collective MPI-IO and HDF5 verify shifted reads", r)
        with open(out) as fh:
            doc = json.load(fh)
        expect_eq(doc["config"]["read_shift"], 2, "JSON config", r)


def available_100k(d):
    """The environment of a run in d on a host with 100 KiB available (a
    /proc/meminfo of its own, through the faults shim)."""
    meminfo = os.path.join(d, "meminfo")
    with open(meminfo, "w") as fh:
        fh.write("MemTotal: 1000 kB\nMemFree: 1 kB\nMemAvailable: 100 kB\n")
    return {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
            "H5PERF_FAULT_MEMINFO": meminfo}


@case
def page_cache_warning():
    """Reads of data just written on the same host can only come from the page
    cache: said once on stderr and in the JSON, never in the text report; not
    with -w, and not for POSIX with --direct."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        r = run(2, "-e 64K -B 16K -x 64K --results " + out, env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        line = (PAGE_CACHE + "posix, mpiio, phdf5 can only come from the page cache: each "
                "process reads data written moments before on its own host, through that "
                "host's cache (use --direct for POSIX, or --read-shift with processes on "
                "several hosts)")
        expect_eq(r.page_cache, [line], "stderr", r)
        with open(out) as fh:
            expect_eq(json.load(fh)["page_cache_warnings"], [line], "JSON", r)
        expect(not any("page cache" in l for l in r.lines), "not in the text report", r)
        r = run(2, "-e 64K -B 16K -x 64K -w --results " + out, env={"HDF5_PARAPREFIX": d})
        expect_eq(r.page_cache, [], "no reads, no warning", r)
        with open(out) as fh:
            expect("page_cache_warnings" not in json.load(fh), "JSON without reads", r)
        r = run(2, "-e 64K -B 16K -x 64K -A posix --direct", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.page_cache, [], "POSIX with --direct", r)
        # What must fit in memory is one file's datasets at each process
        # count (each file is read back and removed before the next): with
        # 100 KiB available, 64 KiB per process fits for 1 process, not 2,
        # whatever -F; two datasets of 64 KiB do not fit at all. (Transfers
        # of 16 KiB: buffers of 64 KiB on 2 processes would not fit either,
        # and the memory check would refuse the run; see memory.py.)
        env = available_100k(d)
        one = (PAGE_CACHE + "posix with 1 process can only come from the page cache: each "
               "process reads data written moments before on its own host, through that "
               "host's cache (use --direct for POSIX, or --read-shift with processes on "
               "several hosts)")
        for extra, want in (("", [one]), (" -F 3", [one]), (" -d 2", [])):
            r = run(2, "-e 64K -B 16K -x 16K -X 16K -A posix" + extra, env=env)
            expect_eq((r.rc, r.page_cache), (0, want), "available memory, options" + extra, r)


@case
def page_cache_warning_block():
    """The block pattern reads back what each process wrote (or, with
    --read-grid, any block: local when every process is on one host); the
    file that must fit is the array times --vars, whatever the process
    count. Its advice names its own options."""
    with TempDir() as d:
        env = available_100k(d)
        line = (PAGE_CACHE + "posix, phdf5 can only come from the page cache: each process "
                "reads data written moments before on its own host, through that host's cache "
                "(use an array larger than the hosts' memory, or --read-grid with processes on "
                "several hosts)")
        # 64x64 elements of 8 bytes: 32 KiB, 128 KiB with 4 variables.
        for extra, want in (("", [line]), (" --layout shared --grid 2x1 --read-grid 1x2", [line]),
                            (" --vars 4", [])):
            r = run(2, "--pattern block --global 64x64 -A posix,phdf5" + extra, env=env)
            expect_eq((r.rc, r.page_cache), (0, want), "page-cache warning" + extra, r)
        expect_eq(listing(d), ["meminfo"], "no data file left", r)


@case
def page_cache_warning_trace():
    """The trace pattern reads back what each process's prepare phase
    wrote: warned when the trace reads; a trace that only writes reads
    nothing, and nothing is said of reads (vpic-coll: h5bench's VPIC-IO
    write)."""
    with TempDir() as d:
        line = (PAGE_CACHE + "posix can only come from the page cache: each process reads data "
                "written moments before on its own host, through that host's cache (replay a "
                "trace whose files are larger than the hosts' memory)")
        for name, want in (("ior-posix-contig", [line]), ("vpic-coll", [])):
            trace = os.path.join(TRACES, name + ".trace")
            r = run(4, "--pattern trace --trace %s -A posix" % trace, env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.page_cache), (0, want), "page-cache warning of " + name, r)
        expect_eq(listing(d), [], "no data file left", r)
