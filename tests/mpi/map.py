"""MPI cases of the map pattern (docs/map.md): decompositions read from a
map file by process 0, every process moving its selection of each variable.
Maps are made here at random (seeded) in the text format, and in E3SM-IO's
netCDF and HDF5 forms (a CDF-5 writer below; tests/tools/h5map for HDF5),
with processes that have nothing in some decompositions and elements no
process has. Through every API and both layouts, independent and
collective, 1 to 9 processes, with -D v; every kept file is read back by
readers that share no code with h5perf (numpy for raw files, h5read for
HDF5, cdf5.py for PnetCDF) and checked element by element against the
content rule: element i of variable v of a file holds (i + v*N) mod
2^(8*elem), N its array's elements; elements no process has are holes
(zeros) in the raw shared files. PnetCDF's nonblocking variant
(--pnetcdf.nonblocking) on text maps with a process that has none of any
array, its kept files checked the same way.
"""
import json
import os
import random
import struct
import subprocess

import numpy as np

from cdf5 import header
from common import SUFFIX, Skip, case
from harness import TempDir, built_apis, expect, expect_eq, listing, run
from results import validate

KEEP = "HDF5_NOCLEANUP"
UINT = {1: "<u1", 2: "<u2", 4: "<u4", 8: "<u8"}


# --- maps -------------------------------------------------------------------

class Decomp:
    """An array and each process's elements (owner[i]: a process, or -1)."""

    def __init__(self, dims, nprocs):
        self.dims = list(dims)
        self.n = int(np.prod(dims))
        self.owner = np.full(self.n, -1, dtype=int)
        self.nprocs = nprocs

    def mine(self, p):
        return np.flatnonzero(self.owner == p)


def runs_of(idx):
    """Maximal runs (offset, length) of sorted element indices."""
    out = []
    for i in idx:
        if out and out[-1][0] + out[-1][1] == i:
            out[-1][1] += 1
        else:
            out.append([int(i), 1])
    return out


def random_map(seed, nprocs, dims_list, empty=()):
    """Decompositions with boxes and runs at random; (process, k) in empty
    has nothing in decomposition k; about a tenth of the elements, and the
    last of the last array, belong to no one. Returns (decomps, text)."""
    rnd = random.Random(seed)
    decomps, lines = [], ["# made by tests/mpi/map.py, seed %d" % seed,
                          "processes %d" % nprocs]
    for k, dims in enumerate(dims_list):
        d = Decomp(dims, nprocs)
        grid = d.owner.reshape(dims)
        boxes = {p: [] for p in range(nprocs)}
        allowed = [p for p in range(nprocs) if (p, k) not in empty]
        for _ in range(2 * nprocs):  # a few boxes, where free
            p = rnd.choice(allowed)
            start = [rnd.randrange(n) for n in dims]
            count = [rnd.randint(1, min(3, n - s)) for n, s in zip(dims, start)]
            sl = tuple(slice(s, s + c) for s, c in zip(start, count))
            last = k + 1 == len(dims_list) and all(s + c == n for s, c, n in
                                                    zip(start, count, dims))
            if len(dims) > 1 and (grid[sl] == -1).all() and not last:
                grid[sl] = p
                boxes[p].append((start, count))
        free = np.flatnonzero(d.owner == -1)
        for i in free:
            if i != d.n - 1 or k + 1 < len(dims_list):
                d.owner[i] = -1 if rnd.random() < 0.1 else rnd.choice(allowed)
        if k + 1 == len(dims_list):
            d.owner[-1] = -1
        lines.append("array " + "x".join(str(n) for n in dims))
        order = list(range(nprocs))
        rnd.shuffle(order)
        for p in order:
            box_idx = set()
            for start, count in boxes[p]:
                sub = np.zeros(dims, dtype=bool)
                sub[tuple(slice(s, s + c) for s, c in zip(start, count))] = True
                box_idx.update(np.flatnonzero(sub.reshape(-1)).tolist())
            rest = [i for i in d.mine(p) if i not in box_idx]
            entries = ["%d:%d" % tuple(r) for r in runs_of(rest)]
            entries += [",".join("%d:%d" % sc for sc in zip(s, c)) for s, c in boxes[p]]
            rnd.shuffle(entries)
            if entries or rnd.random() < 0.5:
                lines.append(("%d: " % p + " ".join(entries)).rstrip())
        decomps.append(d)
    return decomps, "\n".join(lines) + "\n"


def file_vars(decomps, counts):
    """(file variable number, decomposition, name) in file order."""
    out, v = [], 0
    for k, d in enumerate(decomps):
        for j in range(counts[k]):
            out.append((v, d, "D%d_v%d" % (k + 1, j)))
            v += 1
    return out


def values_of(v, d, elem):
    a = np.arange(d.n, dtype=np.uint64) + np.uint64(v * d.n)
    return (a if elem == 8 else a % np.uint64(1 << (8 * elem))).astype(UINT[elem])


# --- independent readers ----------------------------------------------------

def h5(path, *args):
    p = subprocess.run([os.environ["H5READ"], path] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, universal_newlines=True)
    expect_eq(p.returncode, 0, "h5read %s %s: %s" % (path, args, p.stderr))
    return p.stdout.splitlines()


def h5_values(path, name):
    lines = dict(l.split(" ", 1) if " " in l else (l, "") for l in h5(path, name, "values"))
    dims = [int(x) for x in lines["dims"].split()]
    got = np.array([int(x) for x in lines.get("values", "").split()], dtype=np.uint64)
    return dims, lines["type"], got


def nc_values(path, name):
    """A variable of a CDF-5 file (cdf5.header); bytes past the end of the
    file (an array's unwritten tail) read as zeros."""
    h = header(path)
    typ, shape, begin, code = h["vars"][name]
    count = int(np.prod(shape)) if shape else 1
    size = {"ubyte": 1, "ushort": 2, "uint": 4, "uint64": 8}[typ]
    with open(path, "rb") as fh:
        fh.seek(begin)
        raw = fh.read(count * size)
    raw += b"\0" * (count * size - len(raw))
    return typ, shape, np.frombuffer(raw, dtype=">u%d" % size).astype(np.uint64)


# --- checks -------------------------------------------------------------------

def expect_same(got, want, what):
    got = np.asarray(got, dtype=np.uint64)
    want = np.asarray(want, dtype=np.uint64)
    expect_eq(got.size, want.size, "elements of " + what)
    bad = np.flatnonzero(got != want)
    expect(bad.size == 0, "%s: %d elements differ, the first at %s (%s, not %s)" % (
        what, bad.size, bad[:1].tolist(), got[bad[:1]].tolist(), want[bad[:1]].tolist()))


def check_shared(d, decomps, counts, elem, apis):
    fv = file_vars(decomps, counts)
    for api in apis:
        path = os.path.join(d, "#pio_tmp_1" + SUFFIX[api])
        if api in ("posix", "mpiio"):
            raw = open(path, "rb").read()
            at = 0
            for v, dc, name in fv:
                want = values_of(v, dc, elem)
                seg = raw[at:at + dc.n * elem]
                if v == len(fv) - 1:  # the unwritten tail is not in the file
                    end = (int(np.flatnonzero(dc.owner >= 0).max()) + 1) * elem
                    expect_eq(len(seg), end, "bytes of the last variable in " + path)
                    seg += b"\0" * (dc.n * elem - len(seg))
                got = np.frombuffer(seg, dtype=UINT[elem])
                # Holes: zeros in POSIX's file; an MPI-IO library's
                # collective writes may fill them with anything
                # (docs/map.md, "Elements no process has").
                keep = np.ones(dc.n, dtype=bool) if api == "posix" else dc.owner >= 0
                want[dc.owner == -1] = 0
                expect_same(got[keep], want[keep], "%s:%s" % (path, name))
                at += dc.n * elem
            continue
        if api == "phdf5":
            listed = h5(path, "--list")
            expect_eq(listed, sorted("dataset " + name for _, _, name in fv), "objects of " + path)
        for v, dc, name in fv:
            have = dc.owner >= 0
            if api == "phdf5":
                dims, typ, got = h5_values(path, name)
                expect_eq(typ, "integer %d unsigned le" % elem, "type of %s:%s" % (path, name))
            else:
                typ, dims, got = nc_values(path, name)
            expect_eq(dims, dc.dims, "dims of %s:%s" % (path, name))
            expect_same(got[have], values_of(v, dc, elem)[have], "%s:%s" % (path, name))


def check_fpp(d, decomps, counts, elem, apis, nprocs):
    fv = file_vars(decomps, counts)
    for api in apis:
        for p in range(nprocs):
            path = os.path.join(d, "#pio_tmp_1.%d%s" % (p, SUFFIX[api]))
            wants = [(name, values_of(v, dc, elem)[dc.mine(p)]) for v, dc, name in fv]
            if api in ("posix", "mpiio"):
                got = np.fromfile(path, dtype=UINT[elem])
                want = np.concatenate([w for _, w in wants])
                expect_same(got, want, path)
                continue
            for name, want in wants:
                if api == "pnetcdf":
                    _, dims, got = nc_values(path, name)
                elif want.size:
                    dims, _, got = h5_values(path, name)
                else:  # an empty dataset: its shape alone
                    lines = dict(l.split(" ", 1) for l in h5(path, name) if " " in l)
                    dims, got = [int(x) for x in lines["dims"].split()], []
                expect_eq(dims, [want.size], "dims of %s:%s" % (path, name))
                expect_same(got, want, "%s:%s" % (path, name))


def apis_here():
    return [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]


def run_map(nprocs, mapfile, args, decomps, counts, elem=8, layouts=("shared", "fpp")):
    """Both I/O modes through every API of the build: exit 0, no line on
    stderr, every kept file checked."""
    apis = apis_here()
    for mode in ("", "-C"):
        with TempDir() as d:
            full = "--pattern map --map %s -A %s --layout %s -D v %s %s" % (
                mapfile, ",".join(apis), ",".join(layouts), mode, args)
            r = run(nprocs, full, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % full, r)
            expect("Number of processors = %d (map '%s'); MB/s including open and close" % (
                nprocs, mapfile) in r.lines, "table title", r)
            if "shared" in layouts:
                check_shared(d, decomps, counts, elem, apis)
            if "fpp" in layouts:
                check_fpp(d, decomps, counts, elem, apis, nprocs)
            want = len(apis) * (("shared" in layouts) + nprocs * ("fpp" in layouts))
            expect_eq(len(listing(d)), want, "files", r)


def text_map(nprocs):
    empty = {(nprocs - 1, 1), (0, 2)} if nprocs > 1 else set()
    return random_map(1000 + nprocs, nprocs, [[23 + 4 * nprocs], [5, 3 + nprocs], [3, 4, 5]],
                      empty)


def map_text(nprocs):
    decomps, text = text_map(nprocs)
    with TempDir() as m:
        path = os.path.join(m, "map.txt")
        with open(path, "w") as fh:
            fh.write(text)
        run_map(nprocs, path, "", decomps, [1, 1, 1])


@case
def map_text_1_process():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(1)


@case
def map_text_2_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(2)


@case
def map_text_3_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(3)


@case
def map_text_4_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(4)


@case
def map_text_5_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(5)


@case
def map_text_6_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(6)


@case
def map_text_7_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(7)


@case
def map_text_8_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(8)


@case
def map_text_9_processes():
    """posix, mpiio, phdf5, pnetcdf (where built); shared and fpp."""
    map_text(9)


@case
def map_transfer_size():
    """Through posix, mpiio, phdf5 and pnetcdf (where built): --transfer-size: calls of at most 3 elements, cut in each process's
    C order, the same number on every process (collective)."""
    decomps, text = text_map(3)
    with TempDir() as m:
        path = os.path.join(m, "map.txt")
        with open(path, "w") as fh:
            fh.write(text)
        run_map(3, path, "--transfer-size 24", decomps, [1, 1, 1])


@case
def map_vars_list():
    """Through posix, mpiio, phdf5 and pnetcdf (where built): --vars one count per decomposition (0: none), 2-byte elements that
    wrap around."""
    decomps, text = random_map(7, 4, [[300], [17, 19], [2, 3, 40]], {(3, 0)})
    with TempDir() as m:
        path = os.path.join(m, "map.txt")
        with open(path, "w") as fh:
            fh.write(text)
        run_map(4, path, "--vars 2,0,1 --element-size 2", decomps, [2, 0, 1], elem=2)


# --- PnetCDF's nonblocking variant -----------------------------------------------

def run_map_nonblocking(nprocs, mapfile, args, decomps, counts, elem=8):
    """-A pnetcdf --pnetcdf.nonblocking, both layouts, independent and
    collective, -D v: exit 0, no line on stderr; the report's rows and the
    JSON's runs carry the variant; every kept file (the nonblocking run's,
    which writes it after the blocking one) read back by cdf5.py and
    checked element by element."""
    if "pnetcdf" not in built_apis():
        raise Skip("this build of h5perf does not include PnetCDF")
    for mode in ("", "-C"):
        with TempDir() as d, TempDir() as o:
            out = os.path.join(o, "r.json")
            full = ("--pattern map --map %s -A pnetcdf --pnetcdf.nonblocking --layout shared,fpp "
                    "-D v %s %s --results %s" % (mapfile, mode, args, out))
            r = run(nprocs, full, env={"HDF5_PARAPREFIX": d, KEEP: "1"}, timeout=240)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % full, r)
            for layout in ("shared", "fpp"):
                expect(any(l.startswith("    PnetCDF %s, nonblocking " % layout)
                           for l in r.lines), "the report's %s, nonblocking row" % layout, r)
            doc = json.load(open(out))
            validate(doc, r)
            runs = [(x["layout"], x["variant"], x["pnetcdf"]["nonblocking"]) for x in doc["runs"]]
            expect_eq(runs, [("shared", None, False), ("shared", "nonblocking", True),
                             ("fpp", None, False), ("fpp", "nonblocking", True)], "the runs", r)
            check_shared(d, decomps, counts, elem, ["pnetcdf"])
            check_fpp(d, decomps, counts, elem, ["pnetcdf"], nprocs)
            expect_eq(len(listing(d)), 1 + nprocs, "files", r)


def map_nonblocking(nprocs, args="", counts=(1, 1, 1), elem=8):
    """A text map of several runs and boxes per process in which the last
    process (of 2 or more) has none of any array."""
    empty = {(nprocs - 1, k) for k in range(3)} if nprocs > 1 else set()
    decomps, text = random_map(2000 + nprocs, nprocs, [[23 + 4 * nprocs], [5, 3 + nprocs],
                                                       [3, 4, 5]], empty)
    for p in sorted({p for p, _ in empty}):
        expect(all(d.mine(p).size == 0 for d in decomps), "process %d has nothing" % p)
    with TempDir() as m:
        path = os.path.join(m, "map.txt")
        with open(path, "w") as fh:
            fh.write(text)
        run_map_nonblocking(nprocs, path, args, decomps, list(counts), elem)


@case
def map_pnetcdf_nonblocking_1_process():
    """--pnetcdf.nonblocking through the map pattern, 1 process."""
    map_nonblocking(1)


@case
def map_pnetcdf_nonblocking_2_processes():
    """--pnetcdf.nonblocking through the map pattern, 2 processes, one with
    nothing."""
    map_nonblocking(2)


@case
def map_pnetcdf_nonblocking_3_processes():
    """--pnetcdf.nonblocking through the map pattern, 3 processes, one with
    nothing."""
    map_nonblocking(3)


@case
def map_pnetcdf_nonblocking_4_processes():
    """--pnetcdf.nonblocking through the map pattern, 4 processes, one with
    nothing."""
    map_nonblocking(4)


@case
def map_pnetcdf_nonblocking_transfer_size():
    """--pnetcdf.nonblocking with --transfer-size 6 elements and --vars
    2,0,1 of 2-byte elements: the variables have different step counts,
    so the later waits complete fewer variables than the first."""
    map_nonblocking(3, "--transfer-size 12 --vars 2,0,1 --element-size 2", (2, 0, 1), 2)


# --- E3SM-IO's map files ----------------------------------------------------

def cdf5_bytes(dims, atts, variables):
    """A CDF-5 file (the netCDF format E3SM-IO's maps are in): dims [(name,
    length)], global integer attributes [(name, values)], 1D int variables
    [(name, dim name, values)] (a list, or a numpy array for large ones),
    big-endian, from the format's grammar."""
    def name(s):
        b = s.encode()
        return struct.pack(">q", len(b)) + b + b"\0" * (-len(b) % 4)

    def ints(vals):
        b = (vals.astype(">i4").tobytes() if isinstance(vals, np.ndarray)
             else struct.pack(">%di" % len(vals), *vals))
        return b + b"\0" * (-len(b) % 4)

    head = [b"CDF\x05", struct.pack(">q", 0), struct.pack(">Iq", 0x0A, len(dims))]
    head += [name(n) + struct.pack(">q", ln) for n, ln in dims]
    head.append(struct.pack(">Iq", 0x0C, len(atts)))
    head += [name(n) + struct.pack(">Iq", 4, len(v)) + ints(v) for n, v in atts]
    head.append(struct.pack(">Iq", 0x0B, len(variables)))
    ids = {n: i for i, (n, _) in enumerate(dims)}
    size = len(b"".join(head)) + sum(
        len(name(n)) + 8 + 8 + 12 + 4 + 8 + 8 for n, _, _ in variables)
    body, at = [], size
    for n, dim, vals in variables:
        data = ints(vals)
        head.append(name(n) + struct.pack(">qq", 1, ids[dim]) + struct.pack(">Iq", 0, 0) +
                    struct.pack(">Iqq", 4, len(data), at))
        body.append(data)
        at += len(data)
    return b"".join(head + body)


def e3sm_parts(decomps, fills):
    """E3SM-IO's dimensions, attributes and variables of decomps: per
    process its written runs, then (fills[k][p]) runs no one writes."""
    nprocs = decomps[0].nprocs
    dims = [("num_decomp", len(decomps)), ("decomp_nprocs", nprocs)]
    atts, variables = [], []
    for k, d in enumerate(decomps):
        offs, lens, nreqs, starts = [], [], [], []
        for p in range(nprocs):
            mine = runs_of(d.mine(p))
            extra = fills[k].get(p, [])
            offs += [o for o, _ in mine + extra]
            lens += [n for _, n in mine + extra]
            nreqs.append(len(mine) + len(extra))
            starts.append(len(mine))
        tag = "D%d" % (k + 1)
        dims.append((tag + ".total_nreqs", len(offs)))
        atts += [(tag + ".ndims", [len(d.dims)]), (tag + ".dims", d.dims)]
        variables += [(tag + ".nreqs", "decomp_nprocs", nreqs),
                      (tag + ".fill_starts", "decomp_nprocs", starts),
                      (tag + ".offsets", tag + ".total_nreqs", offs),
                      (tag + ".lengths", tag + ".total_nreqs", lens)]
    return dims, atts, variables


def e3sm_f_shape(path, nprocs, ncol, nlev=72):
    """A map of E3SM's F case's shape (docs/map.md, "E3SM-IO's map files":
    D1 and D2 of ncol columns, D3 of nlev levels x ncol) in the netCDF form,
    written with numpy: column c is process c mod nprocs's, so that every
    run is one element, as many runs as elements (the most a map of these
    arrays can have). Returns the map's runs."""
    cols = [np.arange(p, ncol, nprocs, dtype=np.int64) for p in range(nprocs)]
    dims = [("num_decomp", 3), ("decomp_nprocs", nprocs)]
    atts, variables = [], []
    for k, levels in enumerate((0, 0, nlev)):
        offs = [c if not levels else (np.arange(levels)[:, None] * ncol + c).ravel()
                for c in cols]
        tag = "D%d" % (k + 1)
        total = sum(len(o) for o in offs)
        dims.append((tag + ".total_nreqs", total))
        atts += [(tag + ".ndims", [2 if levels else 1]),
                 (tag + ".dims", [levels, ncol] if levels else [ncol])]
        variables += [(tag + ".nreqs", "decomp_nprocs", [len(o) for o in offs]),
                      (tag + ".offsets", tag + ".total_nreqs", np.concatenate(offs)),
                      (tag + ".lengths", tag + ".total_nreqs", np.ones(total, dtype=np.int64))]
    with open(path, "wb") as fh:
        fh.write(cdf5_bytes(dims, atts, variables))
    return sum(d[1] for d in dims[2:])


def write_e3sm(m, decomps, fills):
    """Both forms of one map: m/map.nc (CDF-5) and m/map.h5 (h5map)."""
    dims, atts, variables = e3sm_parts(decomps, fills)
    nc, h5path = os.path.join(m, "map.nc"), os.path.join(m, "map.h5")
    with open(nc, "wb") as fh:
        fh.write(cdf5_bytes(dims, atts, variables))
    lines = ["dim %s %d" % d for d in dims]
    lines += ["att %s %s" % (n, " ".join(map(str, v))) for n, v in atts]
    lines += ["var %s %s" % (n, " ".join(map(str, v))) for n, _, v in variables]
    p = subprocess.run([os.environ["H5MAP"], h5path], input="\n".join(lines) + "\n",
                       universal_newlines=True, stderr=subprocess.PIPE, timeout=60)
    expect_eq(p.returncode, 0, "h5map: " + p.stderr)
    return nc, h5path


def e3sm_map():
    """Three decompositions for 4 processes (process 3 without any of the
    second), elements no one writes listed as their fill runs."""
    decomps, _ = random_map(42, 4, [[37], [6, 11], [2, 3, 7]], {(3, 1)})
    fills = []
    for d in decomps:
        nobody = runs_of(np.flatnonzero(d.owner == -1))
        fills.append({0: nobody[::2], 2: nobody[1::2]} if nobody else {})
    return decomps, fills


@case
def map_e3sm_forms():
    """E3SM-IO's netCDF and HDF5 forms of one map: the same files, each
    process writing its runs up to its fill_starts, checked element by
    element. Without PnetCDF, the netCDF form is refused with one line."""
    decomps, fills = e3sm_map()
    with TempDir() as m:
        nc, h5path = write_e3sm(m, decomps, fills)
        run_map(4, h5path, "", decomps, [1, 1, 1])
        if "pnetcdf" not in built_apis():
            with TempDir() as d:
                r = run(4, "--pattern map --map %s" % nc, env={"HDF5_PARAPREFIX": d})
                expect_eq((r.rc, r.h5perf_err), (2, [
                    "h5perf: --map '%s': is a netCDF file, and this h5perf is built without "
                    "PnetCDF, which reads them" % nc]), "refusal", r)
                expect_eq(listing(d), [], "files")
            raise Skip("this build of h5perf does not include PnetCDF: the netCDF form is "
                       "refused (checked); the HDF5 form passed")
        run_map(4, nc, "", decomps, [1, 1, 1])
        kept = []
        for path in (nc, h5path):
            with TempDir() as d:
                r = run(4, "--pattern map --map %s -A posix -w" % path,
                        env={"HDF5_PARAPREFIX": d, KEEP: "1"})
                expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
                kept.append({f: open(os.path.join(d, f), "rb").read() for f in listing(d)})
        expect_eq(kept[0], kept[1], "files of the netCDF and HDF5 forms")


@case
def map_e3sm_refusals():
    """Maps h5perf refuses, each with one line and exit 2, no data file:
    not an E3SM-IO map, overlapping runs, a run past the array, a map for
    another process count, a file that does not exist."""
    decomps, fills = e3sm_map()
    with TempDir() as m:
        nc, h5path = write_e3sm(m, decomps, fills)
        other = os.path.join(m, "other.h5")
        p = subprocess.run([os.environ["H5MAP"], other], input="att x 1\n",
                           universal_newlines=True, timeout=60)
        expect_eq(p.returncode, 0, "h5map")
        bad = os.path.join(m, "bad.h5")
        d = Decomp([10], 2)
        d.owner[:] = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
        dims, atts, variables = e3sm_parts([d], [{}])
        variables[2] = ("D1.offsets", "D1.total_nreqs", [0, 3])  # process 1 from 3: overlaps
        lines = ["dim %s %d" % x for x in dims] + ["att %s %s" % (n, " ".join(map(str, v)))
                                                   for n, v in atts]
        lines += ["var %s %s" % (n, " ".join(map(str, v))) for n, _, v in variables]
        subprocess.run([os.environ["H5MAP"], bad], input="\n".join(lines) + "\n",
                       universal_newlines=True, timeout=60, check=True)
        past = os.path.join(m, "past.h5")
        variables[2] = ("D1.offsets", "D1.total_nreqs", [0, 6])  # 6 + 6 passes 10
        lines = lines[:-4] + ["var %s %s" % (n, " ".join(map(str, v))) for n, _, v in variables]
        subprocess.run([os.environ["H5MAP"], past], input="\n".join(lines) + "\n",
                       universal_newlines=True, timeout=60, check=True)
        # Declared counts checked where they are read, before anything is
        # allocated from them: 2^20 processes, and a process's 2^22 + 1 runs.
        million = os.path.join(m, "million.h5")
        subprocess.run([os.environ["H5MAP"], million], input="\n".join(
            "dim decomp_nprocs 1048576" if l.startswith("dim decomp_nprocs ") else l
            for l in lines) + "\n", universal_newlines=True, timeout=60, check=True)
        many = os.path.join(m, "many.h5")
        variables[0] = ("D1.nreqs", "decomp_nprocs", [1, 4194305])
        lines = lines[:-4] + ["var %s %s" % (n, " ".join(map(str, v))) for n, _, v in variables]
        subprocess.run([os.environ["H5MAP"], many], input="\n".join(lines) + "\n",
                       universal_newlines=True, timeout=60, check=True)
        cases = [
            (2, million, "h5perf: --map '%s': is a map for 1048576 processes, and the run has 2; "
                         "start 1048576 (mpiexec -n), with -p and -P left out or 1048576" % million),
            (2, many, "h5perf: --map '%s': D1: process 1's number of runs 4194305 is out of range "
                      "(0 to 4194304, what h5perf plans)" % many),
            (4, other, "h5perf: --map '%s': is not an E3SM-IO decomposition map: it has no "
                       "dimension 'num_decomp'" % other),
            (2, bad, "h5perf: --map '%s': D1: process 1's run 0 (3:6) overlaps process 0's run "
                     "0 (0:4) at element 3" % bad),
            (2, past, "h5perf: --map '%s': D1: process 1's run 0 (6:6) passes the end of the "
                      "array's 10 elements" % past),
            (2, h5path, "h5perf: --map '%s': is a map for 4 processes, and the run has 2; start "
                        "4 (mpiexec -n), with -p and -P left out or 4" % h5path),
            (2, os.path.join(m, "none.h5"), "h5perf: --map '%s': cannot be read: No such file "
                                            "or directory" %
             os.path.join(m, "none.h5")),
        ]
        for nprocs, path, line in cases:
            with TempDir() as dd:
                r = run(nprocs, "--pattern map --map %s" % path, env={"HDF5_PARAPREFIX": dd})
                expect_eq((r.rc, r.h5perf_err), (2, [line]), "refusal of %s" % path, r)
                expect_eq(listing(dd), [], "files after the refusal of %s" % path)


@case
def map_e3sm_late_overlap():
    """An E3SM-IO map of 8 processes whose only overlap is in the last
    process's runs: process 7's run overlaps process 2's, which process 0,
    reading one process's runs at a time (docs/map.md, "Memory"), finds by
    reading process 2's runs again. Refused with one line naming both runs,
    exit 2, no data file, in both forms (the netCDF one where PnetCDF is
    built)."""
    d = Decomp([80], 8)
    for p in range(8):
        d.owner[10 * p:10 * p + (10 if p < 7 else 3)] = p
    dims, atts, variables = e3sm_parts([d], [{}])
    offsets = list(variables[2][2])
    offsets[7] = 25  # process 7's run 70:3 moved inside process 2's 20:10
    variables[2] = ("D1.offsets", "D1.total_nreqs", offsets)
    with TempDir() as m:
        paths = [os.path.join(m, "late.h5")]
        lines = ["dim %s %d" % x for x in dims]
        lines += ["att %s %s" % (n, " ".join(map(str, v))) for n, v in atts]
        lines += ["var %s %s" % (n, " ".join(map(str, v))) for n, _, v in variables]
        subprocess.run([os.environ["H5MAP"], paths[0]], input="\n".join(lines) + "\n",
                       universal_newlines=True, timeout=60, check=True)
        if "pnetcdf" in built_apis():
            paths.append(os.path.join(m, "late.nc"))
            with open(paths[1], "wb") as fh:
                fh.write(cdf5_bytes(dims, atts, variables))
        for path in paths:
            with TempDir() as dd:
                r = run(8, "--pattern map --map %s -A posix,mpiio -w" % path,
                        env={"HDF5_PARAPREFIX": dd})
                expect_eq((r.rc, r.h5perf_err), (2, [
                    "h5perf: --map '%s': D1: process 7's run 0 (25:3) overlaps process 2's run "
                    "0 (20:10) at element 25" % path]), "refusal of %s" % path, r)
                expect_eq(listing(dd), [], "files after the refusal of %s" % path)


@case
def map_e3sm_stream_ends_mid_way():
    """An E3SM-IO map of 8 processes streamed by process 0, the stream
    failing after processes 0 to 6 have their parts (the allocs shim): when
    process 0 cannot make process 7's part (5 boxes, 281 bytes), and when
    process 7 cannot take it (4,617 bytes with the common part). Every
    process still waiting is told; the run ends with the one line of the
    process that failed, exit 2, no data file, no process left waiting."""
    d = Decomp([80], 8)
    for p in range(7):
        d.owner[10 * p:10 * p + 10] = p
    d.owner[70:80:2] = 7
    dims, atts, variables = e3sm_parts([d], [{}])
    with TempDir() as m:
        path = os.path.join(m, "eight.h5")
        lines = ["dim %s %d" % x for x in dims]
        lines += ["att %s %s" % (n, " ".join(map(str, v))) for n, v in atts]
        lines += ["var %s %s" % (n, " ".join(map(str, v))) for n, _, v in variables]
        subprocess.run([os.environ["H5MAP"], path], input="\n".join(lines) + "\n",
                       universal_newlines=True, timeout=60, check=True)
        cases = ((0, 281, "h5perf: --map '%s': out of memory for process 7's part" % path),
                 (7, 4617, "h5perf: out of memory for the 4616 bytes of --pattern map's input"))
        for rank, size, line in cases:
            with TempDir() as dd, TempDir() as logs:
                log = os.path.join(logs, "allocs.log")
                r = run(8, "--pattern map --map %s -A posix -w" % path, timeout=60,
                        env={"HDF5_PARAPREFIX": dd, "LD_PRELOAD": os.environ["ALLOCS"],
                             "H5PERF_ALLOC_FAIL_SIZE": str(size),
                             "H5PERF_ALLOC_RANK": str(rank), "H5PERF_ALLOC_LOG": log})
                with open(log) as fh:
                    expect_eq(fh.read(), "alloc rank %d size %d\n" % (rank, size),
                              "the shim's failure", r)
                expect_eq((r.rc, r.h5perf_err), (2, [line]), "the line", r)
                expect_eq(listing(dd), [], "files after the failure", r)


@case
def map_e3sm_sparse_read_whole():
    """An E3SM-IO map of 2 runs in an array of 2^20 x 2^20 elements, whose
    bitmap (128 GiB, more than this host has: streamed, it would be refused
    as too large to read) would hold more than its runs: read whole instead
    (docs/map.md, "Memory"), and its overlap refused with the same line as
    ever, exit 2, no data file."""
    dims = [("num_decomp", 1), ("decomp_nprocs", 2), ("D1.total_nreqs", 2)]
    atts = [("D1.ndims", [2]), ("D1.dims", [1 << 20, 1 << 20])]
    variables = [("D1.nreqs", [1, 1]), ("D1.offsets", [0, 3]), ("D1.lengths", [4, 6])]
    with TempDir() as m, TempDir() as d:
        path = os.path.join(m, "sparse.h5")
        lines = ["dim %s %d" % x for x in dims]
        lines += ["att %s %s" % (n, " ".join(map(str, v))) for n, v in atts]
        lines += ["var %s %s" % (n, " ".join(map(str, v))) for n, v in variables]
        subprocess.run([os.environ["H5MAP"], path], input="\n".join(lines) + "\n",
                       universal_newlines=True, timeout=60, check=True)
        r = run(2, "--pattern map --map %s -A posix -w" % path, env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: --map '%s': D1: process 1's run 0 (3:6) overlaps process 0's run 0 (0:4) "
            "at element 3" % path]), "refusal", r)
        expect_eq(listing(d), [], "files after the refusal")


# E3SM-IO's own maps of its F, G and I cases at 16 processes (its
# repository's datasets/, not a dependency: bench/README.md says how it was
# fetched), with each decomposition's array, slowest dimension first
# (docs/map.md, "E3SM-IO's map files").
E3SM_DATASETS = os.path.expanduser("~/.cache/h5perf-peers/e3sm-io/datasets")
E3SM_CASES = {"f": [[866], [866], [72, 866]],
              "g": [[285], [879], [285, 100], [879, 100], [593, 100], [285, 101]],
              "i": [[96, 144], [15, 96, 144], [10, 96, 144], [9, 96, 144], [17, 96, 144]]}


def e3sm_real_map(path, dims_list, nprocs):
    """The decompositions of one of E3SM-IO's maps, read by cdf5.py: process
    p's runs follow the earlier processes' nreqs; it has the first
    fill_starts[p] of them (all where the map has no fill_starts)."""
    from cdf5 import values
    names = header(path)["vars"]
    decomps = []
    for k, dims in enumerate(dims_list):
        key = "D%d." % (k + 1)
        nreqs = values(path, key + "nreqs")[2].tolist()
        offsets = values(path, key + "offsets")[2].tolist()
        lengths = values(path, key + "lengths")[2].tolist()
        fill = (values(path, key + "fill_starts")[2].tolist()
                if key + "fill_starts" in names else nreqs)
        expect_eq(len(nreqs), nprocs, "processes of %s's %s" % (path, key))
        d = Decomp(dims, nprocs)
        at = 0
        for p in range(nprocs):
            for r in range(at, at + fill[p]):
                d.owner[offsets[r]:offsets[r] + lengths[r]] = p
            at += nreqs[p]
        decomps.append(d)
    return decomps


@case
def map_e3sm_real_cases():
    """E3SM-IO's F, G and I maps at 16 processes (its datasets, where
    fetched: skipped otherwise), through every API, shared and a file per
    process, independent and collective, -D v: every kept file read back
    and checked element by element against the map as read here."""
    if not os.path.isdir(E3SM_DATASETS):
        raise Skip("E3SM-IO's datasets are not at %s (bench/README.md)" % E3SM_DATASETS)
    if "pnetcdf" not in built_apis():
        raise Skip("this build of h5perf does not include PnetCDF, which reads E3SM-IO's "
                   "netCDF maps")
    for case_name, dims_list in sorted(E3SM_CASES.items()):
        path = os.path.join(E3SM_DATASETS, "map_%s_case_16p.nc" % case_name)
        decomps = e3sm_real_map(path, dims_list, 16)
        run_map(16, path, "", decomps, [1] * len(decomps))


@case
def map_results():
    """The JSON results: the configuration's map part, bytes per phase
    (every process's elements times the variables), valid against the
    schema."""
    decomps, text = text_map(3)
    with TempDir() as d:
        path = os.path.join(d, "map.txt")
        with open(path, "w") as fh:
            fh.write(text)
        out = os.path.join(d, "r.json")
        r = run(3, "--pattern map --map %s -A posix,mpiio --vars 2 --element-size 4 "
                   "--results %s" % (path, out), env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        doc = json.load(open(out))
        validate(doc)
        expect_eq(doc["config"]["pattern"], "map", "pattern")
        expect_eq(doc["config"]["map"], {"map": path, "vars": 2, "element_size": 4,
                                         "layouts": ["shared", "fpp"]}, "config.map")
        moved = 2 * 4 * sum(int((dc.owner >= 0).sum()) for dc in decomps)
        expect_eq(sorted({(x["api"], x["layout"], x["bytes"]) for x in doc["runs"]}),
                  sorted((a, l, moved) for a in ("mpiio", "posix") for l in ("fpp", "shared")),
                  "runs")


@case
def map_read_only():
    """Files a -w run kept are read back by --read-only (posix, mpiio,
    phdf5, pnetcdf where built) and verified; a map whose first array is one
    element longer is refused before anything is read."""
    decomps, text = text_map(3)
    apis = ",".join(apis_here())
    with TempDir() as d:
        path, other = os.path.join(d, "map.txt"), os.path.join(d, "other.txt")
        with open(path, "w") as fh:
            fh.write(text)
        n = decomps[0].n
        with open(other, "w") as fh:
            fh.write(text.replace("array %d\n" % n, "array %d\n" % (n + 1), 1))
        data = os.path.join(d, "data")
        os.mkdir(data)
        env = {"HDF5_PARAPREFIX": data, KEEP: "1"}
        base = "--pattern map --layout shared -A %s" % apis
        r = run(3, "%s --map %s -w" % (base, path), env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "write run", r)
        check_shared(data, decomps, [1, 1, 1], 8, apis_here())
        r = run(3, "%s --map %s --read-only -D v" % (base, path), env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "read-only run", r)
        r = run(3, "--pattern map --layout shared -A posix --map %s --read-only" % other, env=env)
        want = ("h5perf: --read-only: data file '%s/#pio_tmp_1.posix' holds %d bytes, fewer "
                "than the %d this run reads (written with other options?)")
        size = os.path.getsize(os.path.join(data, "#pio_tmp_1.posix"))
        expect_eq((r.rc, r.h5perf_err), (2, [want % (data, size, size + 8)]), "refusal", r)
