#!/usr/bin/env python3
"""h5perf --version: exit 0, printed once (by rank 0) under mpiexec -n 2 and
the same without mpiexec (a singleton), first line "h5perf <the version of
CMakeLists.txt's project()>", and every fact equal to what the JSON results
of a real run record under "context" (they come from the same function).
Output that cannot be written (a full disk, a closed standard output) fails
with one line and exit 1.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from harness import TempDir, base_env, built_apis, h5perf, run  # noqa: E402


def fail(what, detail):
    print("FAIL version: %s\n%s" % (what, detail))
    sys.exit(1)


def expect_eq(got, want, what, detail=""):
    if got != want:
        fail("%s: got %r, expected %r" % (what, got, want), detail)


def project_version():
    with open(os.path.join(HERE, "..", "..", "CMakeLists.txt")) as fh:
        m = re.search(r"project\(h5perf VERSION ([0-9.]+)", fh.read())
    return m.group(1)


def main():
    # A singleton: no mpiexec at all.
    p = subprocess.run([h5perf(), "--version"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, env=base_env(), timeout=60)
    single = p.stdout.decode()
    expect_eq(p.returncode, 0, "singleton exit status", p)
    expect_eq([l for l in p.stderr.decode().splitlines() if l.startswith("h5perf")], [],
              "singleton's h5perf lines on stderr", p)

    r = run(2, "--version")
    expect_eq(r.rc, 0, "exit status under mpiexec -n 2", r)
    expect_eq(r.h5perf_err, [], "h5perf's lines on stderr", r)
    expect_eq(r.out, single, "mpiexec -n 2 prints what the singleton prints, once", r)

    lines = r.lines
    expect_eq(lines[0], "h5perf " + project_version(), "first line", r)
    names = [l.split(":", 1)[0] for l in lines[1:]]
    apis = built_apis()
    expect_eq(names, ["commit", "build", "hdf5", "mpi", "apis"] + apis, "line names", r)
    fields = dict(l.split(": ", 1) for l in lines[1:])
    expect_eq(fields["apis"], " ".join(apis), "apis line", r)

    with TempDir() as d:
        j = run(2, "-e 8K -A posix -w --format json", env={"HDF5_PARAPREFIX": d})
    expect_eq(j.rc, 0, "JSON run's exit status", j)
    c = json.loads(j.out)["context"]
    b = c["build"]
    expect_eq(lines[0], "h5perf " + c["h5perf_version"], "version = JSON h5perf_version")
    expect_eq(fields["commit"], c["h5perf_commit"], "commit = JSON h5perf_commit")
    expect_eq(fields["build"], "%s; %s; %s" % (b["type"], b["compiler"], b["c_flags"]),
              "build = JSON build")
    expect_eq(fields["hdf5"], c["hdf5_version"], "hdf5 = JSON hdf5_version")
    expect_eq(fields["mpi"], "%s (MPI %s)" % (c["mpi_library"], c["mpi_version"]),
              "mpi = JSON mpi_library, mpi_version")
    expect_eq({a: fields[a] for a in apis}, c["api_versions"], "each API = JSON api_versions")
    lost_output()
    print("PASS version")


def singleton(args, redirect, env=None):
    """h5perf alone (no mpiexec) with its standard output redirected by sh:
    '>/dev/full' (every write fails) or '>&-' (closed)."""
    return subprocess.run(["sh", "-c", 'exec "$0" "$@" ' + redirect, h5perf()] + args,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, env=base_env(env or {}), timeout=60)


def h5perf_lines(p):
    return [l for l in p.stderr.decode().splitlines() if l.startswith("h5perf:")]


def lost_output():
    """--version and -h whose output cannot be written fail with one line,
    exit 1, as a report does; a closed standard output stays closed for the
    report (h5perf holds it with a read-only /dev/null, so that no file of
    its own or MPI's takes its place)."""
    for redirect, why in ((">/dev/full", "No space left on device"),
                          (">&-", "Bad file descriptor")):
        for opt, what in (("--version", "version"), ("-h", "help")):
            p = singleton([opt], redirect)
            expect_eq((p.returncode, h5perf_lines(p)), (1, [
                "h5perf: cannot write the %s to standard output: %s" % (what, why)]),
                "%s %s" % (opt, redirect), p)
    with TempDir() as d:
        p = singleton(["-e", "8K", "-A", "posix", "-w"], ">&-", {"HDF5_PARAPREFIX": d})
        expect_eq((p.returncode, h5perf_lines(p)), (1, [
            "h5perf: cannot write the report to standard output: Bad file descriptor"]),
            "a run with standard output closed", p)
        expect_eq(os.listdir(d), [], "files left by the run with standard output closed")


if __name__ == "__main__":
    main()
