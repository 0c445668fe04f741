"""MPI cases of MPI-IO's joined variant (--mpiio.joined, docs/mpiio.md,
"Joined calls"): step k of every variable of a file in one call through
one file view joining the variables' parts. The block pattern's layouts
(--vars 3), the particles pattern, a map of five decompositions whose
per-variable views differ (tests/mpi/mpiio_views.py's) and the madbench
pattern, independent and collective, -D v; every kept file (the joined
run's: --mpiio.joined=only) read back by numpy and checked element by
element against the content rule, as the plain calls' tests do; block and
map again under ROMIO (OMPI_MCA_io=romio321, where the library is Open
MPI). The calls counted by a shim (tests/tools/mpicalls.c): one transfer
per step per process joined, one per variable and step plain.
"""
import json
import os
import re

import numpy as np

import block
import madbench
import particles
from common import Skip, case
from harness import (TempDir, built_apis, expect, expect_eq, launcher_is_hydra, listing, run,
                     run_counted)
from map import KEEP, check_fpp, check_shared
from mpiio_views import DECOMPS, NPROCS, views_map
from results import validate

JOINED = "--mpiio.joined=only"


def romio():
    """ROMIO's environment where Open MPI has it beside ompio; MPICH's
    MPI-IO is ROMIO."""
    return {} if launcher_is_hydra() else {"OMPI_MCA_io": "romio321"}


def checked(nprocs, args, d, io=None, timeout=240, row=True):
    """A run of args keeping its files in d: exit 0, no line on stderr,
    the report's joined row (row: the madbench report's rows do not name
    variants)."""
    env = dict(io or {}, HDF5_PARAPREFIX=d, **{KEEP: "1"})
    r = run(nprocs, args, env=env, timeout=timeout)
    what = "%s (%s)" % (args, io or "default MPI-IO")
    expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr of " + what, r)
    expect(not row or any(", joined " in l and l.startswith("    MPI-IO ") for l in r.lines),
           "the joined row of " + what, r)
    return r


def block_raw(d, layout, nprocs, grid, elem, nvars, shape):
    """The MPI-IO files of one layout against the rule (block.py's
    check_files, MPI-IO's part)."""
    whole = block.expected(shape, elem, nvars)
    parts = block.blocks(shape, grid)
    if layout == "fpp":
        for q in range(nprocs):
            own = np.stack([whole[v][parts[q]] for v in range(nvars)])
            block.check_raw(os.path.join(d, "#pio_tmp_1.%d.mpio" % q), own)
        return
    path = os.path.join(d, "#pio_tmp_1.mpio")
    if layout == "shared":
        block.check_raw(path, whole)
    else:
        block.check_raw(path, np.concatenate([np.concatenate(
            [whole[v][p].reshape(-1) for p in parts]) for v in range(nvars)]))


BLOCK_LAYOUTS = (("shared", 8, 3), ("chunked", 4, 3), ("fpp", 2, 3), ("shared", 1, 1))


def block_joined(nprocs, shape, grid, modes=("", "-C"), io=None, extra=""):
    for mode in modes:
        for layout, elem, nvars in BLOCK_LAYOUTS:
            with TempDir() as d:
                args = ("--pattern block --global %s --grid %s --layout %s --element-size %d "
                        "--vars %d -D v -A mpiio %s %s %s" % (
                            block.dims_text(shape), block.dims_text(grid), layout, elem, nvars,
                            JOINED, mode, extra))
                r = checked(nprocs, args, d, io)
                block_raw(d, layout, nprocs, grid, elem, nvars, shape)
                count = nprocs if layout == "fpp" else 1
                expect_eq(len(listing(d)), count, "files of %s" % layout, r)


@case
def mpiio_joined_block():
    """3D over 2 and 4 processes, 2D over 3, every layout, 3 variables
    (and 1: the plain call), whole blocks and --transfer-size cuts."""
    block_joined(2, (4, 6, 8), (2, 1, 1))
    block_joined(4, (4, 6, 8), (2, 2, 1))
    block_joined(3, (6, 8), (3, 1), extra="--transfer-size 48")


@case
def mpiio_joined_block_romio():
    """As mpiio_joined_block under ROMIO, collective."""
    block_joined(4, (4, 6, 8), (2, 2, 1), ("-C",), romio())
    block_joined(3, (6, 8), (3, 1), ("-C",), romio(), "--transfer-size 48")


@case
def mpiio_joined_particles():
    """Uneven counts, a process without particles, 3 and 8 variables,
    shared and fpp."""
    for nprocs, dist, nvars in ((2, "list:0,9", 3), (4, "list:5,0,3,0", 8)):
        cs = particles.counts(dist, nprocs)
        whole = particles.expected(sum(cs), nvars)
        starts = np.concatenate([[0], np.cumsum(cs)]).astype(int)
        for mode in ("", "-C"):
            with TempDir() as d:
                checked(nprocs, "--pattern particles --distribution %s --vars %d --layout "
                        "shared,fpp -D v -A mpiio %s %s" % (dist, nvars, JOINED, mode), d)
                particles.check_raw(os.path.join(d, "#pio_tmp_1.mpio"), whole)
                for q in range(nprocs):
                    particles.check_raw(os.path.join(d, "#pio_tmp_1.%d.mpio" % q),
                                        whole[:, starts[q]:starts[q + 1]])


def map_joined(io, modes, extras):
    with TempDir() as m:
        path, decomps = views_map(m)
        counts = [1] * len(DECOMPS)
        for mode in modes:
            for extra in extras:
                with TempDir() as d:
                    checked(NPROCS, "--pattern map --map %s -A mpiio --layout shared,fpp -D v "
                            "%s %s %s" % (path, JOINED, mode, extra), d, io, 120)
                    check_shared(d, decomps, counts, 8, ["mpiio"])
                    check_fpp(d, decomps, counts, 8, ["mpiio"], NPROCS)


@case
def mpiio_joined_map():
    """A map of five decompositions (a subarray, one run, runs of boxes,
    none for a process, runs with an element no one has), each a variable
    of the file, whole selections and --transfer-size cuts (variables of
    different step counts), independent and collective."""
    map_joined({}, ("", "-C"), ("", "--transfer-size 40"))


@case
def mpiio_joined_map_romio():
    """As mpiio_joined_map under ROMIO, collective."""
    map_joined(romio(), ("-C",), ("", "--transfer-size 40"))


@case
def mpiio_joined_madbench():
    """MADbench2's bins are a file's variables: 4 processes, shared and fpp,
    independent (turns of 1) and collective, under the default MPI-IO and
    ROMIO; every kept file read back by numpy (madbench.check_files): each
    share at its offset, and the slots' holes never written. Under ROMIO
    the joined view over the slots would have data sieving fill the holes
    with stale bytes; h5perf opens such a file with romio_ds_write=disable
    (docs/mpiio.md, "Joined calls")."""
    g = madbench.Geom(4, 100, 3, 16, 4096)
    for io in ({}, romio()) if romio() else ({},):
        for mode in ("", "-C"):
            with TempDir() as d:
                checked(4, "--pattern madbench --pixels 100 --bins 3 --scalapack-block 16 "
                        "--file-block 4096 -A mpiio %s -D v %s" % (JOINED, mode), d, io,
                        timeout=170, row=False)
                madbench.check_files(d, g, ["mpiio"])
                expect_eq(len(listing(d)), 5, "files")


@case
def mpiio_joined_madbench_hint_given():
    """A romio_ds_write hint given in HDF5_MPI_INFO is passed as given:
    with disable, the files are MADbench2's, as without it."""
    g = madbench.Geom(4, 100, 3, 16, 4096)
    with TempDir() as d:
        env = dict(romio(), HDF5_MPI_INFO="romio_ds_write=disable")
        checked(4, "--pattern madbench --pixels 100 --bins 3 --scalapack-block 16 "
                "--file-block 4096 -A mpiio %s -D v" % JOINED, d, env,
                timeout=170, row=False)
        madbench.check_files(d, g, ["mpiio"])


@case
def mpiio_joined_madbench_turns_refused():
    """Processes taking turns (--write-mod 4) never reach a collective view
    together: refused before any file exists, with one line."""
    with TempDir() as d:
        r = run(4, "--pattern madbench --pixels 100 --bins 3 --scalapack-block 16 --file-block "
                   "4096 -A mpiio %s --write-mod 4" % JOINED, env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 2, "exit status", r)
        expect_eq(len(r.h5perf_err), 1, "one line", r)
        expect("--mpiio.joined sets a file view at every step, collectively" in r.h5perf_err[0],
               "the refusal", r)
        expect_eq(listing(d), [], "files")


@case
def mpiio_joined_calls():
    """What each variant calls, counted by a shim: 3 variables of 2 steps
    each (--transfer-size half a block), 2 processes, one contiguous run
    per step. Plain: 6 writes and 6 reads per process at explicit offsets
    and no view. Joined: 2 writes and 2 reads, each after its view (4):
    MPI_File_write_at_all with -C, MPI_File_write_at without. The kept
    file holds every element; the report's row and the JSON's runs carry
    the variant."""
    whole = block.expected((16, 8), 8, 3)
    for mode, suffix in (("", ""), ("-C", "_all")):
        for flag, want in (("", ["write_at%s 6", "read_at%s 6"]),
                           (JOINED, ["write_at%s 2", "read_at%s 2", "set_view 4"])):
            with TempDir() as d, TempDir() as o:
                out = os.path.join(o, "r.json")
                args = ("--pattern block --global 16x8 --grid 2x1 --layout shared --vars 3 "
                        "-A mpiio %s --transfer-size 256 -p 2 -D v %s --results %s" % (
                            flag, mode, out))
                r, got = run_counted(2, args, d, "MPICALLS", {KEEP: "1"}, timeout=120)
                lines = sorted("MPI_File_" + (w % suffix if "%" in w else w) for w in want)
                expect_eq(got, [lines] * 2, "MPI-IO's calls (%s)" % args, r)
                block.check_raw(os.path.join(d, "#pio_tmp_1.mpio"), whole)
                doc = json.load(open(out))
                validate(doc, r)
                joined = flag != ""
                runs = [(x["variant"], x["mpiio"]) for x in doc["runs"]]
                expect_eq(runs, [("joined" if joined else None, {"joined": joined})], "runs", r)
                expect_eq(doc["config"]["mpiio_joined"], "only" if joined else False,
                          "config.mpiio_joined", r)
                row = "    MPI-IO  shared%s " % (", joined" if joined else "")
                expect(any(l.startswith(row) for l in r.lines), "the report's row", r)


@case
def mpiio_joined_overhead_pairs_joined_rows():
    """The report's "Library overhead" table divides PnetCDF's nonblocking
    row (a variant that joins variables) by MPI-IO's joined row, and
    PnetCDF's blocking row and HDF5's by MPI-IO's default one
    (docs/mpiio.md, "Like with like"), and says so in its "Over" column:
    each line exactly, its ratios the open-to-close averages of the JSON's
    runs over their references'. The JSON's runs carry the same ratios
    and references (overhead.over); MPI-IO's own runs have none."""
    if "pnetcdf" not in built_apis():
        raise Skip("this build of h5perf does not include PnetCDF")
    with TempDir() as d, TempDir() as o:
        out = os.path.join(o, "r.json")
        r = run(2, "--pattern block --global 16x8x4 --vars 3 --layout shared -A mpiio,phdf5,pnetcdf "
                   "--mpiio.joined --pnetcdf.nonblocking -C -p 2 --results %s" % out,
                env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        doc = json.load(open(out))
        validate(doc, r)

        def avg(api, variant, measure):
            run_ = [x for x in doc["runs"] if (x["api"], x["variant"]) == (api, variant)][0]
            m = [x for x in run_["measures"] if x["measure"] == measure][0]
            return m["summary"]["mib_per_s"]["avg"]

        want = ["Library overhead: throughput over MPI-IO's on the same layout (averages)",
                "    API     Layout              Over                          Write    Read"]
        rows = (("HDF5", "phdf5", None, "shared", "shared", None),
                ("PnetCDF", "pnetcdf", None, "shared", "shared", None),
                ("PnetCDF", "pnetcdf", "nonblocking", "shared, nonblocking", "shared, joined",
                 "joined"))
        for name, api, variant, text, over, ref in rows:
            ratios = [avg(api, variant, m) / avg("mpiio", ref, m)
                      for m in ("write_open_close", "read_open_close")]
            want.append("    %-7s %-19s %-7s %-19s %7.2f %7.2f" % (name, text, "MPI-IO", over,
                                                                 ratios[0], ratios[1]))
            got = [x for x in doc["runs"] if (x["api"], x["variant"]) == (api, variant)][0]
            expect_eq(got["overhead"]["over"], {"api": "mpiio", "variant": ref},
                      "overhead.over of %s %s" % (api, variant), r)
            for k, key in enumerate(("write", "read")):
                expect(abs(got["overhead"][key] - ratios[k]) <= 1e-9 * ratios[k],
                       "overhead.%s of %s %s: %s, expected %s" % (
                           key, api, variant, got["overhead"][key], ratios[k]), r)
        i = r.lines.index(want[0])
        expect_eq(r.lines[i:i + len(want)], want, "the Library overhead table", r)
        expect_eq([x.get("overhead") for x in doc["runs"] if x["api"] == "mpiio"], [None, None],
                  "MPI-IO's runs' overhead", r)
