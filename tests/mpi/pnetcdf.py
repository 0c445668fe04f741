"""MPI cases of the PnetCDF API (docs/pnetcdf.md): with -D v, every variable
of every .nc file is read by an independent CDF-5 reader (cdf5.py, numpy)
and checked against the same content the HDF5 datasets of the same run
hold (h5read): the guide's 1D and 2D patterns, the block pattern's
layouts and the particles pattern, independent and collective, 1 to 4
processes; --read-only, the --overhead column and the JSON. The
nonblocking variant (--pnetcdf.nonblocking) likewise, its kept files read
back the same way, its calls counted by a shim (tests/tools/nccalls.c).
Skipped (exit 77) when the build has no PnetCDF; the one case for such a
build checks that -A pnetcdf is refused.
"""
import json
import os
import shutil
import subprocess

import numpy as np

import block
import particles
from cdf5 import header, values
from common import FIG2, FIG3, Skip, case, data_file
from harness import TempDir, built_apis, expect, expect_eq, h5read, listing, run, run_counted
from layouts_2d import logical_2d
from results import validate as validate_json

KEEP = "HDF5_NOCLEANUP"
ELEM_TYPES = {1: "ubyte", 2: "ushort", 4: "uint", 8: "uint64"}
NB = "--pnetcdf.nonblocking"


def need_pnetcdf():
    if "pnetcdf" not in built_apis():
        raise Skip("this build of h5perf does not include PnetCDF")


def validate(path):
    """ncvalidator (pnetcdf-bin), where installed, checks the whole file
    against the format."""
    tool = shutil.which("ncvalidator")
    if not tool:
        return
    p = subprocess.run([tool, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=60, universal_newlines=True)
    expect_eq(p.returncode, 0, "ncvalidator %s: %s" % (path, p.stdout))


def check_nc(path, name, typ, want):
    got_type, shape, a = values(path, name)
    expect_eq((got_type, shape), (typ, list(want.shape)), "type and shape of %s:%s" % (
        path, name))
    bad = np.flatnonzero(a.reshape(-1) != want.reshape(-1))
    expect(bad.size == 0, "%s:%s: %d elements differ, the first at %s" % (
        path, name, bad.size, bad[:1].tolist()))


def guide(nprocs, args, dset, side=None, ndsets=1, nfiles=1):
    """A guide command through HDF5 and PnetCDF; every dataset of both
    holds dset (bytes of the logical dataset, side x side in 2D)."""
    shape = (side, side) if side else (len(dset),)
    want = np.frombuffer(dset, dtype=np.uint8).reshape(shape)
    with TempDir() as d:
        r = run(nprocs, args + " -D v -A phdf5,pnetcdf", env={"HDF5_PARAPREFIX": d, KEEP: "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
        for f in range(1, nfiles + 1):
            path = data_file(d, f, "pnetcdf")
            validate(path)
            expect_eq(sorted(header(path)["vars"]),
                      sorted("Dataset_%d" % k for k in range(1, ndsets + 1)), "variables", r)
            for k in range(1, ndsets + 1):
                _, _, h5 = h5read(data_file(d, f, "phdf5"), "Dataset_%d" % k)
                expect_eq(h5, dset, "HDF5 data of Dataset_%d" % k, r)
                check_nc(path, "Dataset_%d" % k, "ubyte", want)


@case
def pnetcdf_guide_1d():
    need_pnetcdf()
    for coll in ("", " -C"):
        guide(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4" + coll, FIG2)
        guide(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -I" + coll, FIG3)
        guide(2, "-B 2 -e 8 -p 2 -P 2 -x 4 -X 8 -d 3 -F 2 -I" + coll,
              bytes([1, 1, 2, 2] * 4), ndsets=3, nfiles=2)
        guide(1, "-B 2 -e 8 -x 2 -X 8" + coll, bytes([1] * 8))


@case
def pnetcdf_guide_2d():
    """Contiguous and interleaved, 2 to 4 processes; -c changes nothing in a
    netCDF file (docs/pnetcdf.md)."""
    need_pnetcdf()
    for coll in ("", " -C"):
        guide(3, "-B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g" + coll, logical_2d(4, 2, 3, False), 12)
        guide(3, "-B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g -I" + coll, logical_2d(4, 2, 3, True), 12)
        guide(2, "-B 4 -e 4 -p 2 -P 2 -x 4 -X 4 -g -c" + coll, logical_2d(4, 4, 2, False), 8)
        guide(4, "-B 2 -e 4 -p 4 -P 4 -x 4 -X 16 -g -I -d 2" + coll,
              logical_2d(4, 2, 4, True), 16, ndsets=2)


BLOCK_LAYOUTS = (("shared", 8, 2), ("chunked", 4, 1), ("fpp", 2, 2), ("shared", 1, 1))


def block_case(nprocs, shape, grid, extra="", layouts=BLOCK_LAYOUTS, apis="phdf5,pnetcdf"):
    """Each (layout, element size, variables), independent and collective;
    with extra "--pnetcdf.nonblocking" the .nc file kept is the
    nonblocking run's, which writes it last."""
    dims = block.dims_text
    for coll in ("", "-C"):
        for layout, elem, nvars in layouts:
            with TempDir() as d:
                args = ("--pattern block --global %s --grid %s --layout %s --element-size %d "
                        "--vars %d -D v -A %s %s %s" % (dims(shape), dims(grid), layout, elem,
                                                        nvars, apis, coll, extra))
                r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
                expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
                whole = block.expected(shape, elem, nvars)
                parts = block.blocks(shape, grid)
                chunk = [s // g for s, g in zip(shape, grid)]
                kind = ["chunked"] + [str(c) for c in chunk] if layout == "chunked" else [
                    "contiguous"]
                files = [(-1, whole)] if layout != "fpp" else [
                    (q, np.stack([whole[v][parts[q]] for v in range(nvars)]))
                    for q in range(nprocs)]
                for q, want in files:
                    tail = "" if q < 0 else ".%d" % q
                    nc = os.path.join(d, "#pio_tmp_1%s.nc" % tail)
                    h5 = os.path.join(d, "#pio_tmp_1%s.h5" % tail)
                    validate(nc)
                    for v in range(nvars):
                        if "phdf5" in apis:
                            block.check_h5(h5, "v%d" % v, want[v],
                                           kind if q < 0 else ["contiguous"], elem)
                        check_nc(nc, "v%d" % v, ELEM_TYPES[elem], want[v])
                expect_eq(len(listing(d)), len(apis.split(",")) * len(files),
                          "files of %s" % layout, r)


@case
def pnetcdf_block():
    """3D over 1, 2 and 4 processes, 2D over 3; every layout (the chunked
    layout's netCDF file is the shared one's, docs/pnetcdf.md)."""
    need_pnetcdf()
    block_case(1, (4, 6, 8), (1, 1, 1))
    block_case(2, (4, 6, 8), (2, 1, 1))
    block_case(4, (4, 6, 8), (2, 2, 1))
    block_case(3, (6, 8), (3, 1))


def particles_case(nprocs, dist, mean, nvars, extra="", apis="phdf5,pnetcdf"):
    cs = particles.counts(dist, nprocs, mean)
    n = sum(cs)
    whole = particles.expected(n, nvars)
    starts = np.concatenate([[0], np.cumsum(cs)]).astype(int)
    for coll in ("", "-C"):
        for layout in ("shared", "fpp"):
            with TempDir() as d:
                args = ("--pattern particles --distribution %s --vars %d --layout %s -D v "
                        "-A %s %s %s" % (dist, nvars, layout, apis, coll, extra))
                if mean:
                    args += " --particles %d" % mean
                r = run(nprocs, args, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
                expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
                files = [("", whole)] if layout == "shared" else [
                    (".%d" % q, whole[:, starts[q]:starts[q + 1]]) for q in range(nprocs)]
                for tail, want in files:
                    if "phdf5" in apis:
                        particles.check_h5(os.path.join(d, "#pio_tmp_1%s.h5" % tail), 0, want)
                    nc = os.path.join(d, "#pio_tmp_1%s.nc" % tail)
                    validate(nc)
                    for v in range(nvars):
                        name = particles.NAMES[v]
                        typ, shape, a = values(nc, name)
                        expect_eq((typ, shape), ("int" if v == 6 else "float", [want.shape[1]]),
                                  "type and shape of %s:%s" % (nc, name), r)
                        # Every element's bits, as the HDF5 check does.
                        bits = a.view(">u4").astype(np.uint32)
                        expect(np.array_equal(bits, want[v].astype(np.uint32)),
                               "values of %s:%s" % (nc, name), r)


@case
def pnetcdf_particles():
    """Uneven counts, a process without particles (its fpp file's variables
    are empty), every variable (id_1 the one of integers)."""
    need_pnetcdf()
    particles_case(1, "uniform", 7, 8)
    particles_case(2, "list:0,9", 0, 3)
    particles_case(4, "list:5,0,3,0", 0, 8)


@case
def pnetcdf_read_only():
    """A kept file read back, verified, by --read-only (collectively); a
    file without a variable the run reads, or no netCDF file at all, is
    refused before any read."""
    need_pnetcdf()
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, KEEP: "1"}
        r = run(2, "-A pnetcdf -e 8K -B 4K -x 4K -X 4K -p 2 -w -d 2", env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "the write", r)
        r = run(2, "-A pnetcdf -e 8K -B 4K -x 4K -X 4K -p 2 --read-only -D v -d 2 -C", env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "the read of the kept file", r)
        r = run(2, "-A pnetcdf -e 8K -B 4K -x 4K -X 4K -p 2 --read-only -d 3", env=env)
        path = data_file(d, 1, "pnetcdf")
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: --read-only: data file '%s' has no variable 'Dataset_3' (written with "
            "other options?)" % path]), "a missing variable", r)
    with TempDir() as d:
        path = data_file(d, 1, "pnetcdf")
        with open(path, "w") as fh:
            fh.write("not netCDF\n")
        r = run(2, "-A pnetcdf --read-only", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: --read-only: data file '%s' is not a readable netCDF file with 2 processes "
            "(written with other options?)" % path]), "not a netCDF file", r)


@case
def pnetcdf_report_and_json():
    """The report's API line, the --overhead column, the JSON's runs and
    the library's version; a default run leaves PnetCDF out."""
    need_pnetcdf()
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        r = run(2, "-A mpiio,phdf5,pnetcdf -e 64K -x 32K -X 64K -i 2 --overhead --results " +
                out, env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        expect(any(l.strip() == "IO API = PnetCDF" for l in r.lines), "the report's API line", r)
        heads = [l for l in r.lines if l.lstrip().startswith("Processes")]
        expect_eq(len(heads), 1, "one overhead header", r)
        expect(heads[0].rstrip().endswith("MPI-IO/POSIX  PnetCDF/MPI-IO"), "its columns", r)
        with open(out) as fh:
            doc = json.load(fh)
        expect_eq(doc["config"]["apis"], ["mpiio", "phdf5", "pnetcdf"], "config.apis", r)
        expect(doc["context"]["api_versions"]["pnetcdf"].startswith("PnetCDF 1."),
               "pnetcdf version", r)
        expect_eq(sorted({x["api"] for x in doc["runs"]}), ["mpiio", "phdf5", "pnetcdf"],
                  "runs' APIs", r)
    with TempDir() as d:
        r = run(2, "-e 8K -x 8K", env={"HDF5_PARAPREFIX": d, KEEP: "1"})
        expect_eq(r.rc, 0, "default run", r)
        expect(not any(f.endswith(".nc") for f in listing(d)), "no .nc file by default", r)


@case
def pnetcdf_exists_refused():
    """An existing .nc file is not ours to replace: refused before any run."""
    need_pnetcdf()
    with TempDir() as d:
        path = data_file(d, 1, "pnetcdf")
        with open(path, "w") as fh:
            fh.write("x")
        r = run(2, "-A pnetcdf", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 2, "exit status", r)
        expect(len(r.h5perf_err) == 1 and "already exists" in r.h5perf_err[0], "one line", r)


@case
def pnetcdf_not_built_refused():
    """A build without PnetCDF (an MPICH build, or -DH5PERF_PNETCDF=OFF)
    refuses -A pnetcdf with one line, creates nothing, and still runs the
    other APIs."""
    if "pnetcdf" in built_apis():
        raise Skip("this build includes PnetCDF")
    with TempDir() as d:
        r = run(2, "-A posix,pnetcdf", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: -A 'posix,pnetcdf': this build of h5perf does not include PnetCDF "
            "(configure with -DH5PERF_PNETCDF=ON where PnetCDF is installed)"]), "refusal", r)
        expect_eq(listing(d), [], "no file", r)


@case
def pnetcdf_io_error_on_one_process():
    """A write error on one process (LD_PRELOAD shim: pwrite fails with EIO
    on rank 1). Through ROMIO, which returns the error, independent and
    collective: one PnetCDF line, no hang, exit 1, the file removed.
    Through Open MPI's ompio, which reports success with a short count
    (docs/pnetcdf.md, "Errors"), PnetCDF reports success too: the size check
    after the write phase finds the file short when the last process's data
    is lost, and only -D v finds data lost before the end."""
    need_pnetcdf()
    args = "-e 64K -B 16K -x 32K -X 32K -p 3 -A pnetcdf"
    for coll in ("", " -C"):
        with TempDir() as d:
            path = data_file(d, 1, "pnetcdf")
            env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
                   "H5PERF_FAULT_SUFFIX": ".nc", "H5PERF_FAULT_EIO_RANK": "1",
                   "OMPI_MCA_io": "romio321"}
            r = run(3, args + coll, env=env)
            expect_eq((r.rc, r.h5perf_err), (1, [
                "h5perf: rank 1: PnetCDF write '%s': transfer 0 of 'Dataset_1', 32768 bytes "
                "from element (65536): Unknown error occurs in writing file" % path]),
                "exit status and lines, ROMIO" + coll, r)
            expect_eq(listing(d), [], "files left" + coll, r)
    with TempDir() as d:
        path = data_file(d, 1, "pnetcdf")
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".nc", "H5PERF_FAULT_EIO_RANK": "1"}
        r = run(3, args + " -D v", env=env)
        expect_eq((r.rc, r.h5perf_err), (1, [
            "h5perf: rank 1: verify '%s' (PnetCDF, 3 processes, transfer size 32768, iteration "
            "1): 65536 bytes differ, the first at offset 65536: expected 2, found 0" % path]),
            "exit status and lines, ompio with -D v", r)
        expect_eq(listing(d), [], "files left, ompio", r)
        env["H5PERF_FAULT_EIO_RANK"] = "2"
        r = run(3, args, env=env)
        expect_eq((r.rc, r.h5perf_err), (1, [
            "h5perf: rank 0: PnetCDF check size of '%s': the file holds 131584 bytes after the "
            "write phase instead of 197120: data was lost although every write reported success "
            "(file system full?)" % path]), "exit status and lines, ompio, the last process", r)
        expect_eq(listing(d), [], "files left, ompio, the last process", r)


@case
def pnetcdf_alignment():
    """-a reaches nc_var_align_size: every variable from a multiple of it
    (without -a, PnetCDF's own placement: 512 bytes here)."""
    need_pnetcdf()
    for args, begins in (("", [512, 16896, 33280]), ("-a 64K", [65536, 131072, 196608])):
        with TempDir() as d:
            r = run(2, "-A pnetcdf -e 8K -B 4K -x 4K -X 8K -p 2 -d 3 -D v " + args,
                    env={"HDF5_PARAPREFIX": d, KEEP: "1"})
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            h = header(data_file(d, 1, "pnetcdf"))
            expect_eq([h["vars"]["Dataset_%d" % k][2] for k in (1, 2, 3)], begins,
                      "variables' offsets with '%s'" % args, r)


# --- the nonblocking variant (--pnetcdf.nonblocking) ---------------------------

NB_LAYOUTS = (("shared", 8, 3), ("fpp", 2, 2), ("shared", 1, 1))


@case
def pnetcdf_nonblocking_block():
    """--pnetcdf.nonblocking: every variable's step posted, then one wait.
    3D over 1 and 2 processes, shared and fpp, independent and collective,
    -D v; the kept file (the nonblocking run's) checked element by
    element."""
    need_pnetcdf()
    block_case(1, (4, 6, 8), (1, 1, 1), NB, NB_LAYOUTS, "pnetcdf")
    block_case(2, (4, 6, 8), (2, 1, 1), NB, NB_LAYOUTS, "pnetcdf")


@case
def pnetcdf_nonblocking_block_3_4():
    """As pnetcdf_nonblocking_block: 3D over 4 processes, 2D over 3."""
    need_pnetcdf()
    block_case(4, (4, 6, 8), (2, 2, 1), NB, NB_LAYOUTS, "pnetcdf")
    block_case(3, (6, 8), (3, 1), NB, NB_LAYOUTS, "pnetcdf")


@case
def pnetcdf_nonblocking_particles():
    """The particles pattern's variables posted together, uneven counts, a
    process without particles (its fpp file's variables are empty, and it
    posts nothing there), 1, 2 and 4 processes."""
    need_pnetcdf()
    particles_case(1, "uniform", 7, 8, NB, "pnetcdf")
    particles_case(2, "list:0,9", 0, 3, NB, "pnetcdf")
    particles_case(4, "list:5,0,3,0", 0, 8, NB, "pnetcdf")


def logged(d, nprocs, args):
    """A run under the nccalls shim (tests/tools/nccalls.c), its files kept
    in d: the run and every process's lines."""
    return run_counted(nprocs, args, d, "NCCALLS", {KEEP: "1"}, timeout=120)


@case
def pnetcdf_nonblocking_calls():
    """What each variant calls, counted by a shim: 3 variables of 2 steps
    each (--transfer-size half a block), 2 processes. Blocking: 6 put_vara
    and 6 get_vara per process (_all with -C). Nonblocking: 6 iput_vara and
    6 iget_vara, completed by 4 waits of 3 requests (2 steps written, 2
    read), ncmpi_wait_all with -C, ncmpi_wait without. With =only, the
    nonblocking variant alone (no blocking run before it in the same
    processes, as an application's run): no blocking call, one run. The
    kept file holds every element; the report's row and the JSON's runs
    carry the variant."""
    need_pnetcdf()
    whole = block.expected((16, 8), 8, 3)
    for mode, suffix, wait in (("", "", "ncmpi_wait"), ("-C", "_all", "ncmpi_wait_all")):
        for form in ("", "=only"):
            with TempDir() as d, TempDir() as o:
                out = os.path.join(o, "r.json")
                args = ("--pattern block --global 16x8 --grid 2x1 --layout shared --vars 3 "
                        "-A pnetcdf %s%s --transfer-size 256 -p 2 -D v %s --results %s"
                        % (NB, form, mode, out))
                r, got = logged(d, 2, args)
                calls = ["ncmpi_iput_vara 6", "ncmpi_iget_vara 6", "%s 4 12" % wait]
                if not form:
                    calls += ["ncmpi_put_vara%s 6" % suffix, "ncmpi_get_vara%s 6" % suffix]
                expect_eq(got, [sorted(calls)] * 2, "PnetCDF's calls (%s)" % args)
                nc = os.path.join(d, "#pio_tmp_1.nc")
                validate(nc)
                for v in range(3):
                    check_nc(nc, "v%d" % v, "uint64", whole[v])
                doc = json.load(open(out))
                validate_json(doc, r)
                runs = [(x["layout"], x["variant"], x["pnetcdf"]) for x in doc["runs"]]
                alone = [("shared", "nonblocking", {"nonblocking": True})]
                plain = [] if form else [("shared", None, {"nonblocking": False})]
                expect_eq(runs, plain + alone, "the runs", r)
                expect_eq(doc["config"]["pnetcdf_nonblocking"], "only" if form else True,
                          "config.pnetcdf_nonblocking", r)
                expect(any(l.startswith("    PnetCDF shared, nonblocking ") for l in r.lines),
                       "the report's row", r)
                expect(any(l.startswith("    PnetCDF shared ") for l in r.lines) != bool(form),
                       "a row of the blocking calls, only beside them", r)


@case
def pnetcdf_nonblocking_uneven_calls():
    """The particles pattern, 3 processes of 5, 0 and 9 particles, shared
    and fpp, write only: each process posts its 8 variables and waits once
    per file; in its fpp file, whose variables are empty, the process
    without particles moves nothing, as with blocking calls: no post, and
    a collective wait of no request on its own file with -C, no wait
    without."""
    need_pnetcdf()
    for mode, wait in (("", "ncmpi_wait"), ("-C", "ncmpi_wait_all")):
        with TempDir() as d:
            r, got = logged(d, 3, "--pattern particles --distribution list:5,0,9 -A pnetcdf %s "
                                  "-p 3 -w %s" % (NB, mode))
            put = "ncmpi_put_vara%s" % ("_all" if mode else "")
            empty = ["%s 8" % put, "ncmpi_iput_vara 8", "%s %d 8" % (wait, 2 if mode else 1)]
            full = ["%s 16" % put, "ncmpi_iput_vara 16", "%s 2 16" % wait]
            expect_eq(got, [sorted(full), sorted(empty), sorted(full)], "PnetCDF's calls (%s)"
                      % mode, r)
            whole = particles.expected(14, 8)
            starts = [0, 5, 5, 14]
            for tail, want in [("", whole)] + [(".%d" % q, whole[:, starts[q]:starts[q + 1]])
                                              for q in range(3)]:
                nc = os.path.join(d, "#pio_tmp_1%s.nc" % tail)
                validate(nc)
                for v in range(8):
                    typ, shape, a = values(nc, particles.NAMES[v])
                    expect(np.array_equal(a.view(">u4").astype(np.uint32),
                                          want[v].astype(np.uint32)), "values of %s:%s" % (
                                              nc, particles.NAMES[v]), r)


@case
def pnetcdf_nonblocking_io_error():
    """A write error in the nonblocking variant (the faults shim: the 4th
    pwrite of the data on one rank fails with EIO, through ROMIO, which
    returns the error; the blocking run before it made 3): its request's
    status is checked and reported as a blocking call's would be, the
    variable and the first element of its step; exit 1, no file left.
    Independent: rank 1's one line. Collective: the wait's one write, by
    rank 0, fails for every process's requests: a line per process."""
    need_pnetcdf()
    args = "--pattern block --global 12x8 --vars 3 --layout shared -A pnetcdf %s -p 3 -w" % NB
    for mode, rank, ranks in (("", 1, [1]), (" -C", 0, [0, 1, 2])):
        with TempDir() as d:
            path = os.path.join(d, "#pio_tmp_1.nc")
            env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
                   "H5PERF_FAULT_SUFFIX": ".nc", "H5PERF_FAULT_RANK": str(rank),
                   "H5PERF_FAULT_CALL": "4", "H5PERF_FAULT_KIND": "eio",
                   "H5PERF_FAULT_OPS": "writes", "H5PERF_FAULT_FROM_OFFSET": "512",
                   "OMPI_MCA_io": "romio321"}
            r = run(3, args + mode, env=env)
            expect_eq((r.rc, r.h5perf_err), (1, [
                "h5perf: rank %d: PnetCDF write '%s': transfer 0 of 'v0', 256 bytes from element "
                "(%d,0): Unknown error occurs in writing file" % (q, path, 4 * q) for q in ranks]),
                "exit status and lines" + mode, r)
            expect(any(l.startswith("    PnetCDF shared, nonblocking") and "FAILED" in l
                       for l in r.lines), "the nonblocking row failed", r)
            expect(any(l.startswith("    PnetCDF shared  ") and "FAILED" not in l
                       for l in r.lines), "the blocking row did not", r)
            expect_eq(listing(d), [], "files left" + mode, r)
