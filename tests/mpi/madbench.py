"""MPI cases of the madbench pattern (docs/madbench.md): MADbench2's I/O mode
on 1, 4 and 9 processes, through every API, shared and fpp, independent and
collective, every kept file read back by readers that share no code with
h5perf (numpy for the flat files, h5read for HDF5, cdf5.py for PnetCDF)
against the content rule, with the shares, slots and offsets computed here
from MADbench2's own definitions; the timers on the synthetic clock; the
token order in the iolog shim's log; and, where MADbench2 has been built
(bench/README.md), the same byte ranges as MADbench2's in both traces.
"""
import json
import os
import re
import shutil
import subprocess

import numpy as np

import cdf5
from common import SUFFIX, Skip, case
from harness import TempDir, built_apis, expect, expect_eq, launcher_is_hydra, listing, run
from results import validate


def numroc(n, nb, iproc, nprocs):
    """ScaLAPACK's numroc, as MADbench2.h defines it (no source offset)."""
    blocks = n // nb
    return (blocks // nprocs + (iproc < blocks % nprocs)) * nb + (iproc == blocks % nprocs) * (
        n % nb)


class Geom:
    """MADbench2's set-up (its initialize and define_gang): every process's
    distribution (gang1) and, with gangs, each gang's (gang2: gangs of
    procs/gangs consecutive ranks on a square grid of their own)."""

    def __init__(self, procs, pixels, bins, sblock=32, fblock=8, gangs=1):
        self.procs, self.pixels, self.bins, self.gangs = procs, pixels, bins, gangs
        side = int(round(procs ** 0.5))
        assert side * side == procs
        self.shares = [numroc(pixels, sblock, r % side, side) *
                       numroc(pixels, sblock, r // side, side) for r in range(procs)]
        self.first = [sum(self.shares[:r]) for r in range(procs)]
        gp = procs // gangs
        gside = int(round(gp ** 0.5))
        assert gside * gside * gangs == procs
        self.gang_of = [r // gp for r in range(procs)]
        self.gshares = [numroc(pixels, sblock, (r % gp) % gside, gside) *
                        numroc(pixels, sblock, (r % gp) // gside, gside) for r in range(procs)]
        self.gfirst = [sum(self.gshares[r - r % gp:r]) for r in range(procs)]
        # mpeak = max(no_gang * matrix1 of process 0, matrix2 of process 0);
        # gfb = ceil(mpeak / (no_gang * fblocksize)) in doubles
        fb = fblock // 8
        mpeak = max(gangs * self.shares[0], self.gshares[0])
        gfb = -(-mpeak // (gangs * fb))
        self.offcount = gfb * fb
        self.slot = self.offcount * 8
        self.gslot = self.slot * gangs

    def offset(self, shared, rank, b):
        """io_distmatrix's offset: bin*offcount*8, plus rank*NO_BIN*offcount*8
        in a shared file."""
        return (b + (rank * self.bins if shared else 0)) * self.slot

    def values(self, rank, b, complement):
        """Element j of bin b in the distributed order holds b*NO_PIX^2 + j
        (S), or its complement (W)."""
        j = np.arange(self.first[rank], self.first[rank] + self.shares[rank], dtype=np.uint64)
        v = np.uint64(b * self.pixels * self.pixels) + j
        return ~v if complement else v

    def gang_offset(self, shared, rank, k):
        """io_distmatrix's offset of gang slot k (pp_matrix2.offcount)."""
        return k * self.gslot + (rank * self.bins * self.slot if shared else 0)

    def s_end(self, shared, rank):
        last = self.procs - 1 if shared else rank
        return self.offset(shared, last, self.bins - 1) + 8 * self.shares[last]

    def file_end(self, shared, rank):
        last = self.procs - 1 if shared else rank
        w = self.gang_offset(shared, last, self.bins // self.gangs - 1) + 8 * self.gshares[last]
        return max(w, self.s_end(shared, rank))


def check_flat(path, g, rank=None):
    """A POSIX or MPI-IO file: exactly MADbench2's size, each share at its
    offset holding W's values, and nothing written between the shares."""
    shared = rank is None
    data = np.fromfile(path, dtype="<u8")
    expect_eq(data.size * 8, g.file_end(shared, rank or 0), "size of %s" % path)
    written = np.zeros(data.size, dtype=bool)
    for r in range(g.procs) if shared else [rank]:
        for b in range(g.bins):
            at = g.offset(shared, r, b) // 8
            got = data[at:at + g.shares[r]]
            want = g.values(r, b, True)
            bad = np.flatnonzero(got != want)
            expect(bad.size == 0, "%s: rank %d bin %d: %d elements differ, the first at %s" % (
                path, r, b, bad.size, bad[:1].tolist()))
            written[at:at + g.shares[r]] = True
    expect(not data[~written].any(), "%s: bytes between the shares were written" % path)


def h5values(path, name):
    p = subprocess.run([os.environ["H5READ"], path, name, "values"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, universal_newlines=True)
    expect_eq(p.returncode, 0, "h5read %s %s: %s" % (path, name, p.stderr))
    lines = dict(l.split(" ", 1) for l in p.stdout.splitlines() if " " in l)
    expect_eq(lines["type"], "integer 8 unsigned le", "type of %s:%s" % (path, name))
    expect_eq(lines["layout"], "contiguous", "layout of %s:%s" % (path, name))
    return [int(x) for x in lines["dims"].split()], np.array(
        [int(x) for x in lines["values"].split()], dtype=np.uint64)


def check_library(path, api, g, rank=None):
    """An HDF5 or netCDF file: one 1D variable bin_<b> per matrix, the whole
    matrix in the distributed order (shared) or the process's share (fpp),
    of W's values."""
    ranks = range(g.procs) if rank is None else [rank]
    if api == "phdf5":
        out = subprocess.run([os.environ["H5READ"], path, "--list"], stdout=subprocess.PIPE,
                             timeout=60, universal_newlines=True).stdout.split("\n")
        expect_eq(sorted(l for l in out if l), sorted("dataset bin_%d" % b for b in range(g.bins)),
                  "datasets of %s" % path)
    else:
        expect_eq(sorted(cdf5.header(path)["vars"]), sorted("bin_%d" % b for b in range(g.bins)),
                  "variables of %s" % path)
    for b in range(g.bins):
        if api == "phdf5":
            dims, got = h5values(path, "bin_%d" % b)
        else:
            typ, dims, got = cdf5.values(path, "bin_%d" % b)
            expect_eq(typ, "uint64", "type of %s:bin_%d" % (path, b))
            got = got.astype(np.uint64)
        want = np.concatenate([g.values(r, b, True) for r in ranks])
        expect_eq(dims, [want.size], "dims of %s:bin_%d" % (path, b))
        expect(np.array_equal(got, want), "values of %s:bin_%d" % (path, b))


def check_files(d, g, apis):
    for api in apis:
        check = check_library if api in ("phdf5", "pnetcdf") else None
        path = os.path.join(d, "#pio_tmp_1" + SUFFIX[api])
        check(path, api, g) if check else check_flat(path, g)
        for r in range(g.procs):
            path = os.path.join(d, "#pio_tmp_1.%d%s" % (r, SUFFIX[api]))
            check(path, api, g, r) if check else check_flat(path, g, r)


def madbench_files(procs, pixels, bins, sblock, fblock, mods=""):
    """Every API and both layouts, independent (taking turns: mods) and
    collective, verified (-D v: W's reads of S's values and C's of W's), the
    files kept and read back here."""
    g = Geom(procs, pixels, bins, sblock, fblock)
    apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
    for mode in (mods, "-C"):
        with TempDir() as d:
            args = ("--pattern madbench --pixels %d --bins %d --scalapack-block %d --file-block "
                    "%d -A %s -D v %s" % (pixels, bins, sblock, fblock, ",".join(apis), mode))
            r = run(procs, args, env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}, timeout=170)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
            expect("Number of processors = %d (a %dx%d grid; shares of %d to %d bytes in slots "
                   "of %d)" % (procs, round(procs ** 0.5), round(procs ** 0.5),
                               8 * min(g.shares), 8 * max(g.shares), g.slot) in r.lines,
                   "the shares' line", r)
            check_files(d, g, apis)
            expect_eq(len(listing(d)), len(apis) * (procs + 1), "files", r)


@case
def madbench_files_1_process():
    madbench_files(1, 100, 3, 16, 8)


@case
def madbench_files_4_processes():
    madbench_files(4, 100, 3, 16, 4096, "--read-mod 2 --write-mod 4")


@case
def madbench_files_9_processes():
    # 70 pixels in blocks of 8 over 3: rows of 24, 24 and 22 (a partial block)
    madbench_files(9, 70, 2, 8, 1024, "--read-mod 3")


def null_report(api, extra=""):
    """engine_null on the synthetic clock: {measure: (mean, min, max)} of the
    text report (seconds to 0.1 ms)."""
    r = run(1, "--pattern madbench --pixels 64 --bins 3 --layout shared -A %s %s" % (api, extra),
            env={"H5PERF_NULL_SECONDS": "0.001,0.002"}, exe=os.environ["ENGINE_NULL"])
    expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
    rows = [l.split() for l in r.lines if re.match(r"    \S+ +shared +[SWC]_", l)]
    return {x[2]: (x[3], x[5].strip("[:"), x[6].strip(":]")) for x in rows}


@case
def madbench_timers_on_the_synthetic_clock():
    """Each transfer takes 1 ms, then 2 ms, in turn (engine_null): the
    phases' read and write times add exactly their own calls, in
    MADbench2's order through a flat API (W reads one bin ahead: R0 R1 W0
    R2 W1 W2) and bin by bin through HDF5 (R0 W0 R1 W1 R2 W2); barriers,
    tokens and busy work take no time on this clock, and busy work is none
    of the I/O times."""
    flat = null_report("posix", "--busy-exponent 1")
    want = {"S_busy": 0, "S_write": 4, "W_busy": 0, "W_read": 4, "W_write": 5, "C_busy": 0,
            "C_read": 5}
    ms = {k: ("%.4f" % (v / 1000.0),) * 3 for k, v in want.items()}
    expect_eq(flat, ms, "flat API (MADbench2's order)")
    want.update({"W_read": 6, "W_write": 3})
    ms = {k: ("%.4f" % (v / 1000.0),) * 3 for k, v in want.items()}
    expect_eq(null_report("phdf5"), ms, "HDF5 (bin by bin)")
    expect_eq(sorted(null_report("phdf5", "-w")),
              ["S_busy", "S_write", "W_busy", "W_read", "W_write"], "-w: S and W")


def log_calls(path, marker):
    """[(rank, op, offset)] of the data calls in a shared iolog log, in the
    order the processes made them."""
    rank, calls = {}, []
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if f[1] == "rank":
                rank[f[0]] = int(f[2])
            elif f[1] in ("pwrite64", "pwrite", "pread64", "pread", "pwritev", "preadv"):
                calls.append((rank[f[0]], "w" if "write" in f[1] else "r", int(f[3])))
    return calls


@case
def madbench_token_order():
    """Only 1 in RMOD (WMOD) processes reads (writes) at a time: the iolog
    shim's one log holds each call's line before the call, so with 4
    processes and --write-mod 4 every bin is written by ranks 0, 1, 2, 3 in
    that order, and with --read-mod 2 read by 0 before 1 and 2 before 3;
    each bin's calls end before the next bin's begin (the barriers)."""
    g = Geom(4, 64, 3, 16, 4096)
    for api, layout in (("posix", "shared"), ("mpiio", "shared"), ("posix", "fpp")):
        with TempDir() as d:
            data = os.path.join(d, "data")
            os.mkdir(data)
            log = os.path.join(d, "io.log")
            env = {"HDF5_PARAPREFIX": data, "LD_PRELOAD": os.environ["IOLOG"],
                   "IOLOG_MARKER": "/data/", "IOLOG_FILE": log, "IOLOG_SHARED": "1"}
            r = run(4, "--pattern madbench --pixels 64 --bins 3 --scalapack-block 16 "
                    "--file-block 4096 --read-mod 2 --write-mod 4 -A %s --layout %s" % (
                        api, layout), env=env)
            expect_eq((r.rc, r.h5perf_err), (0, []), "exit status (%s)" % api, r)
            calls = log_calls(log, "/data/")
            shared = layout == "shared"
            # Each call as (phase op, bin) from its offset: S writes, W reads
            # and writes, C reads.
            slot = {}
            for rk in range(4):
                for b in range(g.bins):
                    slot[(rk, g.offset(shared, rk, b))] = b
            seq = [(op, slot[(rk, off)], rk) for rk, op, off in calls]
            expect_eq(len(seq), 4 * 4 * g.bins, "calls (%s %s)" % (api, layout), r)
            # The calls of one (op, bin) operation: contiguous in the log.
            groups = []
            for op, b, rk in seq:
                if not groups or groups[-1][0] != (op, b) or len(groups[-1][1]) == 4:
                    groups.append(((op, b), []))
                groups[-1][1].append(rk)
            expect_eq([len(x[1]) for x in groups], [4] * (4 * g.bins),
                      "each operation's 4 calls together (%s %s)" % (api, layout), r)
            for (op, b), ranks in groups:
                if op == "w":
                    expect_eq(ranks, [0, 1, 2, 3], "writes of bin %d, one at a time" % b, r)
                else:
                    expect(ranks.index(0) < ranks.index(1) and ranks.index(2) < ranks.index(3),
                           "reads of bin %d two at a time: 0 before 1, 2 before 3: %s" % (
                               b, ranks), r)


# --- the same byte ranges as MADbench2 ---------------------------------------

MADBENCH2 = os.path.expanduser("~/.cache/h5perf-peers/madbench2/MADbench2.x")
TRACED = "openat,open,read,write,pread64,pwrite64,preadv,pwritev,lseek,close"
CALL = re.compile(r"^(?:\[pid +\d+\] +|\d+ +)?(\w+)\((\d+)<([^>]*)>, (.*)\) += (-?\d+)")


def traced(np_, argv, cwd, env, out):
    """argv on np_ processes under mpiexec, each process under strace into
    out.<rank> (file descriptors with their paths, no data)."""
    cmd = os.environ.get("MPIEXEC", "mpiexec")
    flags = os.environ.get("MPIEXEC_FLAGS", "").split()
    wrap = ('exec strace -f -y -s 0 -e trace=%s -o "%s.${OMPI_COMM_WORLD_RANK:-$PMI_RANK}" '
            '"$0" "$@"' % (TRACED, out))
    full = dict(os.environ)
    for k in ("HDF5_NOCLEANUP", "HDF5_MPI_INFO", "HDF5_PARAPREFIX", "USER", "LOGIN"):
        full.pop(k, None)
    full.update(env)
    p = subprocess.run([cmd, os.environ.get("MPIEXEC_NUMPROC_FLAG", "-n"), str(np_)] + flags +
                       ["sh", "-c", wrap] + argv, cwd=cwd, env=full, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=150, universal_newlines=True)
    expect_eq(p.returncode, 0, "%s under strace:\n%s" % (argv[0], p.stdout))


def ranges(path, where):
    """{file: [[op, start, end], ...]} of one process's trace: the bytes each
    read ('r') and write ('w') reached in files under where, in order. A
    read or write at the file position that continues the call before it,
    with no seek between, is merged into it (stdio splits a large write and
    writes its tail at the next seek; it reads a large read's tail into its
    buffer); calls with an offset of their own are never merged."""
    pos, out, seeked = {}, {}, {}
    for line in syscalls(path):
        c = CALL.match(line)
        if not c or not c.group(3).startswith(where):
            continue
        name, fd, file, args, ret = c.group(1), c.group(2), c.group(3), c.group(4), int(
            c.group(5))
        if name == "lseek":
            pos[fd], seeked[fd] = ret, True
            continue
        if name not in ("read", "write", "pread64", "pwrite64", "preadv", "pwritev") or ret <= 0:
            continue
        own = name.startswith("p")
        start = int(args.split(",")[-1]) if own else pos.get(fd, 0)
        if not own:
            pos[fd] = start + ret
        op = "w" if "write" in name else "r"
        seq = out.setdefault(file[len(where):].lstrip("/"), [])
        if not own and not seeked.get(fd) and seq and seq[-1][0] == op and seq[-1][2] == start:
            seq[-1][2] += ret
        else:
            seq.append([op, start, start + ret])
        seeked[fd] = False
    return out


def syscalls(path):
    """The lines of one process's trace, each call whole (a call another
    thread interrupted, "<unfinished ...>" then "<... resumed>", joined)."""
    pending = {}
    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\n")
            m = re.match(r"^(\[pid +\d+\] +|\d+ +)?(.*) <unfinished \.\.\.>$", line)
            if m:
                pending[m.group(1)] = m.group(2)
                continue
            m = re.match(r"^(\[pid +\d+\] +|\d+ +)?<\.\.\. \w+ resumed>(.*)$", line)
            if m:
                line = (m.group(1) or "") + pending.pop(m.group(1), "") + m.group(2)
            yield line


OPEN = re.compile(r"^(?:\[pid +\d+\] +|\d+ +)?open(?:at)?\(.* = \d+<([^>]*)>$")


def opens(path, where):
    """{file: successful opens} of one process's trace, for files under
    where."""
    out = {}
    for line in syscalls(path):
        m = OPEN.match(line)
        if m and m.group(1).startswith(where):
            name = m.group(1)[len(where):].lstrip("/")
            out[name] = out.get(name, 0) + 1
    return out


def peer_compare(mb, procs, args, method, layout, d, gangs=1, iomode="SYNC", once=False):
    """MADbench2 with IOMETHOD=method and h5perf with the same arguments
    (NO_GANG gangs, IOMODE iomode; once: --opens once), both traced: per
    process and file, the same reads and writes of the same byte ranges in
    the same order; with once, as many opens of the file as MADbench2's."""
    pix, bins, sblock, fblock, rmod, wmod = args
    shared = layout == "shared"
    mdir, hdir = os.path.join(d, "mb"), os.path.join(d, "h5")
    os.mkdir(mdir)
    os.mkdir(hdir)
    traced(procs, [mb] + [str(x) for x in (pix, bins, gangs, sblock, fblock, rmod, wmod)], mdir,
           {"IOMETHOD": method, "FILETYPE": "SHARED" if shared else "UNIQUE",
            "IOMODE": iomode, "BWEXP": "0"}, os.path.join(d, "mb.trace"))
    api = "posix" if method == "POSIX" else "mpiio"
    traced(procs, [os.environ["H5PERF"], "--pattern", "madbench", "--pixels", str(pix),
                   "--bins", str(bins), "--scalapack-block", str(sblock), "--file-block",
                   str(fblock), "--read-mod", str(rmod), "--write-mod", str(wmod), "-A", api,
                   "--layout", layout, "--gangs", str(gangs), "--io-mode", iomode.lower(),
                   "--opens", "once" if once else "phase"], d,
           {"HDF5_PARAPREFIX": hdir},
           os.path.join(d, "h5.trace"))
    g = Geom(procs, pix, bins, sblock, fblock, gangs)
    what = "%s %s %s, %d gangs, %s" % (method, layout, args, gangs, iomode)
    for r in range(procs):
        mine = ranges(os.path.join(d, "mb.trace.%d" % r), os.path.join(mdir, "files"))
        theirs = ranges(os.path.join(d, "h5.trace.%d" % r), hdir)
        mname, hname = ("data", "#pio_tmp_1" + SUFFIX[api]) if shared else (
            "data_%d" % r, "#pio_tmp_1.%d%s" % (r, SUFFIX[api]))
        expect_eq(sorted(mine), [mname], "MADbench2's files of rank %d (%s)" % (r, what))
        expect_eq(sorted(theirs), [hname], "h5perf's files of rank %d (%s)" % (r, what))
        m, h = mine[mname], theirs[hname]
        # S writes every bin, W reads every bin and writes one per gang
        # slot, C reads each gang slot
        expect_eq(len(m), 2 * bins + 2 * bins // gangs, "calls of rank %d (%s)" % (r, what))
        ends = (g.s_end(shared, r), g.file_end(shared, r))
        for a, b in zip(m, h):
            if method == "POSIX" and a[0] == "r":
                # stdio reads whole 4096-byte buffers: to the next multiple
                # of 4096 from the read's start, or the end of the file
                # (after S, or after W's writes with gangs).
                full = a[1] + -(-(b[2] - b[1]) // 4096) * 4096
                a = [a[0], a[1], b[2] if a[2] in [min(full, e) for e in ends] else a[2]]
            expect_eq(a, b, "rank %d's calls (%s): MADbench2 %s, h5perf %s" % (r, what, m, h))
        expect_eq(len(m), len(h), "rank %d's calls (%s)" % (r, what))
        if not once:
            continue
        mo = opens(os.path.join(d, "mb.trace.%d" % r), os.path.join(mdir, "files"))
        ho = opens(os.path.join(d, "h5.trace.%d" % r), hdir)
        expect_eq(ho.get(hname), mo.get(mname), "rank %d's opens of its file (%s): MADbench2 "
                  "%s, h5perf %s" % (r, what, mo, ho))


def madbench2_or_skip():
    """MADbench2's program, or Skip saying why it cannot run here."""
    mb = os.environ.get("MADBENCH2", MADBENCH2)
    if not os.access(mb, os.X_OK):
        raise Skip("MADbench2 is not built at %s (bench/README.md; or set MADBENCH2)" % mb)
    if not shutil.which("strace"):
        raise Skip("strace is not installed")
    # The peer runs under the tests' launcher: it must be built with that
    # MPI library (MPICH's hydra cannot start an Open MPI program).
    libs = subprocess.run(["ldd", mb], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          check=False).stdout.decode(errors="replace")
    if ("libmpich" in libs) != launcher_is_hydra():
        raise Skip("MADbench2 at %s is built with another MPI library than this run's "
                   "launcher (%s)" % (mb, os.environ.get("MPIEXEC", "mpiexec")))
    return mb


@case
def madbench_against_madbench2():
    """MADbench2 (built outside the repository, bench/README.md; found at
    $MADBENCH2 or ~/.cache/h5perf-peers/madbench2/MADbench2.x) and h5perf
    on the same arguments, each process under strace: the same byte ranges
    of the same files, per process, in the same order (S's writes, W's reads
    one bin ahead and writes, C's reads), through POSIX and MPI-IO, shared
    and a file per process. MADbench2's POSIX method goes through stdio,
    whose reads fill 4096-byte buffers: its reads may reach on to the next
    multiple of 4096 bytes (or the end of the file), no further."""
    mb = madbench2_or_skip()
    for method in ("POSIX", "MPI"):
        for layout in ("shared", "fpp"):
            for args in ((100, 3, 16, 4096, 2, 2), (64, 2, 32, 8, 1, 4)):
                if method == "POSIX" and args[3] == 8:
                    continue  # stdio's buffer would serve reads from the next slot
                with TempDir() as d:
                    peer_compare(mb, 4, args, method, layout, d)


# --- the report, the results, refusals, kept files ----------------------------

def busy_madds(pixels, procs, sblock, bwexp, exponent):
    """MADbench2's busy_work: (long long)(dcount^sexp / (P*2*SBLOCKSIZE))
    passes of SBLOCKSIZE multiply-adds."""
    dcount, sexp = (pixels, exponent) if bwexp is None else (pixels * pixels, bwexp)
    return int(float(dcount) ** sexp / (procs * 2.0 * sblock)) * sblock


@case
def madbench_report_and_json():
    """The header, the table's lines (one per API, layout and measure, in
    MADbench2's order: busy, read, write per phase), and the results: the
    configuration, each run's grid, shares, slot and busy work (MADbench2's
    formula, computed here), its measures (bytes: every share of every bin;
    none for busy time), the CSV rows."""
    with TempDir() as d:
        out, csv_out = os.path.join(d, "r.json"), os.path.join(d, "r.csv")
        args = ("--pattern madbench --pixels 100 --bins 3 --scalapack-block 16 --file-block 4K "
                "--read-mod 2 --write-mod 4 --busy-exponent 1.5 -A posix,mpiio -i 2")
        r = run(4, args + " --results " + out, env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status", r)
        expect_eq(r.lines[1], "MADbench pattern: NO_PIX 100, NO_BIN 3, NO_GANG 1, SBLOCKSIZE 16, "
                  "FBLOCKSIZE 4096, RMOD 2, WMOD 4, BWEXP 1.5", "header", r)
        expect_eq(r.lines[2:4], ["Layouts: shared fpp", "APIs: posix mpiio"], "header", r)
        rows = [l.split()[:3] for l in r.lines if re.match(r"    (POSIX|MPI-IO) ", l)]
        names = ["S_busy", "S_write", "W_busy", "W_read", "W_write", "C_busy", "C_read"]
        expect_eq(rows, [[a, l, m] for l in ("shared", "fpp") for a in ("POSIX", "MPI-IO")
                         for m in names], "the table's rows", r)
        with open(out) as fh:
            doc = json.load(fh)
        validate(doc, r)
        expect_eq(doc["config"]["pattern"], "madbench", "pattern", r)
        expect_eq(doc["config"]["madbench"], {
            "pixels": 100, "bins": 3, "gang": 1, "scalapack_block": 16, "file_block": 4096,
            "read_mod": 2, "write_mod": 4, "busy_exponent": 1.5, "layouts": ["shared", "fpp"]},
            "madbench config", r)
        g = Geom(4, 100, 3, 16, 4096)
        madds = busy_madds(100, 4, 16, 1.5, 0)
        for x in doc["runs"]:
            expect_eq(x["madbench"], {"grid": [2, 2], "share_min": 8 * min(g.shares),
                                      "share_max": 8 * max(g.shares), "slot": g.slot,
                                      "busy_multiply_adds": {"S": madds, "W": madds, "C": madds}},
                      "run's madbench", r)
            expect_eq((x["bytes"], x["transfer_size"]), (8 * 3 * 100 * 100, 8 * max(g.shares)),
                      "bytes of each measure, largest call", r)
            expect_eq([m["measure"] for m in x["measures"]], names, "measures", r)
            for m in x["measures"]:
                busy = m["measure"].endswith("_busy")
                expect_eq([s["bytes"] for s in m["samples"]], [0 if busy else 240000] * 2,
                          "bytes of %s" % m["measure"], r)
                expect_eq(m["summary"]["mib_per_s"] is None, busy, "throughput of " + m["measure"])
        r = run(4, args + " --format csv -o " + csv_out + " --overwrite", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "CSV run", r)
        with open(csv_out) as fh:
            lines = fh.read().splitlines()
        got = [l.split(",")[3] for l in lines[1:] if "_latency_" not in l]
        expect_eq(got, [m for _ in range(4) for m in names for _ in range(2)], "CSV measures", r)
    # MADbench2 without BWEXP: its computation's own exponents.
    r = run(4, "--pattern madbench --pixels 300 --bins 1 --busy-exponent full -A posix "
            "--layout fpp --format json")
    expect_eq(r.rc, 0, "full busy work", r)
    x = json.loads(r.out)["runs"][0]["madbench"]["busy_multiply_adds"]
    expect_eq(x, {"S": busy_madds(300, 4, 32, None, 2), "W": busy_madds(300, 4, 32, None, 3),
                  "C": busy_madds(300, 4, 32, None, 2)}, "full busy work", r)


@case
def madbench_refusals_on_4_processes():
    """What needs more processes than tests/cli starts: a process row
    without a block (SBLOCKSIZE, or too few pixels for any), RMOD not dividing the processes, a sweep
    that visits a count that is not a square; each one line, exit 2, no
    file."""
    cases = [("--pixels 100 --scalapack-block 100",
              "h5perf: --scalapack-block '100': with 4 processes (a 2x2 grid) some process would "
              "hold no block of the 100-pixel matrices (MADbench2 needs ceil(NO_PIX / "
              "SBLOCKSIZE) >= 2); give --scalapack-block at most 99"),
             ("--pixels 32",
              "h5perf: --pixels '32': with 4 processes (a 2x2 grid) some process would hold no "
              "block of the 32-pixel matrices (MADbench2 needs ceil(NO_PIX / SBLOCKSIZE) >= 2); "
              "give --scalapack-block at most 31"),
             # Fewer pixels than the grid's side: no --scalapack-block
             # serves, the remedy is --pixels (at least SBLOCKSIZE x (side -
             # 1) + 1, accepted with the SBLOCKSIZE given or its default).
             ("--pixels 1",
              "h5perf: --pixels '1': with 4 processes (a 2x2 grid) some process would hold no "
              "block of the 1-pixel matrices (MADbench2 needs ceil(NO_PIX / SBLOCKSIZE) >= 2); "
              "give --pixels at least 33"),
             ("--pixels 1 --scalapack-block 1",
              "h5perf: --pixels '1': with 4 processes (a 2x2 grid) some process would hold no "
              "block of the 1-pixel matrices (MADbench2 needs ceil(NO_PIX / SBLOCKSIZE) >= 2); "
              "give --pixels at least 2"),
             ("--read-mod 3", "h5perf: --read-mod '3': does not divide the 4 processes (groups "
              "of that many take turns)"),
             ("-p 1", "h5perf: -p '1': the sweep from 4 processes visits 2; --pattern madbench "
              "runs on a square number of processes (1, 4, 9, 16...)"),
             ("-P 3", "h5perf: -P '3': --pattern madbench runs on a square number of processes "
              "(1, 4, 9, 16...)")]
    for extra, line in cases:
        with TempDir() as d:
            r = run(4, "--pattern madbench -A posix " + extra, env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.h5perf_err), (2, [line]), extra, r)
            expect_eq(listing(d), [], "no file (%s)" % extra, r)


@case
def madbench_read_only_and_a_corrupt_file():
    """A kept shared file (-w: S and W) is read back by --read-only and
    verified (C reads W's values); one byte changed in it is found: exit
    1, the one line of the process that read it."""
    g = Geom(4, 100, 3, 16, 4096)
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}
        base = "--pattern madbench --pixels 100 --bins 3 --scalapack-block 16 --file-block 4K " \
               "--layout shared -A posix"
        r = run(4, base + " -w", env=env)
        expect_eq((r.rc, r.h5perf_err), (0, []), "write only", r)
        expect_eq([l.split()[2] for l in r.lines if l.startswith("    POSIX")],
                  ["S_busy", "S_write", "W_busy", "W_read", "W_write"], "-w: S and W", r)
        path = os.path.join(d, "#pio_tmp_1.posix")
        check_flat(path, g)
        r = run(4, base + " --read-only -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "read only, verified", r)
        expect_eq([l.split()[2] for l in r.lines if l.startswith("    POSIX")],
                  ["C_busy", "C_read"], "--read-only: C", r)
        at = g.offset(True, 2, 1) + 8 * 5 + 3
        with open(path, "r+b") as fh:
            fh.seek(at)
            byte = fh.read(1)[0]
            fh.seek(at)
            fh.write(bytes([byte ^ 0xff]))
        r = run(4, base + " --read-only -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (1, [
            "h5perf: rank 2: verify '%s' (POSIX, 4 processes, layout shared, iteration 1): 1 "
            "bytes differ, the first at offset %d: expected %d, found %d" % (
                path, at, byte, byte ^ 0xff)]), "the changed byte found", r)
