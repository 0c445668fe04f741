"""MPI cases of HDF5's own options (docs/hdf5.md): the subfiling driver and
multi-dataset I/O where this build's HDF5 has them (its H5pubconf.h and
version say so, read here, not asked of h5perf), their one-line refusals
where it does not.

A subfiled file is checked twice by readers that share no code with
h5perf: its subfiles are fused by the striping HDF5 documents (subfile i of
N holds stripes i, i+N, i+2N, ... of the stripe size its configuration file
gives) and the fused file read through HDF5's default driver; and the stub
is read through HDF5's own subfiling driver (h5read --subfiling). Which
transfer calls HDF5 received, and how MPI was initialised, comes from a
shim (tests/tools/h5calls.c).
"""
import json
import os
import re
import signal
import subprocess
import time

import numpy as np

import block
import particles
import plots
from common import Skip, case
from faults import interrupted_run, kill_every_rank, slow_env, wait_until_gone
from harness import TempDir, expect, expect_eq, hdf5_version, listing, run, run_counted
from results import validate

STUB = "#pio_tmp_1.h5"


def hdf5_has(macro):
    """Whether this build's HDF5 defines macro to 1 in its H5pubconf.h."""
    for d in os.environ.get("H5PERF_HDF5_INCLUDE", "").split(":"):
        path = os.path.join(d, "H5pubconf.h")
        if os.path.exists(path):
            with open(path) as fh:
                return re.search(r"^#define %s 1$" % macro, fh.read(), re.M) is not None
    raise AssertionError("no H5pubconf.h in H5PERF_HDF5_INCLUDE")


def has_subfiling():
    return hdf5_has("H5_HAVE_SUBFILING_VFD")


def has_multi():
    return hdf5_version() >= (1, 14)


def version_text():
    return ".".join(str(x) for x in hdf5_version())


def need_subfiling():
    if not has_subfiling():
        raise Skip("HDF5 %s has no subfiling driver (hdf5_driver_refusals checks the "
                   "refusal)" % version_text())


def need_multi():
    if not has_multi():
        raise Skip("HDF5 %s has no multi-dataset I/O (hdf5_driver_refusals checks the "
                   "refusal)" % version_text())


def refused(args, line, env=None):
    """h5perf refuses args with exactly line, exit 2, before any file."""
    with TempDir() as d:
        e = {"HDF5_PARAPREFIX": d}
        e.update(env or {})
        r = run(2, args, env=e, cwd=d)
        expect_eq((r.rc, r.h5perf_err, r.out), (2, [line], ""), "refusal of %s" % args, r)
        expect_eq(listing(d), [], "files after the refusal of %s" % args)


@case
def hdf5_driver_refusals():
    """Where this HDF5 lacks the subfiling driver or multi-dataset I/O, asking
    for them is refused with one line naming the version; where it has
    them, what the driver cannot do is refused instead: a kept subfiled
    file read back (--read-only), subfiles placed where h5perf would not
    remove them."""
    v = version_text()
    if not has_subfiling():
        refused("-A phdf5 --hdf5.driver mpio,subfiling",
                "h5perf: --hdf5.driver 'mpio,subfiling': the HDF5 of this build (%s) has no "
                "subfiling driver (HDF5 1.14 or newer built with it: docs/install.md)" % v)
    else:
        refused("-A phdf5 -C --hdf5.driver mpio,subfiling",
                "h5perf: -C: HDF5's subfiling driver does no collective I/O (it fails collective "
                "requests of several pieces); give --hdf5.driver without subfiling, or leave out "
                "-C")
        refused("-A phdf5 --read-only --hdf5.driver subfiling",
                "h5perf: --read-only: cannot be combined with --hdf5.driver 'subfiling' (h5perf "
                "cannot check a kept subfiled file before it reads it)")
        refused("-A phdf5 -e 8K -x 4K -X 4K --hdf5.driver subfiling",
                "h5perf: transfer size 4 KiB with 2 processes, subfiled: HDF5: "
                "H5FD_SUBFILING_SUBFILE_PREFIX puts the subfiling driver's files outside the data "
                "files' directory, where h5perf would not remove them; unset it, or leave phdf5 "
                "out of -A", env={"H5FD_SUBFILING_SUBFILE_PREFIX": "/tmp"})
    if not has_multi():
        refused("--pattern particles --hdf5.multi-dataset",
                "h5perf: --hdf5.multi-dataset: the HDF5 of this build (%s) has no multi-dataset "
                "I/O (H5Dwrite_multi, HDF5 1.14 or newer)" % v)


def read_config(path):
    """A subfiling configuration file: its key=value lines, then the
    subfiles' names, one a line."""
    keys, names = {}, []
    with open(path) as fh:
        for line in fh.read().splitlines():
            if "=" in line:
                k, _, val = line.partition("=")
                keys[k] = val
            elif line:
                names.append(line)
    return keys, names


def fuse(d, out):
    """The logical file of the subfiled file in d, by the striping HDF5
    documents: stripe j of subfile i (0-based) is the file's stripe
    j * N + i. Returns the configuration's keys and the subfiles' sizes."""
    ino = os.stat(os.path.join(d, STUB)).st_ino
    config = os.path.join(d, "%s.subfile_%d.config" % (STUB, ino))
    keys, names = read_config(config)
    stripe, n = int(keys["stripe_size"]), int(keys["subfile_count"])
    width = len(str(n))
    want = ["%s.subfile_%d_%0*d_of_%d" % (STUB, ino, width, i + 1, n) for i in range(n)]
    expect_eq(names, want, "subfiles named in %s" % config)
    expect_eq(sorted(listing(d)), sorted([STUB, os.path.basename(config)] + want), "files of %s" % d)
    expect_eq((keys["hdf5_file"], keys["subfile_dir"]), (os.path.join(d, STUB), d),
              "where %s says the file is" % config)
    data = [open(os.path.join(d, name), "rb").read() for name in names]
    size = max(((len(b) - 1) // stripe * n + i) * stripe + (len(b) - 1) % stripe + 1
               for i, b in enumerate(data) if b)
    fused = bytearray(size)
    for i, b in enumerate(data):
        for j in range(0, len(b), stripe):
            at = (j // stripe * n + i) * stripe
            fused[at:at + len(b[j:j + stripe])] = b[j:j + stripe]
    with open(out, "wb") as fh:
        fh.write(fused)
    return keys, [len(b) for b in data]


def values(path, name, subfiling=False):
    """Every element of a dataset as h5read gives it (through the subfiling
    driver, or the default one)."""
    argv = [os.environ["H5READ"]] + (["--subfiling"] if subfiling else []) + [path, name, "values"]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60,
                       universal_newlines=True)
    expect_eq(p.returncode, 0, "h5read %s %s: %s" % (path, name, p.stderr))
    lines = dict(l.split(" ", 1) for l in p.stdout.splitlines())
    return np.array([int(x) for x in lines["values"].split()], dtype=np.uint64)


@case
def hdf5_subfiling_block_files():
    """The block pattern's shared and chunked layouts through the subfiling
    driver, 4 processes, 2 I/O concentrators on the one host, a 4 KiB
    stripe (independent: the driver does no collective I/O), once against
    HDF5's own variables for them in the environment: a stub, a
    configuration file and 2
    subfiles named after the stub's inode; the subfiles fused by HDF5's
    striping hold every element, and so does the file read through the
    subfiling driver."""
    need_subfiling()
    shape, grid = (16, 16, 8), (2, 2, 1)
    whole = block.expected(shape, 8, 2)
    for layout in ("shared", "chunked"):
        with TempDir() as d:
            args = ("--pattern block --global 16x16x8 --grid 2x2x1 --layout %s --vars 2 -A phdf5 "
                    "--hdf5.driver subfiling --hdf5.subfiling-stripe 4K --hdf5.ioc-per-node 2 "
                    "-D v" % layout)
            env = {"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}
            if layout == "chunked":
                # The options win over HDF5's variables in the environment.
                env.update(H5FD_SUBFILING_STRIPE_SIZE="65536", H5FD_SUBFILING_IOC_PER_NODE="1")
            r = run(4, args, env=env, timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            expect(any(l.startswith("    HDF5    %s, subfiled " % layout) for l in r.lines),
                   "the report's row", r)
            fused = d + ".fused"
            try:
                keys, sizes = fuse(d, fused)
                expect_eq((keys["stripe_size"], keys["subfile_count"]), ("4096", "2"),
                          "stripe and subfiles (%s)" % layout)
                expect(min(sizes) > 4096, "both subfiles hold several stripes: %s" % sizes)
                for v in range(2):
                    want = whole[v].reshape(-1).astype(np.uint64)
                    expect(np.array_equal(values(fused, "v%d" % v), want),
                           "fused subfiles, v%d (%s)" % (v, layout))
                    expect(np.array_equal(values(os.path.join(d, STUB), "v%d" % v, True), want),
                           "through the subfiling driver, v%d (%s)" % (v, layout))
            finally:
                if os.path.exists(fused):
                    os.unlink(fused)


@case
def hdf5_subfiling_rows_and_cleanup():
    """The particles pattern with both drivers: "shared, subfiled" is a row
    of the report's tables (over MPI-IO, over the file per process) and a
    run of the results, with its variant; every file, the subfiles too, is
    removed after the run."""
    need_subfiling()
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        r = run(2, "--pattern particles --particles 4096 -A mpiio,phdf5 --hdf5.driver "
                   "mpio,subfiling -p 2 --results %s" % out, env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        layouts = [re.match(r"    HDF5    (.+?) +[-0-9]", l).group(1) for l in r.lines
                   if l.startswith("    HDF5    ")]
        expect_eq(layouts, ["shared", "shared, subfiled", "fpp",  # throughput
                            "shared", "shared, subfiled", "fpp",  # over MPI-IO
                            "shared", "shared, subfiled"],  # over the file per process
                  "HDF5's rows of the report's tables", r)
        expect_eq(listing(d), ["r.json"], "files left")
        doc = json.load(open(out))
        validate(doc, r)
        hdf5 = [(x["layout"], x["variant"], x["hdf5"]) for x in doc["runs"] if x["api"] == "phdf5"]
        expect_eq(hdf5, [("shared", None, {"driver": "mpio", "multi_dataset": False}),
                         ("shared", "subfiled", {"driver": "subfiling", "multi_dataset": False}),
                         ("fpp", None, {"driver": "mpio", "multi_dataset": False})],
                  "HDF5's runs in the results")
        expect_eq(doc["config"]["hdf5_driver"], ["mpio", "subfiling"], "config.hdf5_driver")
        # The companion compares the API's default runs and says it left
        # the variant out (its keys would be the default run's).
        c = plots.tool("h5perf-compare", ["--min-time", "0", out, out])
        expect_eq(c.returncode, 0, "h5perf-compare of the run against itself: %s" % c.stderr)
        expect("h5perf-compare: note: '%s': 1 run of API variants (subfiled) left out; h5perf's "
               "own report compares them (docs/hdf5.md)" % out in c.stderr.splitlines(),
               "the companion's note: %s" % c.stderr)
        expect(len([l for l in c.stdout.splitlines() if " phdf5 " in l]) == 8,
               "HDF5's shared and fpp runs compared, each of 4 measures: %s" % c.stdout)
        expect(all(x.get("variant") is None for x in doc["runs"] if x["api"] == "mpiio"),
               "MPI-IO's runs are its default variant (\"variant\": null, as every API with "
               "options writes since --mpiio.joined)")


@case
def hdf5_subfiling_guide():
    """The guide's pattern with both drivers: the header names them, each
    transfer size runs HDF5 through MPI-IO, then through subfiling, under
    its own "IO API =" line; the data verifies."""
    need_subfiling()
    with TempDir() as d:
        r = run(2, "-A phdf5 --hdf5.driver mpio,subfiling -e 64K -x 32K -X 64K -p 2 -D v",
                env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        expect("rank 0: VFL used for HDF5 I/O=MPI-IO driver, subfiling driver" in r.lines,
               "the header's drivers", r)
        apis = [l.strip() for l in r.lines if "IO API =" in l]
        expect_eq(apis, ["IO API = PHDF5 (w/MPI-IO driver)",
                         "IO API = PHDF5 (w/subfiling driver)"] * 2, "the report's APIs", r)
        expect_eq(listing(d), [], "files left")


def logged(d, nprocs, args, env=None):
    """A run under the h5calls shim (tests/tools/h5calls.c); every
    process's lines."""
    return run_counted(nprocs, args, d, "H5CALLS", env)


@case
def hdf5_thread_level():
    """MPI is initialised with MPI_THREAD_MULTIPLE only when the subfiling
    driver is asked for; otherwise as before, without a thread level."""
    with TempDir() as d:
        _, got = logged(d, 2, "-A phdf5 -e 8K -x 8K -X 8K -p 2 -w")
        expect_eq(got, [["H5Dwrite 1", "MPI_Init"]] * 2, "without subfiling")
        if has_subfiling():
            _, got = logged(d, 2, "-A phdf5 -e 8K -x 8K -X 8K -p 2 -w --hdf5.driver subfiling")
            expect_eq(got, [["H5Dwrite 1", "MPI_Init_thread 3"]] * 2, "with subfiling")
        expect_eq(listing(d), [], "files left")


@case
def hdf5_multi_dataset_block():
    """--hdf5.multi-dataset: each HDF5 point runs with one call per variable,
    then with one H5Dwrite_multi (H5Dread_multi) per step for all 3
    variables, the calls counted by a shim: 2 steps each (--transfer-size
    half a block), so 6 H5Dwrite and 2 H5Dwrite_multi of 3 datasets per
    process; with =only, the multi-dataset calls alone (no run of one call
    per variable before them in the same processes): no H5Dwrite or H5Dread,
    one run. The file the multi-dataset run leaves holds every element, and
    collective calls report HDF5's actual I/O mode."""
    need_multi()
    shape = (16, 8)
    whole = block.expected(shape, 8, 3)
    for mode in ("", "-C"):
        for form in ("", "=only"):
            with TempDir() as d:
                out = os.path.join(d, "r.json")
                args = ("--pattern block --global 16x8 --grid 2x1 --layout shared --vars 3 "
                        "-A phdf5 --hdf5.multi-dataset%s --transfer-size 256 -p 2 -D v %s "
                        "--results %s" % (form, mode, out))
                r, got = logged(d, 2, args, {"HDF5_NOCLEANUP": "1"})
                calls = ["H5Dread_multi 2 6", "H5Dwrite_multi 2 6", "MPI_Init"]
                if not form:
                    calls += ["H5Dread 6", "H5Dwrite 6"]
                expect_eq(got, [sorted(calls)] * 2, "HDF5's calls (%s)" % args)
                for v in range(3):
                    expect(np.array_equal(values(os.path.join(d, STUB), "v%d" % v),
                                          whole[v].reshape(-1).astype(np.uint64)), "v%d" % v)
                doc = json.load(open(out))
                validate(doc, r)
                runs = [(x["variant"], x["hdf5"]["multi_dataset"], "actual_io_mode" in x)
                        for x in doc["runs"]]
                plain = [] if form else [(None, False, mode == "-C")]
                expect_eq(runs, plain + [("multi-dataset", True, mode == "-C")],
                          "the runs (%s)" % args)
                expect_eq(doc["config"]["hdf5_multi_dataset"], "only" if form else True,
                          "config.hdf5_multi_dataset")
                expect(any(l.startswith("    HDF5    shared, multi-dataset ") for l in r.lines),
                       "the report's row", r)


@case
def hdf5_multi_dataset_particles():
    """The particles pattern's eight variables in one call per step, shared
    and fpp, 3 processes of uneven counts (one without particles): every
    variable verifies, and each process made one H5Dwrite_multi of 8
    datasets per file (the fpp file of the process without particles has
    empty datasets, which HDF5 is not asked to move)."""
    need_multi()
    cs = [5, 0, 9]
    with TempDir() as d:
        r, got = logged(d, 3, "--pattern particles --distribution list:5,0,9 -A phdf5 "
                              "--hdf5.multi-dataset -p 3 -w", {"HDF5_NOCLEANUP": "1"})
        expect_eq(got, [["H5Dwrite 16", "H5Dwrite_multi 2 16", "MPI_Init"],
                        ["H5Dwrite 8", "H5Dwrite_multi 1 8", "MPI_Init"],
                        ["H5Dwrite 16", "H5Dwrite_multi 2 16", "MPI_Init"]], "HDF5's calls")
        whole = particles.expected(sum(cs), 8)
        particles.check_h5(os.path.join(d, STUB), 0, whole)
        starts = np.concatenate([[0], np.cumsum(cs)]).astype(int)
        for rank in range(3):
            particles.check_h5(os.path.join(d, "#pio_tmp_1.%d.h5" % rank), 0,
                               whole[:, starts[rank]:starts[rank + 1]])


@case
def fault_subfiling_interrupted():
    """A subfiled run interrupted mid-write (each subfile write slowed down by
    the faults shim): SIGTERM to mpiexec, and SIGKILL of every process, leave
    no file behind, the subfiles and the configuration file included."""
    need_subfiling()
    argv = [os.environ["H5PERF"], "-A", "phdf5", "--hdf5.driver", "subfiling", "-e", "64M", "-B",
            "1M", "-x", "1M", "-X", "1M", "-i", "100", "-p", "2"]
    for kill, what in ((lambda p, ranks: p.send_signal(signal.SIGTERM), "SIGTERM to mpiexec"),
                       (kill_every_rank, "every process killed")):
        with TempDir() as d:
            seen = []

            def watch(p, ranks, kill=kill):
                deadline = time.time() + 60
                while not any("_of_" in f for f in listing(d)) and time.time() < deadline:
                    time.sleep(0.05)
                seen.extend(listing(d))
                kill(p, ranks)

            interrupted_run(d, watch, slow_env(d, suffix="_of_1"), argv)
            expect(any(".subfile_" in f for f in seen), "subfiles existed: %s" % seen)
            wait_until_gone(d, what)


@case
def fault_subfiling_killed_inside_create():
    """A process killed inside H5Fcreate, as the subfiling driver creates its
    first subfile (the faults shim raises the signal in that open), leaves
    no stub, subfile or configuration file: their names are registered by
    the stub's own name before the create (docs/hdf5.md, "Cleanup").
    SIGTERM is met by the signal handler, SIGKILL by the cleanup process."""
    need_subfiling()
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with TempDir() as d, TempDir() as logs:
            log = os.path.join(logs, "faults.log")
            r = run(2, "-A phdf5 --hdf5.driver subfiling -e 1M -B 1M -x 1M -X 1M -p 2 -w",
                    env={"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
                         "H5PERF_FAULT_KILL_CREATE": "_of_",
                         "H5PERF_FAULT_KILL_SIGNAL": str(int(sig)), "H5PERF_FAULT_LOG": log})
            expect(r.rc != 0, "the run failed", r)
            with open(log) as fh:
                struck = fh.read().splitlines()
            expect_eq([re.sub(r"rank \d+ ", "", l.split(" create ")[0]) for l in struck],
                      ["kill signal %d" % int(sig)], "the kill struck inside the create", r)
            expect(STUB + ".subfile_" in struck[0], "at a subfile: %s" % struck, r)
            wait_until_gone(d, "killed by %s inside H5Fcreate" % sig.name)
