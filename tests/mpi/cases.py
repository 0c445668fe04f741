#!/usr/bin/env python3
"""MPI test cases: h5perf under mpiexec with several processes, checked by an
independent reader (raw bytes for POSIX and MPI-IO, the HDF5 API for HDF5).

Usage: cases.py --list | cases.py NAME
"""
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import (TempDir, base_env, expect, expect_eq, h5perf, h5read, listing,  # noqa: E402
                     mpiexec_command, run)

SKIP = 77  # ctest's SKIP_RETURN_CODE: shown as skipped, not passed


class Skip(Exception):
    pass


def mounted_tmpfs(path, size, read_only=False):
    """Mounts a tmpfs of `size` at path (root only); raises Skip otherwise."""
    os.makedirs(path, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s" % size, "tmpfs", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise Skip("cannot mount a tmpfs here (%s)" % p.stdout.decode().strip())
    if read_only:
        subprocess.run(["mount", "-o", "remount,ro", path], check=True)


def unmount(path):
    subprocess.run(["umount", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


FIG2 = bytes([1] * 8 + [2] * 8 + [3] * 8)
FIG3 = bytes([1, 1, 2, 2, 3, 3] * 4)
FIG3_HALF = bytes([1, 1, 2, 2, 3, 3] * 2)
SUFFIX = {"posix": ".posix", "mpiio": ".mpio", "phdf5": ".h5"}


def data_file(d, f, api):
    return os.path.join(d, "#pio_tmp_%d%s" % (f, SUFFIX[api]))


def check_files(d, dset, apis=("posix", "mpiio", "phdf5"), ndsets=1, nfiles=1, chunk=None):
    """Every data file holds dset in each of its datasets (SPEC 8)."""
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


@case
def hdf5_raw_data_offsets():
    """The .h5 files put raw data where the original's do (SPEC 5.3): default
    layout, -a 4K, and -a 1K -T 32; -a/-T reach H5Pset_alignment."""
    for args, offsets in (("", [2048, 2072, 2096]), ("-a 4K", [20480, 32768, 40960]),
                          ("-a 1K -T 32", [4368, 4392, 4416])):
        with TempDir() as d:
            r = run(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -d 3 -A phdf5 -D v " + args,
                    env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
            expect_eq(r.rc, 0, "exit status", r)
            expect_eq(raw_at(data_file(d, 1, "phdf5"), offsets, 24), [FIG2] * 3,
                      "raw data of the three datasets with '%s'" % args, r)


@case
def one_process():
    figure(1, "-B 2 -e 8 -x 2 -X 8", bytes([1] * 8))


@case
def files_kept_only_with_nocleanup():
    with TempDir() as d:
        r = run(2, "-e 8K -B 1K -i 2", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(listing(d), [], "files left without HDF5_NOCLEANUP", r)
        # Defined but empty still means keep (SPEC 2); the last run is P=1.
        r = run(2, "-e 8K -B 1K -i 2 -D v", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": ""})
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(listing(d), ["#pio_tmp_1.h5", "#pio_tmp_1.mpio", "#pio_tmp_1.posix"],
                  "files kept with HDF5_NOCLEANUP", r)
        with open(data_file(d, 1, "posix"), "rb") as fh:
            expect_eq(fh.read(), bytes([1] * 8192), "last run (1 process) left its data")


@case
def existing_file_untouched():
    with TempDir() as d:
        victim = data_file(d, 1, "mpiio")
        with open(victim, "wb") as fh:
            fh.write(b"precious")
        os.utime(victim, (1000000000, 1000000000))
        r = run(2, "-e 8K", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 2, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: data file '%s' already exists and was not created by this run (an "
            "earlier run with HDF5_NOCLEANUP may have left it); remove it or give --overwrite"
            % victim], "message", r)
        expect_eq(r.out, "", "stdout", r)
        with open(victim, "rb") as fh:
            expect_eq(fh.read(), b"precious", "content of the existing file")
        expect_eq(os.stat(victim).st_mtime, 1000000000, "mtime of the existing file")
        expect_eq(listing(d), ["#pio_tmp_1.mpio"], "files in the directory", r)
        # Another API's run does not care about the .mpio file.
        r = run(2, "-e 8K -A posix,phdf5", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status without MPI-IO", r)
        expect_eq(listing(d), ["#pio_tmp_1.mpio"], "files after a run without MPI-IO", r)
        # --overwrite takes the file over: written, verified, and (no NOCLEANUP) removed.
        r = run(2, "-e 8K -A mpiio --overwrite -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status with --overwrite", r)
        expect_eq(listing(d), [], "files after --overwrite", r)


def logical_2d(e, b, nprocs, interleaved):
    """The S x S dataset of the guide's figures, row-major: contiguous rows
    [r*e, (r+1)*e) belong to r; interleaved column blocks of B go round-robin."""
    side = e * nprocs
    return bytes((c // b) % nprocs + 1 if interleaved else r // e + 1
                 for r in range(side) for c in range(side))


def chunked_2d(logical, side, b):
    """The chunking emulation of SPEC 5.2: B x B chunks stored contiguously
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
    the raw-data area of the .h5 file (chunks from offset 3688, SPEC 8)."""
    for coll in ("", " -C"):
        raw = figure_2d(2, "-B 4 -e 4 -p 2 -P 2 -x 4 -X 4 -g -c" + coll, 4, 4, chunk=True)
        expect_eq(raw["phdf5"][3688:3688 + 64], raw["posix"], "HDF5 chunk area" + coll)


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


def numbers(lines, label):
    return [int(re.search(r"\d+", l[len(label):]).group()) for l in lines if l.startswith(label)]


@case
def loops_visit_documented_sizes():
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d}
        r = run(4, "-e 8 -B 4 -x 4 -X 8 -A posix", env=env)
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(numbers(r.lines, "Number of processors = "), [4, 2, 1], "process counts", r)
        expect_eq(numbers(r.lines, "Transfer Buffer Size: "), [4, 8] * 3, "transfer sizes", r)
        r = run(4, "-e 8 -B 4 -x 4 -X 8 -A posix -p 2", env=env)
        expect_eq(numbers(r.lines, "Number of processors = "), [4, 2], "-p 2", r)
        r = run(4, "-e 8 -B 4 -x 4 -X 8 -A posix -P 3", env=env)
        expect_eq(numbers(r.lines, "Number of processors = "), [3, 1], "-P 3", r)
        r = run(1, "-e 48 -B 3 -x 3 -X 12 -A mpiio,posix -D v", env=env)
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(numbers(r.lines, "Transfer Buffer Size: "), [3, 6, 12], "-x 3 -X 12", r)
        apis = [l.strip() for l in r.lines if l.strip().startswith("IO API = ")]
        expect_eq(apis, ["IO API = POSIX", "IO API = MPIO"] * 3, "API order", r)
        expect_eq(listing(d), [], "files left", r)


@case
def engine_with_null_backend():
    """The engine knows no API: with the null backend in every slot it runs the
    whole sweep and report, and no data file appears. With -D v every read
    fails verification: the buffer is poisoned before each read, so a read
    that moves no data can never pass."""
    with TempDir() as d:
        exe = os.environ["ENGINE_NULL"]
        r = run(3, "-e 8 -B 2 -x 2 -X 8 -i 2 -o %s/report" % d, env={"HDF5_PARAPREFIX": d},
                exe=exe)
        expect_eq(r.rc, 0, "exit status", r)
        with open(os.path.join(d, "report")) as fh:
            lines = fh.read().splitlines()
        expect_eq(numbers(lines, "Number of processors = "), [3, 1], "process counts", r)
        expect_eq(numbers(lines, "Transfer Buffer Size: "), [2, 4, 8] * 2, "transfer sizes", r)
        expect_eq(len([l for l in lines if l.endswith("(2 iteration(s)):")]), 4 * 3 * 3 * 2,
                  "result blocks: 4 measures x 3 APIs x 3 sizes x 2 process counts", r)
        expect_eq(listing(d), ["report"], "files", r)
        r = run(3, "-e 8 -B 2 -x 2 -X 8 -i 2 -A mpiio -D v", env={"HDF5_PARAPREFIX": d},
                exe=exe)
        expect_eq(r.rc, 1, "exit status with -D v", r)
        # (3 + 1 processes) x 3 transfer sizes x 2 iterations
        expect_eq(len(r.h5perf_err), 4 * 3 * 2, "one mismatch line per process and run", r)
        expect_eq(r.h5perf_err[0], "h5perf: rank 0: verify '%s' (null, 3 processes, transfer "
                  "size 2, iteration 1): 8 bytes differ, the first at offset 0: expected 1, "
                  "found 254" % data_file(d, 1, "mpiio"), "first mismatch line", r)
        expect_eq(listing(d), ["report"], "files", r)


@case
def tool_output_example():
    """The guide's Tool Output command completes with the structure of SPEC 7."""
    with TempDir() as d:
        r = run(3, "-A phdf5 -B 2000 -e 8000 -p 3 -P 3 -x 4000 -X 4000 -i 3", cwd=d)
        expect_eq(r.rc, 0, "exit status", r)
        labels = [l.split(":")[0].strip() for l in r.lines if "Throughput:" in l]
        expect_eq(labels, ["Maximum Throughput", "Average Throughput", "Minimum Throughput"] * 4,
                  "throughput lines", r)
        blocks = [l.strip() for l in r.lines if l.endswith("(3 iteration(s)):")]
        expect_eq(blocks, ["Write (3 iteration(s)):", "Write Open-Close (3 iteration(s)):",
                           "Read (3 iteration(s)):", "Read Open-Close (3 iteration(s)):"],
                  "result blocks", r)
        expect_eq(listing(d), [], "files left", r)


@case
def report_to_file():
    with TempDir() as d:
        rep = os.path.join(d, "report.txt")
        r = run(2, ["-e", "8K", "-A", "posix", "-o", rep, "-D", "1"],
                env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(r.out, "", "stdout with -o", r)
        with open(rep) as fh:
            text = fh.read().splitlines()
        expect(text[0].startswith("HDF5 Library: Version "), "first report line", r)
        expect_eq(text.count("rank 0: ==== End of Parameters ===="), 1, "rank 0 header end")
        expect_eq(text.count("rank 1: ==== End of Parameters ===="), 1, "rank 1 header end")
        files = [l for l in text if "data filename=" in l]
        name = data_file(d, 1, "posix")
        expect_eq(files[:2], ["rank 0: data filename=" + name, "rank 1: data filename=" + name],
                  "per-rank lines in rank order")
        expect_eq(listing(d), ["report.txt"], "files left", r)


@case
def debug_level_4_lines():
    """-D 4: "Timer details:" once per iteration and each rank's Debug lines
    (both phases labelled do_write, as the original), gathered in rank order."""
    with TempDir() as d:
        r = run(2, "-e 8 -B 2 -x 4 -X 4 -p 2 -A posix -I -D 4", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        i = r.lines.index("        IO API = POSIX")
        name = data_file(d, 1, "posix")
        expect_eq(r.lines[i + 1:i + 8], [
            "Timer details:",
            "rank 0: data filename=" + name,
            "0: Debug(do_write): buf_size=4, bytes_begin=0, bytes_count=8",
            "0: Debug(do_write): buf_size=4, bytes_begin=0, bytes_count=8",
            "rank 1: data filename=" + name,
            "1: Debug(do_write): buf_size=4, bytes_begin=2, bytes_count=8",
            "1: Debug(do_write): buf_size=4, bytes_begin=2, bytes_count=8"], "-D 4 lines", r)


@case
def help_exits_zero():
    r = run(2, "-h")
    expect_eq(r.rc, 0, "exit status", r)
    expect_eq(r.err.strip(), "", "stderr", r)
    for opt in ("--align", "--api", "--block-size", "--chunk", "--collective", "--num-dsets",
                "--debug", "--num-bytes", "--num-files", "--geometry", "--num-iterations",
                "--interleaved", "--mpi-posix", "--output", "--min-num-processes",
                "--max-num-processes", "--threshold", "--write-only", "--min-xfer-size",
                "--max-xfer-size", "--overwrite", "--help", "HDF5_NOCLEANUP", "HDF5_MPI_INFO",
                "HDF5_PARAPREFIX"):
        expect(opt in r.out, "help mentions " + opt, r)
    expect_eq(r.out.count("usage:"), 1, "help printed once (rank 0 only)", r)


@case
def mpi_info_header():
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "HDF5_MPI_INFO": " romio_cb_write = enable; ;cb_nodes=1;"}
        r = run(2, "-e 8K -B 4K -p 2 -C -D v", env=env)
        expect_eq(r.rc, 0, "exit status", r)
        i = r.lines.index("object has 2 items")
        expect_eq(r.lines[i + 1:i + 3], ["romio_cb_write=enable", "cb_nodes=1"], "items", r)
        r = run(2, "-e 8K -B 4K -p 2 -A posix", env={"HDF5_PARAPREFIX": d, "HDF5_MPI_INFO": ""})
        expect(r.lines.count("object has 0 items") == 1, "empty HDF5_MPI_INFO", r)


@case
def prefix_user_subdirectory():
    with TempDir() as d:
        r = run(2, "-e 8K -A posix -D 1", env={"HDF5_PARAPREFIX": d + "//", "USER": "alice",
                                               "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status", r)
        expect(("rank 0: Env HDF5_PARAPREFIX=%s//" % d) in r.lines, "prefix printed verbatim", r)
        name = "%s/alice/#pio_tmp_1.posix" % d
        expect(("rank 1: data filename=" + name) in r.lines, "name with $USER, slashes collapsed", r)
        expect_eq(listing(d), ["alice/#pio_tmp_1.posix"], "files", r)


@case
def io_failure_file_size_limit():
    """A write that fails (file-size limit) stops the run everywhere: one line
    per failing process, this run's files removed, exit 1."""
    with TempDir() as d:
        # 8 MiB (16384 blocks of 512 bytes for sh's ulimit): Open MPI's own
        # start-up files need a few MiB; rank 1's first write starts at 8 MiB.
        r = run(2, "-e 8M -B 1M -x 4M -X 4M -p 2 -A posix,mpiio", env={"HDF5_PARAPREFIX": d},
                wrap="ulimit -f 16384")
        expect_eq(r.rc, 1, "exit status", r)
        name = data_file(d, 1, "posix")
        expect_eq(r.h5perf_err, [
            "h5perf: rank 1: POSIX write '%s' at offset 8388608, length 4194304: File too large"
            % name], "failure lines", r)
        expect(not any("IO API = MPIO" in l for l in r.lines), "the sweep stopped", r)
        expect_eq(listing(d), [], "files left after the failure", r)


@case
def verify_mismatch_reported():
    """-D v: bytes corrupted on their way back (LD_PRELOAD shim on pread) are
    reported per failing process with offset, values and count; the sweep
    goes on, no read throughput is printed for the failed run, exit 1."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["CORRUPT_PREAD"],
               "H5PERF_CORRUPT_SUFFIX": ".posix", "H5PERF_CORRUPT_OFFSET": "13",
               "H5PERF_CORRUPT_COUNT": "3"}
        r = run(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -i 2 -A posix,mpiio -D v", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        name = data_file(d, 1, "posix")
        line = ("h5perf: rank 1: verify '%s' (POSIX, 3 processes, transfer size 4, iteration %d):"
                " 3 bytes differ, the first at offset 13: expected 2, found 253")
        expect_eq(r.h5perf_err, [line % (name, 1), line % (name, 2)], "mismatch lines", r)
        i = r.lines.index("        IO API = POSIX")
        expect_eq(r.lines[i + 9:i + 14], [
            "            Read (2 iteration(s)):",
            "                FAILED: data verification (see stderr)",
            "            Read Open-Close (2 iteration(s)):",
            "                FAILED: data verification (see stderr)",
            "        IO API = MPIO"], "report of the failed run", r)
        expect(r.lines[i + 1] == "            Write (2 iteration(s)):", "write figures kept", r)
        expect_eq(listing(d), [], "files left", r)
        # Without -D v nothing is checked: the same corruption goes unnoticed.
        r = run(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -A posix", env=env)
        expect_eq(r.rc, 0, "exit status without -D v", r)


@case
def io_error_on_one_process():
    """An I/O error on one process only: every process stops, one line for the
    failing process, files removed, exit 1, no hang."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".posix", "H5PERF_FAULT_EIO_RANK": "2"}
        r = run(3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix,mpiio", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 2: POSIX write '%s' at offset 131072, length 32768: "
            "Input/output error" % data_file(d, 1, "posix")], "failure lines", r)
        expect_eq(listing(d), [], "files left", r)


@case
def watchdog_aborts_a_hung_run():
    """A process that failed waits --watchdog seconds for the others (one is
    stuck in a write that never returns), then prints its error, removes this
    run's files and aborts the job instead of hanging."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".posix", "H5PERF_FAULT_EIO_RANK": "1",
               "H5PERF_FAULT_HANG_RANK": "0"}
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2 -A posix --watchdog 3", env=env,
                timeout=60)
        expect(r.rc != 0, "non-zero exit status", r)
        name = data_file(d, 1, "posix")
        expect_eq(r.h5perf_err, [
            "h5perf: rank 1: POSIX write '%s' at offset 65536, length 32768: "
            "Input/output error" % name,
            "h5perf: rank 1: the processes did not agree on this failure within 3 s "
            "(--watchdog): aborting the job"], "watchdog lines", r)
        expect_eq(listing(d), [], "files left", r)


@case
def overwrite_never_follows_symlinks():
    with TempDir() as d:
        victim = os.path.join(d, "victim")
        with open(victim, "wb") as fh:
            fh.write(b"precious")
        link = data_file(d, 1, "posix")
        os.symlink(victim, link)
        r = run(2, "-e 8K -A posix --overwrite", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 2, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: data file '%s' exists and is not a regular file (a symbolic link?); "
            "h5perf never writes through it, even with --overwrite: remove it" % link],
            "message", r)
        with open(victim, "rb") as fh:
            expect_eq(fh.read(), b"precious", "the symlink's target")
        expect(os.path.islink(link), "the symlink is left alone", r)


@case
def report_write_failure():
    """A report that cannot be written is a failed run, not a silent success."""
    with TempDir() as d:
        r = run(2, "-e 8K -A posix -o /dev/full", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 1, "exit status", r)
        expect_eq(r.h5perf_err, ["h5perf: cannot write the report to '/dev/full': "
                                 "No space left on device"], "message", r)
        expect_eq(listing(d), [], "files left", r)


FIG2_ARGS = "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4"


def snapshot(d):
    out = {}
    for name in listing(d):
        path = os.path.join(d, name)
        with open(path, "rb") as fh:
            out[name] = (fh.read(), os.stat(path).st_mtime_ns)
    return out


@case
def read_only_round_trip():
    """A write-only run with HDF5_NOCLEANUP, then --read-only -D v: only read
    blocks are reported, every byte verifies, the files are left untouched."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}
        r = run(3, FIG2_ARGS + " -d 2 -F 2 -w", env=env)
        expect_eq(r.rc, 0, "exit status of the write-only run", r)
        before = snapshot(d)
        expect_eq(len(before), 6, "files written", r)
        r = run(3, FIG2_ARGS + " -d 2 -F 2 --read-only -D v -i 2", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status of the read-only run", r)
        blocks = [l.strip() for l in r.lines if l.endswith("iteration(s)):")]
        expect_eq(blocks, ["Read (2 iteration(s)):", "Read Open-Close (2 iteration(s)):"] * 3,
                  "result blocks", r)
        expect_eq(snapshot(d), before, "files after the read-only run (content and mtime)", r)


@case
def read_only_detects_corruption():
    with TempDir() as d:
        r = run(3, FIG2_ARGS + " -w", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status of the write-only run", r)
        for api, off in (("posix", 13), ("mpiio", 21), ("phdf5", 2048 + 5)):
            with open(data_file(d, 1, api), "r+b") as fh:
                fh.seek(off)
                byte = fh.read(1)[0]
                fh.seek(off)
                fh.write(bytes([byte ^ 0xff]))
        r = run(3, FIG2_ARGS + " --read-only -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 1, "exit status", r)
        line = ("h5perf: rank %d: verify '%s' (%s, 3 processes, transfer size 4, iteration 1): "
                "1 bytes differ, the first at offset %d: expected %d, found %d")
        expect_eq(r.h5perf_err, [
            line % (1, data_file(d, 1, "posix"), "POSIX", 13, 2, 253),
            line % (2, data_file(d, 1, "mpiio"), "MPI-IO", 21, 3, 252),
            line % (0, data_file(d, 1, "phdf5"), "HDF5", 5, 1, 254)], "mismatch lines", r)
        expect_eq(len(listing(d)), 3, "files kept", r)


@case
def read_only_refuses_missing_or_short_files():
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d}
        r = run(3, FIG2_ARGS + " --read-only -A posix", env=env)
        expect_eq(r.rc, 2, "exit status, no file", r)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' does not exist (first run the same options "
            "with -w and HDF5_NOCLEANUP set)" % data_file(d, 1, "posix")], "message", r)
        r = run(3, FIG2_ARGS + " -w", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status of the write-only run", r)
        os.truncate(data_file(d, 1, "mpiio"), 20)
        os.truncate(data_file(d, 1, "phdf5"), 1000)
        r = run(3, FIG2_ARGS + " --read-only -A mpiio -D v", env=env)
        expect_eq(r.rc, 2, "exit status, short file", r)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' holds 20 bytes, fewer than the 24 this run "
            "reads (written with other options?)" % data_file(d, 1, "mpiio")], "message", r)
        r = run(3, FIG2_ARGS + " --read-only -A phdf5 -D v", env=env)
        expect_eq(r.rc, 2, "exit status, truncated HDF5 file", r)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' is not a readable HDF5 file (written with "
            "other options?)" % data_file(d, 1, "phdf5")], "message", r)
        r = run(2, "-B 2 -e 8 -p 2 -P 2 -x 4 -X 4 --read-only -A posix -d 2", env=env)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' holds 24 bytes, fewer than the 32 this run "
            "reads (written with other options?)" % data_file(d, 1, "posix")],
            "other options", r)
        expect_eq(sorted(listing(d)), ["#pio_tmp_1.h5", "#pio_tmp_1.mpio", "#pio_tmp_1.posix"],
                  "files kept", r)


@case
def fault_full_file_system():
    """A full file system (1 MiB tmpfs) in every API, independent and
    collective: exit 1, one line per failing process, no data file left, no
    hang. ompio reports success with a short count or none at all; the
    count checks and the size check after the write phase catch it."""
    with TempDir() as d:
        mnt = os.path.join(d, "mnt")
        mounted_tmpfs(mnt, "1m")
        try:
            for api in ("posix", "mpiio", "phdf5"):
                for extra in ("", " -C", " -C -I"):
                    r = run(2, "-e 1M -B 64K -x 256K -X 256K -p 2 -A %s%s" % (api, extra),
                            env={"HDF5_PARAPREFIX": mnt})
                    what = "%s%s" % (api, extra)
                    expect_eq(r.rc, 1, "exit status (%s)" % what, r)
                    expect(r.h5perf_err and all(re.match(r"h5perf: rank [01]: ", l)
                                                for l in r.h5perf_err),
                           "one line per failing process (%s)" % what, r)
                    expect_eq(listing(mnt), [], "files left (%s)" % what, r)
        finally:
            unmount(mnt)


@case
def fault_silent_data_loss():
    """ompio's collective writes on a full disk can report success for every
    byte while the file stays short (seen: 65536 or 147456 of 196608 bytes);
    the size check after the write phase turns that into exit 1."""
    with TempDir() as d:
        mnt = os.path.join(d, "mnt")
        mounted_tmpfs(mnt, "64k")
        try:
            r = run(3, "-A mpiio -C -w -e 64K -B 16K -x 16K -X 16K", env={"HDF5_PARAPREFIX": mnt})
            expect_eq(r.rc, 1, "exit status", r)
            name = re.escape(data_file(mnt, 1, "mpiio"))
            size = ("h5perf: rank 0: MPI-IO check size of '%s': the file holds \\d+ bytes after "
                    "the write phase instead of 196608: data was lost although every write "
                    "reported success \\(file system full\\?\\)$" % name)
            short = "h5perf: rank \\d: MPI-IO write '%s' .*(short write|MPI_ERR)" % name
            expect(r.h5perf_err and all(re.match(size, l) or re.match(short, l)
                                        for l in r.h5perf_err), "failure lines", r)
            expect_eq(listing(mnt), [], "files left", r)
        finally:
            unmount(mnt)


@case
def fault_read_only_mount():
    """As root, permission bits do not stop writes; the probe does."""
    with TempDir() as d:
        mnt = os.path.join(d, "ro")
        mounted_tmpfs(mnt, "1m", read_only=True)
        try:
            r = run(2, "-e 8K -A posix", env={"HDF5_PARAPREFIX": mnt})
            expect_eq(r.rc, 2, "exit status", r)
            expect_eq(r.h5perf_err, ["h5perf: HDF5_PARAPREFIX '%s': cannot create files in "
                                     "'%s': Read-only file system" % (mnt, mnt)], "message", r)
        finally:
            unmount(mnt)


def ranks_of(prefix):
    """PIDs of the h5perf processes whose HDF5_PARAPREFIX is prefix."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % pid, "rb") as fh:
                env = fh.read().split(b"\0")
            exe = os.readlink("/proc/%s/exe" % pid)
        except OSError:
            continue
        if ("HDF5_PARAPREFIX=" + prefix).encode() in env and exe == os.path.realpath(h5perf()):
            pids.append(int(pid))
    return pids


def interrupted_run(d, kill):
    """Starts a long run, waits for its data file, then kill(mpiexec, ranks);
    returns mpiexec's status once every rank is gone."""
    args = [h5perf(), "-e", "256M", "-B", "1M", "-x", "1M", "-X", "1M", "-i", "100",
            "-A", "posix", "-p", "2"]
    p = subprocess.Popen(mpiexec_command(2, args), env=base_env({"HDF5_PARAPREFIX": d}),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while not listing(d) and time.time() < deadline and p.poll() is None:
            time.sleep(0.1)
        expect(listing(d) != [], "the run created its data file")
        kill(p, ranks_of(d))
        rc = p.wait(timeout=60)
        deadline = time.time() + 30
        while ranks_of(d) and time.time() < deadline:
            time.sleep(0.1)
        expect_eq(ranks_of(d), [], "h5perf processes left running")
        return rc
    finally:
        if p.poll() is None:
            p.kill()


@case
def fault_signals_to_mpiexec():
    """SIGINT and SIGTERM to mpiexec mid-run: every rank ends, this run's files
    are removed, the run does not report success."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        with TempDir() as d:
            rc = interrupted_run(d, lambda p, ranks: p.send_signal(sig))
            expect(rc != 0, "mpiexec's status after %s: %d" % (sig.name, rc))
            expect_eq(listing(d), [], "files left after %s" % sig.name)


@case
def fault_process_killed():
    """One rank killed (SIGKILL) mid-run: the job ends, the surviving ranks
    remove this run's files, nothing keeps running."""
    with TempDir() as d:
        rc = interrupted_run(d, lambda p, ranks: os.kill(max(ranks), signal.SIGKILL))
        expect(rc != 0, "mpiexec's status: %d" % rc)
        expect_eq(listing(d), [], "files left")


def load(np, extra):
    with TempDir() as d:
        for api in ("posix", "mpiio", "phdf5"):
            r = run(np, "-e 4K -B 1K -x 2K -X 4K -p %d -D v -A %s %s" % (np, api, extra),
                    env={"HDF5_PARAPREFIX": d}, timeout=280)
            expect_eq(r.rc, 0, "exit status (%d processes, %s %s)" % (np, api, extra), r)
            expect_eq(len([l for l in r.lines if "Throughput:" in l]), 2 * 4 * 3,
                      "throughput lines", r)
        expect_eq(listing(d), [], "files left")


@case
def load_16_processes():
    load(16, "")
    load(16, "-C -I")


@case
def load_64_processes():
    load(64, "")
    load(64, "-C -I")


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print("usage: cases.py --list | cases.py NAME", file=sys.stderr)
        sys.exit(2)
    try:
        CASES[sys.argv[1]]()
    except Skip as e:
        print("SKIP %s: %s" % (sys.argv[1], e))
        sys.exit(SKIP)
    except AssertionError as e:
        print("FAIL %s: %s" % (sys.argv[1], e))
        sys.exit(1)
    print("PASS " + sys.argv[1])
