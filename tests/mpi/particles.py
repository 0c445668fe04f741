"""MPI cases of the particles pattern (docs/particles.md): VPIC-IO's eight
1D variables with uneven counts per process, zero counts included, through
POSIX, MPI-IO and HDF5, independent and collective, shared and fpp, with 1
to 8 processes. Every file is checked element by element by readers that
share no code with h5perf (numpy for the raw files, h5read for HDF5)
against the content rule: the 4-byte element at global particle index i of
variable v holds the bits of (i + v*N) mod 2^32, N the global count. The
HDF5 file's layout (group Timestep_<t>, names, types, shapes) is checked
too, and the counts are computed here from the distribution's definition.
"""
import json
import math
import os

import numpy as np

from common import SUFFIX, case
from harness import TempDir, expect, expect_eq, listing, run
from results import validate

NAMES = ["x", "y", "z", "px", "py", "pz", "id_1", "id_2"]


def counts(dist, nprocs, mean=0):
    """Each process's count, from the definitions in docs/particles.md."""
    kind, _, arg = dist.partition(":")
    if kind == "list":
        return [int(x) for x in arg.split(",")]
    if kind == "uniform":
        return [mean] * nprocs
    f = float(arg)
    if nprocs == 1:
        return [mean]
    return [max(0, int(math.floor(mean - f * mean + 2.0 * f * mean * r / (nprocs - 1) + 0.5)))
            for r in range(nprocs)]


def expected(n, nvars):
    """Every variable's whole array: (i + v*N) mod 2^32."""
    return (np.arange(nvars * n, dtype=np.uint64) % np.uint64(1 << 32)).astype("<u4").reshape(
        nvars, n)


def h5(path, *args):
    import subprocess
    p = subprocess.run([os.environ["H5READ"], path] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, universal_newlines=True)
    expect_eq(p.returncode, 0, "h5read %s %s: %s" % (path, args, p.stderr))
    return p.stdout.splitlines()


def check_h5(path, step, want):
    """The VPIC-IO layout: one group, the variables' 1D datasets in it, of
    32-bit little-endian floats (id_1: integers), every element's bits."""
    group = "Timestep_%d" % step
    nvars = want.shape[0]
    names = sorted(NAMES[:nvars])
    expect_eq(h5(path, "--list"), ["group " + group] +
              ["dataset %s/%s" % (group, n) for n in names], "objects of %s" % path)
    for v in range(nvars):
        lines = dict(l.split(" ", 1) if " " in l else (l, "")
                     for l in h5(path, "%s/%s" % (group, NAMES[v]), "values"))
        expect_eq(lines["dims"], str(want.shape[1]), "dims of %s:%s" % (path, NAMES[v]))
        expect_eq(lines["type"], "%s 4 signed le" % ("integer" if NAMES[v] == "id_1" else "float"),
                  "type of %s:%s" % (path, NAMES[v]))
        expect_eq(lines["fill"], "never", "fill time of %s:%s" % (path, NAMES[v]))
        got = np.array([int(x) for x in lines["values"].split()], dtype=np.uint64)
        expect(np.array_equal(got, want[v].astype(np.uint64)),
               "values of %s:%s" % (path, NAMES[v]))


def check_raw(path, want):
    got = np.fromfile(path, dtype="<u4")
    expect_eq(got.size, want.size, "elements in %s" % path)
    bad = np.flatnonzero(got != want.reshape(-1))
    expect(bad.size == 0, "%s: %d elements differ, the first at %s" % (
        path, bad.size, bad[:1].tolist()))


def check_files(d, cs, nvars, step=0):
    n = sum(cs)
    whole = expected(n, nvars)
    starts = np.concatenate([[0], np.cumsum(cs)]).astype(int)
    for api in ("posix", "mpiio", "phdf5"):
        path = os.path.join(d, "#pio_tmp_1" + SUFFIX[api])
        if api == "phdf5":
            check_h5(path, step, whole)
        else:
            check_raw(path, whole)
        for r in range(len(cs)):
            path = os.path.join(d, "#pio_tmp_1.%d%s" % (r, SUFFIX[api]))
            own = whole[:, starts[r]:starts[r + 1]]
            if api == "phdf5":
                check_h5(path, step, own)
            else:
                check_raw(path, own)


def particles_files(nprocs, dist, mean=0, nvars=8):
    cs = counts(dist, nprocs, mean)
    for mode in ("", "-C"):
        with TempDir() as d:
            args = "--pattern particles --distribution %s --vars %d -D v -p %d %s" % (
                dist, nvars, nprocs, mode)
            if mean:
                args += " --particles %d" % mean
            r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"},
                    timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            expect("Number of processors = %d (%d particles, %d to %d per process); MB/s "
                   "including open and close" % (nprocs, sum(cs), min(cs), max(cs)) in r.lines,
                   "table title", r)
            check_files(d, cs, nvars)
            expect_eq(len(listing(d)), 3 * (nprocs + 1), "files", r)


@case
def particles_files_1_process():
    particles_files(1, "uniform", 7)


@case
def particles_files_2_processes():
    particles_files(2, "list:0,9", nvars=3)


@case
def particles_files_3_processes():
    particles_files(3, "imbalance:1", 6)


@case
def particles_files_4_processes():
    particles_files(4, "list:5,0,3,0")


@case
def particles_files_8_processes():
    particles_files(8, "imbalance:0.5", 10, nvars=2)


@case
def particles_iterations_and_read_only():
    """Each iteration writes its own group: the file kept after -i 2 holds
    Timestep_1 alone. A kept one-iteration shared file is read back,
    verified, by --read-only (group Timestep_0); the later iteration's file
    is refused before anything is read."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}
        base = "--pattern particles --distribution list:4,0,6 -A phdf5 --layout shared"
        r = run(3, base + " -i 2 -w", env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "two iterations", r)
        path = os.path.join(d, "#pio_tmp_1.h5")
        check_h5(path, 1, expected(10, 8))
        r = run(3, base + " --read-only -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: --read-only: data file '%s' has no dataset 'Timestep_0/x' (written with "
            "other options?)" % path]), "a later iteration's file refused", r)
        r = run(3, base + " -w --overwrite", env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "one iteration", r)
        r = run(3, base + " --read-only -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "read-only, verified", r)
        r = run(3, "--pattern particles --distribution list:4,0,7 -A phdf5 --layout shared "
                "--read-only", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: --read-only: data file '%s' has a dataset 'Timestep_0/x' that is not the "
            "11 array this run reads (written with other options?)" % path]),
            "other counts refused", r)


@case
def particles_report_and_json():
    """The header, and the JSON: the configuration and each run's counts
    (a normal draw: the same counts in two runs)."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        args = ("--pattern particles --particles 1000 --distribution normal:300 --seed 7 "
                "--vars 2 -A posix -i 1")
        r = run(4, args + " --results " + out, env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
        expect_eq(r.lines[1], "Particles pattern: normal:300 around 1000 per process, seed 7, "
                  "2 variables of 4-byte elements (x, y)", "header", r)
        with open(out) as fh:
            doc = json.load(fh)
        validate(doc, r)
        expect_eq(doc["config"]["pattern"], "particles", "pattern", r)
        expect_eq(doc["config"]["particles"], {
            "per_process": 1000, "distribution": "normal:300", "seed": 7, "vars": ["x", "y"],
            "layouts": ["shared", "fpp"]}, "particles config", r)
        runs = [(x["processes"], x["layout"], x["particles"]) for x in doc["runs"]]
        expect_eq([p for p, _, _ in runs], [4, 4, 2, 2, 1, 1], "process counts", r)
        first = {p: c for p, _, c in runs}
        for p, c in first.items():
            expect(c["min"] <= c["max"] and c["total"] >= c["max"], "counts of %d" % p, r)
        expect_eq(first[1]["total"], first[1]["min"], "one process", r)
        r = run(4, args.replace("-A posix", "-A posix,mpiio --layout fpp -C") + " --results " +
                out + " --overwrite", env={"HDF5_PARAPREFIX": d})
        with open(out) as fh:
            doc = json.load(fh)
        validate(doc, r)
        again = {x["processes"]: x["particles"] for x in doc["runs"]}
        expect_eq(again, first, "the same draw in a second run", r)
        expect_eq(listing(d), ["r.json"], "no data file left", r)
