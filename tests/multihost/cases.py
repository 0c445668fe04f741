#!/usr/bin/env python3
"""Tests of h5perf across several hosts: 2 or 3 hosts made of network
namespaces on this machine (netns.py, docs/multihost.md), h5perf started
across them by Open MPI's mpiexec through a launch agent, its processes
talking TCP between the hosts.

Usage: cases.py --list | cases.py NAME
Exit 77 (skipped, with one line saying why) where the hosts cannot be made:
not root, no iproute2 or util-linux, no namespaces, or MPICH's launcher.
"""
import json
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
from compare import mask_line  # noqa: E402
from harness import PAGE_CACHE, TempDir, expect, expect_eq, listing, run  # noqa: E402
from netns import Cluster, why_not  # noqa: E402

SKIP = 77
SCHEMA = os.path.join(HERE, "..", "..", "docs", "results.schema.json")
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def data_file(d, f, suffix):
    return os.path.join(d, "#pio_tmp_%d%s" % (f, suffix))


def load(path):
    with open(path) as fh:
        return json.load(fh)


def validate(doc, r):
    import jsonschema
    errors = sorted(jsonschema.Draft202012Validator(load(SCHEMA)).iter_errors(doc), key=str)
    expect_eq([e.message for e in errors][:3], [], "schema errors", r)


def listings(c):
    """{host: files in that host's data directory}."""
    return {h: listing(c.host_dir(h)) for h in c.names}


def nothing_anywhere(c):
    return {h: [] for h in c.names}


def wait_for_no_process(c, r):
    """Every process of the run on every host ends (orteds, ranks, h5perf's
    cleanup processes); waits up to 15 s for them after mpiexec returned."""
    deadline = time.time() + 15
    while c.processes() and time.time() < deadline:
        time.sleep(0.1)
    expect_eq(c.processes(), {}, "processes left running on the hosts", r)


# --- the JSON results ---------------------------------------------------------
@case
def multihost_results_name_hosts():
    """The JSON results count the hosts and name them in order of first
    appearance (rank order): 3 hosts with one process each, then 2 hosts
    with two processes each; valid against the schema both ways; on
    node-local storage the data directory rank 0 sees is its own tmpfs."""
    with Cluster(3, "shared") as c:
        out = os.path.join(c.state, "r.json")
        r = c.run(3, "-e 64K -B 16K -x 32K -X 32K -A posix --results " + out)
        expect_eq((r.rc, r.h5perf_err), (0, []), "3 hosts: exit status, lines", r)
        doc = load(out)
        validate(doc, r)
        ctx = doc["context"]
        expect_eq((ctx["processes"], ctx["hosts"], ctx["host_names"]), (3, 3, c.names),
                  "3 hosts: processes, hosts, host_names", r)
    with Cluster(2, "local") as c:
        # A file per process: node-local storage holds no shared file.
        r = c.run(4, "--pattern block --global 8x4 --layout fpp -A posix --format json",
                  slots=2)
        expect_eq((r.rc, r.h5perf_err), (0, []), "2 hosts: exit status, lines", r)
        doc = json.loads(r.out)
        validate(doc, r)
        ctx = doc["context"]
        expect_eq((ctx["processes"], ctx["hosts"], ctx["host_names"]), (4, 2, c.names),
                  "2 hosts, 2 processes each: processes, hosts, host_names", r)
        expect_eq((ctx["directory"], ctx["file_system"]["type"]), (c.data, "tmpfs"),
                  "rank 0's data directory: its host's own tmpfs", r)
        expect_eq(listings(c), nothing_anywhere(c), "files left", r)


# --- the page-cache warning ---------------------------------------------------
def warning(apis, counts="", advice="use --direct for POSIX, or --read-shift with processes "
            "on several hosts"):
    return (PAGE_CACHE + "%s%s can only come from the page cache: each process reads data "
            "written moments before on its own host, through that host's cache (%s)"
            % (apis, counts, advice))


SHIFT_OWN = ("h5perf: warning: --read-shift '%s': with 1 process each process reads its own "
             "data (the shift is a multiple of the process count)")
BLOCK_ADVICE = "use an array larger than the hosts' memory, or --read-grid with processes on " \
    "several hosts"


@case
def multihost_page_cache_warning():
    """The warning fires when every process reads data written on its own
    host: across hosts without --read-shift; with --read-shift only at the
    process count that fits on one host (1 process); not at all when every
    count reads across hosts. On one host the same --read-shift still warns.
    The block pattern reading with another grid reads across hosts too.
    Checked as exact stderr lines; h5perf prints nothing else."""
    base = "-e 64K -B 16K -x 32K -X 32K -A posix"
    one = warning("posix", " with 1 process")
    with Cluster(3, "shared") as c:
        for extra, want in (("", [warning("posix")]), (" --read-shift 1", [one]),
                            (" --read-shift 2", [one]), (" --read-shift 1 -p 3", [])):
            r = c.run(3, base + extra)
            own = [SHIFT_OWN % extra.split()[1]] if want == [one] else []
            expect_eq((r.rc, r.h5perf_err, r.page_cache), (0, own, want),
                      "3 hosts: exit status, lines, warning (%s)" % extra.strip(), r)
        # The same run on one host: its shifted reads are local.
        with TempDir() as d:
            r = run(3, base + " --read-shift 1", env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.page_cache), (0, [warning("posix")]),
                      "one host: --read-shift 1 still reads its own host's data", r)
    with Cluster(2, "shared") as c:
        # Two processes per host: rank 1 (host 1) reads rank 2's data (host 2).
        for extra, want in (("", [warning("posix")]), (" --read-shift 1", []),
                            (" --read-shift 2", [])):
            r = c.run(4, base + " -p 4" + extra, slots=2)
            expect_eq((r.rc, r.h5perf_err, r.page_cache), (0, [], want),
                      "2 hosts x 2 processes: warning (%s)" % extra.strip(), r)
        block = "--pattern block --global 64x64 -A posix --layout shared --grid 2x1"
        for extra, want in (("", [warning("posix", advice=BLOCK_ADVICE)]),
                            (" --read-grid 1x2", [])):
            r = c.run(2, block + extra)
            expect_eq((r.rc, r.h5perf_err, r.page_cache), (0, [], want),
                      "block pattern on 2 hosts: warning (%s)" % extra.strip(), r)
        expect_eq(listings(c), nothing_anywhere(c), "files left", r)


# --- verification across hosts ------------------------------------------------
@case
def multihost_verify_read_shift():
    """-D v with --read-shift on the shared directory: every process checks,
    in every API, independent and collective, the data another host wrote;
    a corrupted byte of process 1's data (host 2) is found by process 0
    (host 1), the one that reads it."""
    with Cluster(3, "shared") as c:
        base = "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix,mpiio,phdf5 -D v"
        out = os.path.join(c.state, "r.json")
        for extra in (" --read-shift 1", " --read-shift 2 -C", " --read-shift 1 -I"):
            r = c.run(3, base + extra + " --results " + out)
            expect_eq((r.rc, r.h5perf_err, r.page_cache), (0, [], []),
                      "exit status, lines (%s)" % extra.strip(), r)
            ctx = load(out)["context"]
            expect_eq((ctx["hosts"], ctx["host_names"]), (3, c.names), "the run's hosts", r)
        env = {"LD_PRELOAD": os.environ["FAULTS"], "H5PERF_CORRUPT_SUFFIX": ".posix",
               "H5PERF_CORRUPT_OFFSET": "65536", "H5PERF_CORRUPT_COUNT": "1"}
        r = c.run(3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix --read-shift 1 -D v", env=env)
        expect_eq(r.rc, 1, "exit status with a corrupted byte", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 0: verify '%s' (POSIX, 3 processes, transfer size 32768, iteration "
            "1): 1 bytes differ, the first at offset 65536: expected 2, found 253"
            % data_file(c.data, 1, ".posix")], "mismatch found by the reader on host 1", r)
        expect_eq(listing(c.data), [], "files left", r)


# --- a failure on a remote host -----------------------------------------------
@case
def multihost_remote_failure():
    """An I/O error on the last host's process ends the run on every host:
    exit 1, exactly one line (the failing process's), no file left in any
    host's data directory, no process left on any host. On the shared
    directory (one shared file) and on node-local storage (a file per
    process, each on its own host)."""
    with Cluster(3, "shared") as c:
        env = {"LD_PRELOAD": os.environ["FAULTS"], "H5PERF_FAULT_SUFFIX": ".posix",
               "H5PERF_FAULT_EIO_RANK": "2"}
        out = os.path.join(c.state, "r.json")
        r = c.run(3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix,mpiio --results " + out, env=env)
        expect_eq(r.rc, 1, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 2: POSIX write '%s' at offset 131072, length 32768: "
            "Input/output error" % data_file(c.data, 1, ".posix")], "failure lines", r)
        ctx = load(out)["context"]
        expect_eq((ctx["hosts"], ctx["host_names"]), (3, c.names), "the failed run's hosts", r)
        expect_eq(listing(c.data), [], "files left", r)
        wait_for_no_process(c, r)
    for api, suffix in (("posix", ".posix"), ("mpiio", ".mpio")):
        with Cluster(3, "local") as c:
            env = {"LD_PRELOAD": os.environ["FAULTS"], "H5PERF_FAULT_SUFFIX": suffix,
                   "H5PERF_FAULT_EIO_RANK": "2"}
            r = c.run(3, "--pattern block --global 6x4 --layout fpp -A " + api, env=env)
            expect_eq(r.rc, 1, "exit status (%s)" % api, r)
            expect_eq(len(r.h5perf_err), 1, "one failure line (%s)" % api, r)
            expect(r.h5perf_err[0].startswith("h5perf: rank 2: ") and
                   "'%s/#pio_tmp_1.2%s'" % (c.data, suffix) in r.h5perf_err[0],
                   "the failing process's line (%s)" % api, r)
            expect_eq(listings(c), nothing_anywhere(c), "files left on the hosts (%s)" % api, r)
            wait_for_no_process(c, r)


@case
def multihost_node_local_files():
    """Node-local storage is each host's own: with a file per process and
    HDF5_NOCLEANUP every host (3, as the JSON says) keeps exactly the files
    of its own processes; without it a run leaves no file on any host; a
    shared file there fails on the other hosts, cleanly."""
    with Cluster(3, "local") as c:
        args = "--pattern block --global 12x4 --layout fpp -A posix -D v"
        out = os.path.join(c.state, "r.json")
        r = c.run(6, args + " --results " + out, slots=2, env={"HDF5_NOCLEANUP": "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status, lines (HDF5_NOCLEANUP)", r)
        ctx = load(out)["context"]
        expect_eq((ctx["hosts"], ctx["host_names"]), (3, c.names), "the run's hosts", r)
        want = {h: ["#pio_tmp_1.%d.posix" % (2 * i), "#pio_tmp_1.%d.posix" % (2 * i + 1)]
                for i, h in enumerate(c.names)}
        expect_eq(listings(c), want, "files kept on each host", r)
        for h in c.names:
            for f in listing(c.host_dir(h)):
                os.unlink(os.path.join(c.host_dir(h), f))
        r = c.run(6, args, slots=2)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status, lines", r)
        expect_eq(listings(c), nothing_anywhere(c), "files left", r)
        # One shared file on node-local storage: process 0 creates it on its
        # host, the others cannot open it on theirs (for MPI-IO and HDF5,
        # Open MPI's ompio hangs instead: docs/multihost.md).
        r = c.run(3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix")
        expect_eq(r.rc, 1, "exit status, a shared file on node-local storage", r)
        expect_eq(r.h5perf_err, ["h5perf: rank %d: POSIX open '%s': No such file or directory"
                                 % (rank, data_file(c.data, 1, ".posix")) for rank in (1, 2)],
                  "the processes of the other hosts find no file", r)
        expect_eq(listings(c), nothing_anywhere(c), "files left after the failure", r)


# --- the report -----------------------------------------------------------------
def shape(doc, path=""):
    """The keys of a JSON document, as sorted paths, lists collapsed:
    what a reader of the results relies on, without the values."""
    out = set()
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.add(path + "." + k)
            out |= shape(v, path + "." + k)
    elif isinstance(doc, list):
        for v in doc:
            out |= shape(v, path + "[]")
    return out


@case
def multihost_report_like_one_host():
    """The text report of a run across 3 hosts is, figures masked (as the
    golden tests mask them), line for line the report of the same command on
    one host, and its JSON has the same keys and the same number of runs;
    only the host count and names differ."""
    args = "-e 64K -B 16K -x 16K -X 32K -i 2 -A posix,mpiio,phdf5 -C -D v"
    with Cluster(3, "shared") as c:
        out = os.path.join(c.state, "r.json")
        many = c.run(3, args + " --results " + out)
        expect_eq((many.rc, many.h5perf_err), (0, []), "3 hosts: exit status, lines", many)
        many_doc = load(out)
        # The same data directory, from the machine's own namespace.
        one = run(3, args + " --results " + out, env={"HDF5_PARAPREFIX": c.data})
        expect_eq((one.rc, one.h5perf_err), (0, []), "one host: exit status, lines", one)
        one_doc = load(out)
    expect_eq((many_doc["context"]["hosts"], one_doc["context"]["hosts"]), (3, 1),
              "hosts of the two runs", many)
    masked = [[mask_line(l) for l in r.lines] for r in (many, one)]
    expect(len(masked[0]) > 100, "a report of some length", many)
    for i, (a, b) in enumerate(zip(masked[0], masked[1])):
        expect_eq(a, b, "report line %d, 3 hosts vs one" % (i + 1), many)
    expect_eq(len(masked[0]), len(masked[1]), "report lines, 3 hosts vs one", many)
    expect_eq(sorted(shape(many_doc)), sorted(shape(one_doc)), "JSON keys", many)
    expect_eq(len(many_doc["runs"]), len(one_doc["runs"]), "JSON runs", many)


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print("usage: cases.py --list | cases.py NAME", file=sys.stderr)
        sys.exit(2)
    # ctest ends a test that ran out of time with SIGTERM (or SIGKILL): leave
    # through the clusters' cleanup; what a SIGKILL leaves, the next sweeps.
    signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(128 + sig))
    why = why_not()
    if why:
        print("SKIP %s: %s" % (sys.argv[1], why))
        sys.exit(SKIP)
    try:
        CASES[sys.argv[1]]()
    except AssertionError as e:
        print("FAIL %s: %s" % (sys.argv[1], e))
        sys.exit(1)
    print("PASS " + sys.argv[1])
