"""MPI cases about what a successful run reports: the loops over process
counts, transfer sizes and APIs, the guide's Tool Output example, -o, -D 4,
-h, the MPI info dump, and the engine run with the null backend.
"""
import glob
import os
import re

from common import case, data_file
from harness import TempDir, expect, expect_eq, listing, run


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
    whole sweep and report, and no data file appears. It runs h5perf's own
    entry point (h5perf_run_with()), so the report opens with h5perf's
    parameter header, and no warning says it lacks a cleanup process or a
    watchdog. With -D v every read fails verification: the buffer is
    poisoned before each read, so a read that moves no data can never
    pass."""
    with TempDir() as d:
        exe = os.environ["ENGINE_NULL"]
        r = run(3, "-e 8 -B 2 -x 2 -X 8 -i 2 -o %s/report" % d, env={"HDF5_PARAPREFIX": d},
                exe=exe)
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(r.h5perf_err, [], "h5perf's lines on stderr (no warning)", r)
        with open(os.path.join(d, "report")) as fh:
            lines = fh.read().splitlines()
        expect_eq([l for l in lines if "Parameters ====" in l],
                  ["rank 0: ==== Parameters ====", "rank 0: ==== End of Parameters ===="],
                  "the parameter header", r)
        expect_eq(lines[2:8], ["rank 0: IO API=posix mpiio phdf5 ", "rank 0: Number of files=1",
                               "rank 0: Number of datasets=1", "rank 0: Number of iterations=2",
                               "rank 0: Number of processes=1:3",
                               "rank 0: Number of bytes per process per dataset=8"],
                  "the header's first parameters", r)
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
    """The guide's Tool Output command completes with the structure of docs/original.md §7."""
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
    # h5perf's own lines only: without /sys (a plain chroot) Open MPI's hwloc
    # complains on stderr of every launch.
    expect_eq(r.h5perf_err + r.page_cache, [], "h5perf's lines on stderr", r)
    # Every long option of the option table (rows in src/cli/*options.c and
    # src/pattern/*_options.c, the core's and the patterns' own), so that a
    # row that --help leaves out fails here.
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src")
    table = []
    for f in glob.glob(os.path.join(src, "cli", "*options.c")) + glob.glob(
            os.path.join(src, "pattern", "*_options.c")):
        with open(f) as fh:
            text = fh.read()
            table += re.findall(r'OPT_[A-Z]+\(\s*OPT_[A-Z_]+,\s*(?:"-.",|NULL,)\s*"(--[a-z-]+)"',
                                text)
            # A pattern's own rows (OPT_PATTERN_*: its settings struct, no
            # letter, then the name).
            table += re.findall(r'OPT_PATTERN_[A-Z]+\(\s*(?:struct [a-z_]+,\s*)?"(--[a-z-]+)"',
                                text)
    expect(len(table) >= 40, "options found in the option table: %d" % len(table))
    shown = set(re.findall(r"(--[a-z-]+)", r.out))
    for opt in table:
        expect(opt in shown, "help mentions " + opt, r)
    for var in ("HDF5_NOCLEANUP", "HDF5_MPI_INFO", "HDF5_PARAPREFIX"):
        expect(var in r.out, "help mentions " + var, r)
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
