#!/usr/bin/env python3
"""Runs every case of bad_input.txt: h5perf under mpiexec (2 processes) in an
empty directory that is also HDF5_PARAPREFIX, and checks the exit status, that
h5perf printed exactly the expected line on stderr (mpiexec's own notices are
ignored), nothing on stdout, and that no file was created.

The cases are independent (a directory each) and run H5PERF_TEST_JOBS (4) at
a time: a refused run costs its launcher start-up, which is mostly waiting
(harness.run() also spares Open MPI's one-second wait after a non-zero exit).

Usage: run_bad_input.py bad_input.txt
"""
import concurrent.futures
import os
import shlex
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import TempDir, listing, run  # noqa: E402


def parse(path):
    cases = []
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                raise SystemExit("%s:%d: expected 4 tab-separated fields" % (path, n))
            args, env, status, message = fields
            env = {} if env == "-" else dict(e.split("=", 1) for e in shlex.split(env))
            cases.append((n, args, env, int(status), message))
    return cases


def substitute(text, d, extra):
    """@DIR@ is the case's directory; the names of extra stand for theirs."""
    text = text.replace("@DIR@", d)
    for key, value in extra.items():
        text = text.replace(key, value)
    return text


# A workload whose array's map is a FIFO (@FIFO_WORKLOAD@).
FIFO_WORKLOAD = """processes: 2
arrays:
  - name: a
    decomposition:
      map: fifo.map
    variables: 1
baseline:
  api: posix
"""


def fifo_files(side):
    """@FIFO@, a FIFO no one writes to (opening it to read waits for a
    writer), and @FIFO_WORKLOAD@, a workload naming it as its map; outside
    the case's directory, which must stay empty."""
    fifo = os.path.join(side, "fifo.map")
    os.mkfifo(fifo)
    workload = os.path.join(side, "fifo_map.yaml")
    with open(workload, "w") as fh:
        fh.write(FIFO_WORKLOAD)
    return {"@FIFO@": fifo, "@FIFO_WORKLOAD@": workload}


def release_fifo(path):
    """Lets a process that waits to open the FIFO go on (it sees a writer
    come and go), so that a failing case leaves no process behind."""
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    os.close(fd)


def launch(args, env, d, extra):
    """The run, and the names it was given; bounded: a case that waits
    forever fails after the timeout."""
    if "@FIFO" not in args:
        return run(2, substitute(args, d, extra), env=env, cwd=d), [], extra
    with TempDir() as side:
        extra = dict(extra, **fifo_files(side))
        try:
            return run(2, substitute(args, d, extra), env=env, cwd=d, timeout=30), [], extra
        except AssertionError as e:
            return None, [str(e)], extra
        finally:
            release_fifo(extra["@FIFO@"])


def check(n, args, env, status, message, extra):
    with TempDir() as d:
        env = dict(env)
        env.setdefault("HDF5_PARAPREFIX", d)
        env = {k: substitute(v, d, extra) for k, v in env.items()}
        r, problems, extra = launch(args, env, d, extra)
        if r is None:
            return problems
        message = substitute(message, d, extra)
        if r.rc != status:
            problems.append("exit status %d, expected %d" % (r.rc, status))
        if r.h5perf_err != [message]:
            problems.append("stderr lines %r, expected [%r]" % (r.h5perf_err, message))
        if r.out:
            problems.append("stdout not empty: %r" % r.out[:200])
        if listing(d):
            problems.append("files created: %r" % listing(d))
    return problems


def main(path):
    cases = parse(path)
    failed = 0
    jobs = int(os.environ.get("H5PERF_TEST_JOBS", "4"))
    with TempDir() as aside, concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        # A host with 1 MiB available, for the faults shim (outside the cases'
        # directories, which must stay empty).
        meminfo = os.path.join(aside, "meminfo")
        with open(meminfo, "w") as fh:
            fh.write("MemTotal: 24000000 kB\nMemFree: 1 kB\nMemAvailable: 1024 kB\n")
        # A host with 64 GiB available: room for the buffers, not for views.
        meminfo64 = os.path.join(aside, "meminfo64")
        with open(meminfo64, "w") as fh:
            fh.write("MemTotal: 70000000 kB\nMemFree: 1 kB\nMemAvailable: 67108864 kB\n")
        extra = {"@FAULTS@": os.environ["FAULTS"], "@MEMINFO_1MIB@": meminfo,
                 "@MEMINFO_64GIB@": meminfo64, "@HOST@": socket.gethostname(),
                 "@MAPS@": os.path.join(os.path.dirname(os.path.abspath(__file__)), "maps"),
                 "@TRACES@": os.path.join(os.path.dirname(os.path.abspath(__file__)), "traces"),
                 "@IOR_TRACES@": os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
                     __file__))), "data", "traces"),
                 "@WORKLOADS@": os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                             "workloads"),
                 "@EXAMPLES@": os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
                     os.path.abspath(__file__)))), "examples", "workloads")}
        results = list(pool.map(lambda c: check(*c, extra), cases))
        for (n, args, _, _, _), problems in zip(cases, results):
            if problems:
                failed += 1
                print("FAIL line %d: h5perf %s\n  %s" % (n, args, "\n  ".join(problems)))
    print("%d passed, %d failed" % (len(cases) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
