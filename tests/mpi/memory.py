"""MPI cases about memory: the transfer buffers of a host's processes,
summed, against what the host has available (a faked /proc/meminfo, through
the faults shim) and against a memory cgroup made for the test (root with a
writable cgroup file system only, skipped otherwise). A run that does not fit
is refused before any file exists (exit 2, one line); --no-memory-check lets
it go ahead.
"""
import os
import re
import socket
import subprocess

import map as map_cases
from common import Skip, case
from harness import (Run, TempDir, base_env, built_apis, expect, expect_eq, h5perf, listing,
                     mpiexec_command, run)


def fake_meminfo(d, kib):
    path = os.path.join(d, "meminfo")
    with open(path, "w") as fh:
        fh.write("MemTotal: 24000000 kB\nMemFree: 1 kB\nMemAvailable: %d kB\n" % kib)
    return {"LD_PRELOAD": os.environ["FAULTS"], "H5PERF_FAULT_MEMINFO": path}


def host_line(lead, each, procs, need, have):
    return ("h5perf: %s: the largest transfer buffer is %s per process; the %d process%s on "
            "host '%s' need %s, and it has %s available; use smaller transfer sizes or fewer "
            "processes per host, or give --no-memory-check"
            % (lead, each, procs, "" if procs == 1 else "es", socket.gethostname(), need, have))


@case
def memory_buffers_must_fit_the_host():
    """2 processes with 1 MiB buffers on a host with 1.5 MiB available: refused
    (1D by -X, 2D by its B x X buffers; by the default -X, equal to -e);
    processes that no run uses (-P 1) do not count; --no-memory-check runs."""
    with TempDir() as meminfo_dir, TempDir() as d:
        env = dict(fake_meminfo(meminfo_dir, 1536), HDF5_PARAPREFIX=d)
        r = run(2, "-e 1M -x 1M -X 1M -B 1M -A posix -w", env=env)
        expect_eq(r.rc, 2, "exit status", r)
        expect_eq(r.h5perf_err, [host_line("-X '1M'", "1 MiB", 2, "2 MiB", "1.5 MiB")],
                  "message, 1D", r)
        r = run(2, "-g -e 1K -B 1K -x 1K -X 1K -A posix -w", env=env)
        expect_eq(r.h5perf_err, [host_line("-X '1K' with -B '1K'", "1 MiB", 2, "2 MiB",
                                           "1.5 MiB")], "message, 2D", r)
        r = run(2, "--num-bytes=1M -B 512K -A posix -w", env=env)
        expect_eq(r.h5perf_err, [host_line("--num-bytes '1M' (the default -X)", "1 MiB", 2,
                                           "2 MiB", "1.5 MiB")], "message, default -X", r)
        expect_eq(listing(d), [], "files created", r)
        r = run(2, "-e 1M -x 1M -X 1M -B 1M -A posix -w -P 1", env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "one process used", r)
        r = run(2, "-e 1M -x 1M -X 1M -B 1M -A posix -w --no-memory-check", env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "--no-memory-check", r)
        expect_eq(listing(d), [], "files left", r)


def own_memory_cgroup():
    """The directory of this process's cgroup v1 memory controller, or None."""
    try:
        with open("/proc/self/cgroup") as fh:
            for line in fh:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                if "memory" in controllers.split(","):
                    return "/sys/fs/cgroup/memory" + path
    except OSError:
        pass
    return None


class MemoryCgroup:
    """A cgroup v1 memory controller below this process's own, with a
    limit, and children t0, t1 without one (a batch job and its tasks);
    removed on exit. Raises Skip where none can be made."""

    def __init__(self, limit):
        parent = own_memory_cgroup()
        if os.geteuid() != 0 or not parent or not os.path.isdir(parent):
            raise Skip("needs root and a cgroup v1 memory controller")
        self.path = os.path.join(parent, "h5perf-test-%d" % os.getpid())
        self.rel = self.path[len("/sys/fs/cgroup/memory"):]
        try:
            os.mkdir(self.path)
            with open(os.path.join(self.path, "memory.limit_in_bytes"), "w") as fh:
                fh.write(str(limit))
            for t in ("t0", "t1"):
                os.mkdir(os.path.join(self.path, t))
        except OSError as e:
            self.remove()
            raise Skip("cannot make a memory cgroup here: %s" % e)

    def children(self):
        return ["t0", "t1"]

    def remove(self):
        for t in self.children() + [""]:
            try:
                os.rmdir(os.path.join(self.path, t))
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False


class RankCgroups(MemoryCgroup):
    """A cgroup v1 memory controller below this process's own, in which each
    rank of a run makes a child of its own, r<rank>, with a limit (-1: none)
    and moves itself into it before h5perf starts (wrap()): every process
    limited alone, as a batch system's per-task limit would. Removed on
    exit. Raises Skip where none can be made."""

    def __init__(self, limit):
        parent = own_memory_cgroup()
        if os.geteuid() != 0 or not parent or not os.path.isdir(parent):
            raise Skip("needs root and a cgroup v1 memory controller")
        self.path = os.path.join(parent, "h5perf-test-ranks-%d" % os.getpid())
        self.limit = limit
        try:
            os.mkdir(self.path)
        except OSError as e:
            raise Skip("cannot make a memory cgroup here: %s" % e)

    def wrap(self):
        return ('r=${OMPI_COMM_WORLD_RANK:-$PMI_RANK}; c="%s/r$r"; mkdir -p "$c" && '
                'echo %d > "$c/memory.limit_in_bytes" && echo $$ > "$c/cgroup.procs"'
                % (self.path, self.limit))

    def peaks(self):
        """Each rank's cgroup's most memory used, by rank."""
        out = {}
        for name in self.children():
            with open(os.path.join(self.path, name, "memory.max_usage_in_bytes")) as fh:
                out[int(name[1:])] = int(fh.read())
        return out

    def children(self):
        return [n for n in (os.listdir(self.path) if os.path.isdir(self.path) else [])
                if n.startswith("r") and n[1:].isdigit()]


def refused_in(r, cgroup, procs, need):
    """The one refusal line for cgroup, whatever it allows (less than its
    limit: the processes already use some)."""
    want = (r"h5perf: -X '(\d+M)': the largest transfer buffer is \d+ MiB per process; the %d "
            r"process%s in memory cgroup '%s' on host '%s' need%s %s, and it allows "
            r"([0-9.]+) (KiB|MiB) more; use smaller transfer sizes or fewer processes per host, "
            r"or give --no-memory-check$"
            % (procs, "" if procs == 1 else "es", re.escape(cgroup), re.escape(socket.gethostname()),
               "s" if procs == 1 else "", re.escape(need)))
    m = len(r.h5perf_err) == 1 and re.match(want, r.h5perf_err[0])
    expect(m and float(m.group(2)) < (256 if m.group(3) == "MiB" else 256 * 1024),
           "the refusal for %s" % cgroup, r)


@case
def memory_buffers_must_fit_the_cgroup():
    """Processes in a memory cgroup limited to 256 MiB (a batch job's limit):
    2 x 128 MiB of buffers do not fit what it allows (less than its limit,
    since the processes already use some), 2 x 32 MiB do (2 x 64 MiB left
    too little for the sanitizer build's own memory once PnetCDF was linked
    in: the kernel killed it). With each process in a task cgroup of its own
    below the job's (as Slurm makes them), the job's limit still counts
    both."""
    with MemoryCgroup(256 << 20) as cg, TempDir() as d:
        def run_in(args):
            argv = mpiexec_command(2, [h5perf()] + args.split())
            p = subprocess.run(["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"',
                                cg.path] + argv, env=base_env({"HDF5_PARAPREFIX": d}),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=150,
                               stdin=subprocess.DEVNULL)
            return Run(p.returncode, p.stdout.decode(errors="replace"),
                       p.stderr.decode(errors="replace"))
        r = run_in("-e 128M -x 128M -X 128M -B 128M -A posix -w")
        expect_eq(r.rc, 2, "exit status", r)
        refused_in(r, cg.rel, 2, "256 MiB")
        expect_eq(listing(d), [], "files created", r)
        r = run_in("-e 32M -x 32M -X 32M -B 32M -A posix -w")
        expect_eq((r.rc, r.h5perf_err), (0, []), "buffers that fit", r)
        # Rank r moves itself into task cgroup t<r> before h5perf starts.
        task = ('r=${OMPI_COMM_WORLD_RANK:-$PMI_RANK}; echo $$ > "%s/t$r/cgroup.procs"'
                % cg.path)
        r = run(2, "-e 128M -x 128M -X 128M -B 128M -A posix -w", env={"HDF5_PARAPREFIX": d},
                wrap=task)
        expect_eq(r.rc, 2, "exit status, a task cgroup per process", r)
        refused_in(r, cg.rel, 2, "256 MiB")
        r = run(2, "-e 32M -x 32M -X 32M -B 32M -A posix -w", env={"HDF5_PARAPREFIX": d},
                wrap=task)
        expect_eq((r.rc, r.h5perf_err), (0, []), "buffers that fit, task cgroups", r)


@case
def memory_uneven_buffers_count_per_process():
    """Uneven buffers are summed process by process, not as process 0's
    times the count: with --distribution imbalance:1 process 0 holds no
    particle and process 1 twice the mean (256 MiB), which does not fit in a
    memory cgroup of 256 MiB. The run is refused with the memory line (it
    was killed by the kernel, exit 137, when the check planned process 0's
    buffer only); with --no-memory-check the kernel still kills it."""
    with MemoryCgroup(256 << 20) as cg, TempDir() as d:
        args = ("--pattern particles --particles 33554432 --vars 1 --distribution imbalance:1 "
                "-w -A posix --layout fpp")
        argv = mpiexec_command(2, [h5perf()] + args.split())
        p = subprocess.run(["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', cg.path] +
                           argv, env=base_env({"HDF5_PARAPREFIX": d}), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=150, stdin=subprocess.DEVNULL)
        r = Run(p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"))
        want = (r"h5perf: --distribution 'imbalance:1' over 2 processes: the largest variable's "
                r"particles is 256 MiB per process; the 2 processes in memory cgroup '%s' on host "
                r"'%s' need 256 MiB, and it allows ([0-9.]+) (KiB|MiB) more; use more processes, "
                r"on more hosts, or give --no-memory-check$"
                % (re.escape(cg.rel), re.escape(socket.gethostname())))
        expect_eq(r.rc, 2, "exit status", r)
        expect(len(r.h5perf_err) == 1 and re.match(want, r.h5perf_err[0]), "the refusal", r)
        expect_eq(listing(d), [], "files created", r)


def run_in_cgroup(cg, args, d, np=2, timeout=150):
    """h5perf under mpiexec, mpiexec and its processes inside cgroup cg."""
    argv = mpiexec_command(np, [h5perf()] + args.split())
    p = subprocess.run(["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', cg.path] + argv,
                       env=base_env({"HDF5_PARAPREFIX": d}), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, stdin=subprocess.DEVNULL)
    return Run(p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"))


MAPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cli", "maps")


@case
def memory_map_declared_processes_checked_on_their_line():
    """A 600-byte text map declaring 1,048,576 processes and 64 arrays, run
    by 2 processes in a memory cgroup of 256 MiB: refused with one line at
    its 'processes' line (it was refused only once the whole map was built,
    1.6 GB on process 0, so the kernel killed it here, exit 137)."""
    path = os.path.join(MAPS, "million.txt")
    with MemoryCgroup(256 << 20) as cg, TempDir() as d:
        r = run_in_cgroup(cg, "--pattern map --map %s" % path, d)
        expect_eq((r.rc, r.h5perf_err),
                  (2, ["h5perf: --map '%s': line 2: is a map for 1048576 processes, and the run "
                       "has 2; start 1048576 (mpiexec -n), with -p and -P left out or 1048576"
                       % path]), "exit status and the refusal", r)
        expect_eq(listing(d), [], "files created", r)


def single_element_runs(path, runs):
    """A text map of 2 processes, each with runs single-element runs of one
    1D array (every other element, process 0 at 4k, process 1 at 4k + 2)."""
    with open(path, "w") as fh:
        fh.write("processes 2\narray %d\n" % (4 * runs))
        for p in (0, 1):
            fh.write("%d: %s\n" % (p, " ".join("%d:1" % (4 * k + 2 * p) for k in range(runs))))


@case
def memory_map_plan_structures_count():
    """A map of 2^20 single-element runs (2^19 per process, 8 MiB of data,
    4 MiB of buffer per process) in a memory cgroup of 700 MiB: its plan's
    structures (boxes, slabs and runs) and the libraries' per piece (MPI-IO's
    datatypes, HDF5's selections, PnetCDF's varn) are counted. Through every
    API it is refused up front with the memory line, which names them (it
    was killed by the kernel, exit 137: the check counted the buffers only,
    while MPI-IO alone took 1.3 GB per process); through POSIX it runs within
    the limit (it was killed too: a plan was built per iteration and for the
    backends' check, and none was freed)."""
    with MemoryCgroup(700 << 20) as cg, TempDir() as m, TempDir() as d:
        path = os.path.join(m, "runs.map")
        single_element_runs(path, 1 << 19)
        r = run_in_cgroup(cg, "--pattern map --map %s -A %s --layout shared -w"
                          % (path, ",".join(built_apis())), d)
        want = (r"h5perf: --map '%s' over 2 processes: the largest selection of one variable is "
                r"4 MiB and its calls' MPI-IO file views up to 20 MiB \(40 bytes per contiguous "
                r"run\) and its plan's structures up to ([0-9.]+) MiB per process; the 2 processes "
                r"in memory cgroup '%s' on host '%s' need ([0-9.]+) (MiB|GiB), and it allows "
                r"([0-9.]+) (KiB|MiB) more; use a map with more processes, on more hosts, or give "
                r"--no-memory-check$"
                % (re.escape(path), re.escape(cg.rel), re.escape(socket.gethostname())))
        expect_eq(r.rc, 2, "exit status, every API", r)
        expect(len(r.h5perf_err) == 1 and re.match(want, r.h5perf_err[0]), "the refusal", r)
        expect_eq(listing(d), [], "files created", r)
        r = run_in_cgroup(cg, "--pattern map --map %s -A posix --layout shared -i 3" % path, d)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr, POSIX", r)
        expect_eq(listing(d), [], "files left", r)


@case
def memory_map_reading_counted():
    """A text map of 2^17 single-element runs per process (about 2 MB of
    text, some 90 MB to read: its entries, their boxes and rows) on a host
    faked to have 4 MiB available: process 0's reading is counted as it
    allocates and the map refused with one line naming --map and what the
    host has, before the run plan exists (it was read whole, and only the
    run plan's check refused it, with the buffers' line: a larger map was
    read until the kernel killed process 0); --no-memory-check reads it and
    runs."""
    with TempDir() as meminfo_dir, TempDir() as m, TempDir() as d:
        path = os.path.join(m, "runs.map")
        single_element_runs(path, 1 << 17)
        env = dict(fake_meminfo(meminfo_dir, 4096), HDF5_PARAPREFIX=d)
        r = run(2, "--pattern map --map %s -A posix -w" % path, env=env)
        expect_eq((r.rc, r.h5perf_err),
                  (2, ["h5perf: --map '%s': reading it on process 0 (its text, entries, boxes "
                       "and rows) needs more than 4 MiB, and host '%s' has 4 MiB available; use "
                       "a map of fewer entries, or give --no-memory-check"
                       % (path, socket.gethostname())]), "exit status and the refusal", r)
        expect_eq(listing(d), [], "files created", r)
        r = run(2, "--pattern map --map %s -A posix -w --no-memory-check" % path, env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "--no-memory-check", r)
        expect_eq(listing(d), [], "files left", r)


def interleaved_runs(path, procs, arrays, runs):
    """A text map of procs processes and arrays 1D arrays of 2 x procs x runs
    elements, each process with runs single-element runs of each array
    (process p's j-th at element 2 (procs j + p)). Returns the bytes of its
    whole wire form (map_wire.h): the header, 24 per process and array, 56
    per run."""
    with open(path, "w") as fh:
        fh.write("processes %d\n" % procs)
        for _ in range(arrays):
            fh.write("array %d\n" % (2 * procs * runs))
            for p in range(procs):
                fh.write("%d: %s\n" % (p, " ".join("%d:1" % (2 * (procs * j + p))
                                                   for j in range(runs))))
    return 4144 + 24 * procs * arrays + 56 * procs * arrays * runs


MAP_PARTS_PROCS, MAP_PARTS_ARRAYS, MAP_PARTS_RUNS = 16, 16, 6144
MAP_PARTS_LIMIT = 1280 << 20


@case
def memory_map_parts_per_process():
    """A text map of 16 processes, 16 arrays and 6,144 single-element runs
    per process and array (1,572,864 runs: 84 MiB in its wire form, more
    than the limit's 80 MiB per process) run by 16 processes with -D v
    through POSIX and MPI-IO in a memory cgroup of 1,280 MiB. Each process
    receives the common part and its own runs only (docs/map.md,
    "Memory"), and the run passes (876 MiB at most in the cgroup, measured,
    of which 127 MiB for 16 processes on a tiny map). When every process
    received the whole map and kept a copy (16 x 2 x 84 MiB) the kernel
    killed it (exit 137; 2.9 GB without a limit)."""
    with MemoryCgroup(MAP_PARTS_LIMIT) as cg, TempDir() as m, TempDir() as d:
        path = os.path.join(m, "parts.map")
        whole = interleaved_runs(path, MAP_PARTS_PROCS, MAP_PARTS_ARRAYS, MAP_PARTS_RUNS)
        expect(whole * MAP_PARTS_PROCS > MAP_PARTS_LIMIT,
               "the whole map on every process (%d bytes) is above the limit" % whole)
        r = run_in_cgroup(cg, "--pattern map --map %s -A posix,mpiio --layout shared -D v"
                          % path, d, np=MAP_PARTS_PROCS, timeout=170)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        expect_eq(listing(d), [], "files left", r)


@case
def memory_map_parts_fewer_processes_than_started():
    """A map of 3 processes run by 4 started, with -p 3 -P 3, through every
    API of the build, both layouts, collective, with -D v: process 3 takes
    no part in the run and receives the map's common part only (docs/map.md,
    "Memory"); every kept file holds what the map says. (Dividing the map
    among the 4 processes started was first refused as an internal error.)"""
    decomps, text = map_cases.text_map(3)
    apis = map_cases.apis_here()
    with TempDir() as m, TempDir() as d:
        path = os.path.join(m, "map.txt")
        with open(path, "w") as fh:
            fh.write(text)
        r = run(4, "--pattern map --map %s -A %s -p 3 -P 3 -C -D v" % (path, ",".join(apis)),
                env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}, timeout=170)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        map_cases.check_shared(d, decomps, [1, 1, 1], 8, apis)
        map_cases.check_fpp(d, decomps, [1, 1, 1], 8, apis, 3)


MAP_STREAM_PROCS, MAP_STREAM_COLS, MAP_STREAM_LIMIT = 16, 16384, 208 << 20


@case
def memory_map_streamed_each_process_limited():
    """A map of E3SM's F case's shape at 16 processes (D1, D2 of 16,384
    columns, D3 of 72 levels x 16,384), every run one element (1,212,416
    runs), in E3SM-IO's netCDF form, run by 16 processes each in a memory
    cgroup of its own of 208 MiB, through POSIX and MPI-IO with -D v, with
    and without the memory check. Process 0 reads one process's runs at a
    time and sends each its part (docs/map.md, "Memory"), and the run passes
    (166 MiB at most in any process's cgroup, measured). Reading the map
    whole, without the check the kernel killed process 0 while it built the
    map (exit 137; 260 MiB without a limit), and with it process 0 refused
    the map (its reading needs more than the 202 MiB the cgroup allows)."""
    if "pnetcdf" not in built_apis():
        raise Skip("this build of h5perf does not include PnetCDF, which reads E3SM-IO's "
                   "netCDF maps")
    with RankCgroups(MAP_STREAM_LIMIT) as cg, TempDir() as m, TempDir() as d:
        path = os.path.join(m, "f.nc")
        map_cases.e3sm_f_shape(path, MAP_STREAM_PROCS, MAP_STREAM_COLS)
        # Without the check first: reading the map whole is killed there.
        for extra in (" --no-memory-check", ""):
            r = run(MAP_STREAM_PROCS, "--pattern map --map %s -A posix,mpiio --layout shared -D v%s"
                    % (path, extra), env={"HDF5_PARAPREFIX": d}, wrap=cg.wrap(), timeout=170)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr" + extra, r)
            expect_eq(listing(d), [], "files left" + extra, r)
        peaks = cg.peaks()
        expect(len(peaks) == MAP_STREAM_PROCS and max(peaks.values()) < MAP_STREAM_LIMIT,
               "each process in its own cgroup, within it: %s" % peaks)
