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
            "layouts": ["shared", "fpp"], "align_data": [], "shift": []}, "particles config", r)
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


def round_up(x, a):
    return x if a == 0 else -(-x // a) * a


def places(cs, align):
    """Each process's start in a variable, the variable's data end and the
    stride between variables, as docs/particles.md defines them."""
    starts, at, end = [], 0, 0
    for c in cs:
        starts.append(at)
        if c:
            end = at + 4 * c
        at += round_up(4 * c, align)
    return starts, end, round_up(at, align)


def check_placed(path, cs, nvars, align, shift):
    """The data at its places, every other byte zero (padding never
    written), the file ending with the last byte of data."""
    n = sum(cs)
    whole = expected(n, nvars)
    starts, end, stride = places(cs, align)
    raw = np.fromfile(path, dtype=np.uint8)
    expect_eq(raw.size, shift + (nvars - 1) * stride + end, "size of %s" % path)
    covered = np.zeros(raw.size, dtype=bool)
    first = np.concatenate([[0], np.cumsum(cs)]).astype(int)
    for v in range(nvars):
        for r, c in enumerate(cs):
            at = shift + v * stride + starts[r]
            got = raw[at:at + 4 * c].view("<u4")
            expect(np.array_equal(got, whole[v, first[r]:first[r] + c]),
                   "%s: variable %d, process %d at byte %d" % (path, v, r, at))
            covered[at:at + 4 * c] = True
    expect(not raw[~covered].any(), "%s: padding holds only zeros" % path)
    return starts, stride


def logged_calls(logs, suffix):
    """{rank: sorted [(op, offset, length)]} of every call but open and
    close on the data files ending in suffix, from the iolog shim's logs
    (tests/bench/iolog.c)."""
    out = {}
    for name in os.listdir(logs):
        rank = int(name.split(".")[1])
        fds, calls = set(), []
        with open(os.path.join(logs, name)) as fh:
            for line in fh:
                f = line.split()
                if f[1] == "open":
                    if f[4].endswith("#pio_tmp_1" + suffix):
                        fds.add(f[2])
                elif f[1] == "close":
                    fds.discard(f[2])
                elif f[2] in fds and f[1] not in ("fstat", "lseek"):
                    calls.append((f[1].replace("64", ""), int(f[3]), int(f[4])))
        out[rank] = sorted(calls)
    return out


@case
def particles_aligned_and_shifted():
    """--align-data and --shift: each variable and each process's run from
    a multiple of the alignment, every offset shifted, verified by h5perf
    (-D v) and here (data at its places, padding zeros, the file's size);
    the calls on the POSIX and MPI-IO (independent: contiguous, so the MPI
    library makes them itself) files, logged by the iolog shim, are exactly
    one pwrite and one pread per process and variable at those places (none
    for a process without particles). HDF5 and the files per process are run once,
    packed."""
    cs = [5, 0, 1003]
    dist = "list:" + ",".join(map(str, cs))
    for align, shift in ((4096, 0), (4096, 100), (1000, 3), (0, 512)):
        with TempDir() as d:
            logs = os.path.join(d, "logs")
            os.mkdir(logs)
            opts = ""
            if align:
                opts += " --align-data %d" % align
            if shift:
                opts += " --shift %d" % shift
            env = {"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1", "IOLOG_MARKER": d + "/",
                   "IOLOG_FILE": os.path.join(logs, "log"), "LD_PRELOAD": os.environ["IOLOG"]}
            args = "--pattern particles --distribution %s --vars 3 --layout shared -A posix,mpiio " \
                "-D v%s" % (dist, opts)
            r = run(3, args, env=env)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status (%s)" % args, r)
            for suffix in (".posix", ".mpio"):
                starts, stride = check_placed(os.path.join(d, "#pio_tmp_1" + suffix), cs, 3,
                                              align, shift)
            for suffix in (".posix", ".mpio"):
                calls = logged_calls(logs, suffix)
                for rank, c in enumerate(cs):
                    want = sorted((op, shift + v * stride + starts[rank], 4 * c)
                                  for op in ("pread", "pwrite") for v in range(3) if c)
                    expect_eq(calls.get(rank, []), want,
                              "rank %d: calls on the %s file (%s)" % (rank, suffix, opts), r)


@case
def block_chunked_aligned():
    """The block pattern's chunked layout with --align-data: each block
    from a multiple of the alignment, in rank order, the padding zeros; its
    shared layout keeps the array in C order and moves only the variables."""
    shape, grid, align = (12, 8), (2, 2), 1000
    with TempDir() as d:
        args = ("--pattern block --global 12x8 --grid 2x2 --element-size 4 --vars 2 -A posix "
                "--layout chunked -D v --align-data %d --shift 7" % align)
        r = run(4, args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
        raw = np.fromfile(os.path.join(d, "#pio_tmp_1.posix"), dtype=np.uint8)
        n = 12 * 8
        whole = (np.arange(2 * n) % (1 << 32)).astype("<u4").reshape(2, 12, 8)
        block = 6 * 4 * 4  # bytes of one block
        stride = 4 * round_up(block, align)
        expect_eq(raw.size, 7 + stride + 3 * round_up(block, align) + block, "file size", r)
        covered = np.zeros(raw.size, dtype=bool)
        for v in range(2):
            for t, (i, j) in enumerate(((0, 0), (0, 1), (1, 0), (1, 1))):
                at = 7 + v * stride + t * round_up(block, align)
                want = whole[v, i * 6:(i + 1) * 6, j * 4:(j + 1) * 4].reshape(-1)
                expect(np.array_equal(raw[at:at + block].view("<u4"), want),
                       "variable %d, block %d at byte %d" % (v, t, at), r)
                covered[at:at + block] = True
        expect(not raw[~covered].any(), "padding holds only zeros", r)
        r = run(4, args.replace("chunked", "shared") + " --overwrite",
                env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "shared layout", r)
        raw = np.fromfile(os.path.join(d, "#pio_tmp_1.posix"), dtype=np.uint8)
        stride = round_up(4 * n, align)
        expect_eq(raw.size, 7 + stride + 4 * n, "shared file size", r)
        for v in range(2):
            expect(np.array_equal(raw[7 + v * stride:7 + v * stride + 4 * n].view("<u4"),
                                  whole[v].reshape(-1)), "shared variable %d" % v, r)
