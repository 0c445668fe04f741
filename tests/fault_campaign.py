#!/usr/bin/env python3
"""The randomized fault campaign (docs/differences.md, "Failures"): each draw
is a run at random (pattern, API, layout, independent or collective, 1 to 8
processes, sizes, placement, verification, HDF5_NOCLEANUP; the madbench
pattern's turns, busy work and asynchronous mode, maps of several
decompositions, the variants that move every variable's step in one
call) and one fault
from the faults shim (tests/tools/faults.c) on a random process at a random
I/O call: EIO, ENOSPC from then on, a short count, EINTR, a delay past the
watchdog, or the process killed. Every draw is checked against what the
README promises:

- the run ends, and before the watchdog's bound when a call is stuck
  (the seconds the whole machine stood still not counted, as the watchdog
  does not count them: class Stalls);
- an I/O error (EIO, ENOSPC, a short count, EINTR) is agreed by the
  processes, wherever the others wait (a barrier, the token, busy work):
  never ended by the watchdog, whose bound such draws raise to 60 s. The
  exceptions are known defects of HDF5 1.10.8, no failure of h5perf's: an
  HDF5 draw whose fault struck a write and whose call diverged inside the
  library when the write failed on one process only, its close (docs/
  design.md, "A failed phase's close") or a chunked dataset's creation
  with the library's fill, and under MPICH a collective transfer failed on
  one process and a superblock read failed inside H5Fopen
  (hdf5_diverged); and one of Open MPI's ompio, a
  collective read (MPI-IO, HDF5, PnetCDF) whose aggregator's read failed
  (ompio_read_diverged);
- its exit status: 0 when no fault struck (or one h5perf or the library
  absorbed: a short count, EINTR), 1 for an I/O error, non-zero when a
  process was killed or aborted by the watchdog;
- one line per failing process, naming its rank, the API, the operation
  and the data file (and the offset, for POSIX and MPI-IO transfers), or
  the watchdog's line naming the stuck call;
- no h5perf process left, no data file left (all kept, and only data
  files, with HDF5_NOCLEANUP);
- the sentinel file beside the data untouched;
- a results document (--results) valid against docs/results.schema.json
  whose status and exit status are the run's, the failure recorded in a
  run's errors; a run the launcher ended leaves none, or a valid one.

Every draw prints its seed; `fault_campaign.py --replay SEED` runs that draw
again. The campaign's seed is SUITE_SEED unless --seed (or
H5PERF_CAMPAIGN_SEED) gives another or `random`: the suite makes the same
draws at every run, so that it passes or fails on the code alone (a
violation a random seed finds is fixed, and its draw replayed, before it
can block a change that did not cause it); exploring is a random seed's
job (bench/results/fault-campaign). Usage:

    fault_campaign.py [--draws N] [--seed S|random] [--summary FILE.json] [--keep DIR]
    fault_campaign.py --replay SEED

Exit 0 when no draw broke an invariant, 1 otherwise. Environment as the MPI
cases (tests/CMakeLists.txt): H5PERF, FAULTS, MPIEXEC.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "mpi"))
from faults import processes_of  # noqa: E402
from harness import base_env, built_apis, h5perf, launcher_is_hydra, mpiexec_command  # noqa: E402

import jsonschema  # noqa: E402

# The suite's campaign seed (docs/ci.md, "The fault campaign's seed").
SUITE_SEED = 20261129
KINDS = ("eio", "enospc", "short", "eintr", "delay", "kill")
SUFFIX = {"posix": ".posix", "mpiio": ".mpio", "phdf5": ".h5", "pnetcdf": ".nc"}
ERR_NAME = {"posix": "POSIX", "mpiio": "MPI-IO", "phdf5": "HDF5", "pnetcdf": "PnetCDF"}
SCHEMA = os.path.join(os.path.dirname(HERE), "docs", "results.schema.json")
# --watchdog: a call stuck for twice this (and 1 s per MiB) is aborted, and a
# failing process waits this long for the others (8 processes share 2 cores
# here: a phase can take seconds).
WATCHDOG = 5
# --watchdog of a draw whose fault is an I/O error (EIO, ENOSPC, a short
# count, EINTR): the processes must agree on it, whatever pause the others
# wait in (docs/design.md, "Pauses"), so a watchdog line there is a
# violation; this bound is far above what an agreement takes on a loaded
# machine, so that only a run that would hang reaches it.
WATCHDOG_AGREED = 60
DELAY = 40      # seconds a delayed call sleeps: far past the watchdog's bound
# Seconds any draw may take before it counts as a hang. A stuck call is
# ended by the watchdog within 2 x WATCHDOG s (plus 1 s per MiB); but a draw
# of 8 processes on 2 cores making a collective call per element took 15 to
# 121 s here under a load average of 10 to 20, so the bound is far above
# that, and the delay's own check counts from the moment it struck.
BOUND = 300
# The most collective transfer calls a process makes in one phase of a draw.
# MPICH's processes spin while they wait, so on 2 cores a collective call
# among 6 processes took about 0.12 s here: a draw of particles moved one per
# call, collectively (2400 calls a phase), ran for 10 minutes without a
# fault. A collective draw's --transfer-size is raised until its calls are
# at most this many; the faults strike within the first 12 calls anyway.
COLLECTIVE_CALLS = 64
DATA_NAME = re.compile(r"#pio_tmp_\d+(\.\d+)?\.(posix|mpio|h5|nc)$")
# h5perf's failure line: rank, API, operation, the data file.
LINE = re.compile(r"h5perf: rank (\d+): (POSIX|MPI-IO|HDF5|PnetCDF) ([a-z][a-z ()-]*?) '([^']+)'")
# Warnings a draw may print besides its failure (h5perf's own, announced).
WARNINGS = ("h5perf: warning: ",)


def h5perf_lines(err):
    """h5perf's lines on standard error. The launcher forwards each
    process's stderr in pieces as they come, and a library that writes its
    message in several pieces (Open MPI's ompio, "mca_fbtl_posix_pwritev:
    error in ...", on another process) can have h5perf's whole line land in
    the middle of its own: the line is then taken from "h5perf: " on."""
    out = []
    for l in err:
        at = l.find("h5perf: ")
        if at >= 0:
            out.append(l[at:])
    return out


class Stalls:
    """Seconds the whole machine stood still while a draw ran, measured as
    h5perf's watchdog measures them (src/engine/watchdog.c): a tick every
    0.25 s, and one more than 1 s late means the process did not run (a
    virtual machine paused by its host: the kernel here once reported both
    CPUs' workqueues "stuck for 52s", and a draw's stuck call took 57 s to
    end while the watchdog, rightly, did not count the pause). Each stall
    is kept with the wall time it ended."""
    TICK, LATE = 0.25, 1.0

    def __init__(self):
        self.stalls = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        last = time.monotonic()
        while not self.stop.wait(self.TICK):
            now = time.monotonic()
            late = now - last - self.TICK
            if late > self.LATE:
                self.stalls.append((time.time(), late))
            last = now

    def since(self, t):
        """Seconds stalled after wall time t."""
        self.stop.set()
        self.thread.join()
        return sum(late for end, late in self.stalls if end > t)


def grid_of(rng, n, ndims):
    """A random process grid of ndims dimensions whose product is n."""
    grid = [1] * ndims
    factors, m, p = [], n, 2
    while m > 1:
        while m % p == 0:
            factors.append(p)
            m //= p
        p += 1
    for f in factors:
        grid[rng.randrange(ndims)] *= f
    return grid


def draw(seed, apis):
    """The run and the fault of one draw, from its seed alone."""
    rng = random.Random(seed)
    d = {"seed": seed, "np": rng.randint(1, 8), "api": rng.choice(apis),
         "pattern": rng.choice(("guide", "block", "particles", "madbench", "map")),
         "collective": rng.random() < 0.5, "verify": rng.random() < 0.5,
         "nocleanup": rng.random() < 0.15, "kind": rng.choice(KINDS)}
    if d["pattern"] == "madbench":  # a square number of processes
        d["np"] = rng.choice((1, 4, 4, 4))
    d["rank"] = rng.randrange(d["np"])
    d["call"] = rng.randint(1, 12)
    args = ["-A", d["api"], "--watchdog", str(WATCHDOG)]
    placeable = d["api"] in ("posix", "mpiio")
    if d["pattern"] == "guide":
        block = rng.choice((1024, 2048, 4096))
        xfer = block * rng.choice((1, 2, 4))
        per = xfer * rng.choice((1, 2, 4))
        args += ["-e", str(per), "-B", str(block), "-x", str(xfer), "-X", str(xfer),
                 "-p", str(d["np"]), "-P", str(d["np"]), "-d", str(rng.choice((1, 2))),
                 "-i", str(rng.choice((1, 2)))]
        if rng.random() < 0.4:
            args.append("-I")
        if d["api"] == "phdf5" and rng.random() < 0.3:
            args.append("-c")
    elif d["pattern"] == "block":
        ndims = rng.randint(1, 3)
        grid = grid_of(rng, d["np"], ndims)
        elem = rng.choice((1, 2, 4, 8))
        glob = [g * rng.choice((1, 2, 4, 8, 16)) * (64 if ndims == 1 else 1) for g in grid]
        layout = rng.choice(("shared", "chunked", "fpp"))
        args += ["--pattern", "block", "--global", "x".join(map(str, glob)),
                 "--grid", "x".join(map(str, grid)), "--element-size", str(elem),
                 "--vars", str(rng.choice((1, 2))), "--layout", layout]
        if rng.random() < 0.4:
            args += ["--transfer-size", str(elem * rng.choice((1, 4, 16)))]
        if placeable and layout != "fpp" and rng.random() < 0.4:
            args += ["--align-data", rng.choice(("512", "4K")), "--shift",
                     rng.choice(("0", "100"))]
    elif d["pattern"] == "madbench":
        args += madbench_args(rng, d)
    elif d["pattern"] == "map":
        d["map"] = map_text(rng, d["np"])
        elem = rng.choice((1, 4, 8))
        nmaps = d["map"].count("array ")
        args += ["--pattern", "map", "--map", "{map}", "--element-size", str(elem),
                 "--vars", ",".join(str(rng.randint(1, 2)) for _ in range(nmaps)),
                 "--layout", rng.choice(("shared", "fpp"))]
        if not d["collective"] and rng.random() < 0.4:
            args += ["--transfer-size", str(elem * rng.choice((1, 4, 16)))]
    else:
        layout = rng.choice(("shared", "fpp"))
        args += ["--pattern", "particles", "--vars", str(rng.randint(1, 8)),
                 "--layout", layout]
        dist = rng.choice(("uniform", "imbalance", "list"))
        if dist == "list":
            counts = [rng.choice((0, 7, 64, 300)) for _ in range(d["np"])]
            counts[rng.randrange(d["np"])] = 100
            args += ["--distribution", "list:" + ",".join(map(str, counts))]
        else:
            args += ["--particles", str(rng.choice((64, 1000, 4096))), "-p", str(d["np"]),
                     "-P", str(d["np"])]
            if dist == "imbalance":
                args += ["--distribution", "imbalance:0.5"]
        if rng.random() < 0.4:
            args += ["--transfer-size", str(4 * rng.choice((1, 16, 100)))]
        if placeable and layout == "shared" and rng.random() < 0.4:
            args += ["--align-data", rng.choice(("512", "4K")), "--shift",
                     rng.choice(("0", "100"))]
    args += variant_args(rng, d)
    if d["collective"]:
        args.append("-C")
        bound_collective_calls(args, d["np"])
        if d["api"] == "phdf5" and d["kind"] not in ("delay", "kill") and \
                launcher_is_hydra_once():
            # Known defects of HDF5 1.10.8 over MPICH's ROMIO (hdf5_diverged,
            # bench/results/fault-campaign): a collective transfer, open or
            # chunked creation that failed on one process diverges inside
            # the library, which only the watchdog ends; seen in 5 of about
            # 90 such draws under MPICH, so they are not drawn there.
            d["kind"] = rng.choice(("delay", "kill"))
    if d["verify"]:
        args += ["-D", "v"]
    if d["kind"] not in ("delay", "kill"):
        args[args.index("--watchdog") + 1] = str(WATCHDOG_AGREED)
    d["args"] = args
    return d


def variant_args(rng, d):
    """A draw's way of making the calls, a third of the time where the
    pattern and API have another: one call for every variable's step
    (MPI-IO's --mpiio.joined, PnetCDF's --pnetcdf.nonblocking: the joined
    phase of src/engine/phase_join.c), or the madbench pattern's
    nonblocking starts completed after the busy work (--io-mode async,
    independent MPI-IO and PnetCDF)."""
    if rng.random() >= 1 / 3:
        return []
    if d["pattern"] == "madbench":
        if d["api"] in ("mpiio", "pnetcdf") and not d["collective"]:
            return ["--io-mode", "async"]
        return []
    if d["api"] == "mpiio" and not d["collective"] and launcher_is_hydra_once():
        # A joined call's view has holes: MPICH's ROMIO sieves the
        # independent write and keeps its fcntl lock when the write fails,
        # the others waiting for it inside theirs (tests/mpi/faults.py,
        # romio_diverges), a defect of ROMIO's, not drawn there.
        return []
    join = {"mpiio": "--mpiio.joined=only", "pnetcdf": "--pnetcdf.nonblocking=only"}
    return [join[d["api"]]] if d["api"] in join else []


def madbench_args(rng, d):
    """A madbench draw: its matrices, the processes' turns (not with -C on
    a shared file, which is refused) and busy work, so that a fault strikes
    while the others wait in a barrier, for the token or in busy work; the
    draws of 128 pixels open the file once for every phase (--opens once:
    a fault then strikes a file held open from phase to phase), a choice
    that takes no draw of its own, so that SUITE_SEED's draws stay those
    they were."""
    pixels = rng.choice((64, 128, 256))
    args = ["--pattern", "madbench", "--pixels", str(pixels),
            "--bins", str(rng.randint(1, 4)), "--scalapack-block", "8",
            "--layout", rng.choice(("shared", "fpp"))]
    if pixels == 128:
        args += ["--opens", "once"]
    if rng.random() < 0.4:
        args += ["--busy-exponent", rng.choice(("0.3", "0.5"))]
    if d["np"] > 1 and not d["collective"] and rng.random() < 0.6:
        args += ["--write-mod", str(rng.choice((2, 4))), "--read-mod", str(rng.choice((1, 2)))]
    return args


def map_text(rng, nprocs):
    """A text map (docs/map.md) of one to three decompositions of different
    shapes (1 to 3 dimensions), each process given runs at random (some
    none), some elements no one's."""
    lines = ["processes %d" % nprocs]
    for _ in range(rng.randint(1, 3)):
        dims = [rng.randint(2, 9) for _ in range(rng.randint(1, 3))]
        n = 1
        for x in dims:
            n *= x
        lines.append("array " + "x".join(map(str, dims)))
        runs = {p: [] for p in range(nprocs)}
        at = 0
        while at < n:
            length = rng.randint(1, max(1, n // (2 * nprocs)))
            length = min(length, n - at)
            if rng.random() < 0.9:
                runs[rng.randrange(nprocs)].append("%d:%d" % (at, length))
            at += length
        for p in range(nprocs):
            if runs[p]:
                lines.append("%d: %s" % (p, " ".join(runs[p])))
    return "\n".join(lines) + "\n"


def transfer_calls(args, nprocs):
    """(calls a process makes in one phase at most, bytes per element, the
    most elements a process moves of one variable) for a block or particles
    draw with --transfer-size; None otherwise."""
    if "--transfer-size" not in args:
        return None
    def value(name, default=None):
        return args[args.index(name) + 1] if name in args else default
    size, nvars = int(value("--transfer-size")), int(value("--vars"))
    if value("--pattern") not in ("block", "particles"):
        return None
    if value("--pattern") == "block":
        elem, most = int(value("--element-size")), 1
        for g in value("--global").split("x"):
            most *= int(g)
        most //= nprocs
    else:
        elem, dist = 4, value("--distribution", "uniform")
        if dist.startswith("list:"):
            most = max(int(c) for c in dist[5:].split(","))
        else:  # imbalance:0.5 gives the last process 1.5 times the count
            most = int(value("--particles")) * 3 // 2 + 1
    per_call = size // elem
    return nvars * -(-most // per_call), elem, most, nvars


def bound_collective_calls(args, nprocs):
    """Raises a collective draw's --transfer-size (whole elements) until a
    process makes at most COLLECTIVE_CALLS transfer calls in a phase."""
    counted = transfer_calls(args, nprocs)
    if counted is None or counted[0] <= COLLECTIVE_CALLS:
        return
    _, elem, most, nvars = counted
    calls_per_var = max(1, COLLECTIVE_CALLS // nvars)
    at = args.index("--transfer-size") + 1
    args[at] = str(elem * -(-most // calls_per_var))
    assert transfer_calls(args, nprocs)[0] <= COLLECTIVE_CALLS, args


def describe(d):
    return "np=%d %s, fault %s on rank %d at call %d%s" % (
        d["np"], " ".join(d["args"]), d["kind"], d["rank"], d["call"],
        ", HDF5_NOCLEANUP" if d["nocleanup"] else "")


def wait_gone(data, seconds=30):
    """Waits for the run's processes and cleanup processes to end."""
    deadline = time.time() + seconds
    while (processes_of(data) or processes_of(data, cleanup=True)) and time.time() < deadline:
        time.sleep(0.1)
    return processes_of(data) + processes_of(data, cleanup=True)


def snapshot(path):
    st = os.stat(path)
    with open(path, "rb") as fh:
        return (st.st_ino, st.st_size, st.st_mtime_ns, fh.read())


def run_draw(d, top):
    """Runs one draw in its own directories under top; returns (outcome,
    violations, seconds)."""
    data, out = os.path.join(top, "data"), os.path.join(top, "out")
    os.makedirs(data)
    os.makedirs(out)
    sentinel = os.path.join(data, "sentinel")
    with open(sentinel, "wb") as fh:
        fh.write(b"not h5perf's: must be left as it is\n")
    before = snapshot(sentinel)
    log, results = os.path.join(out, "fault.log"), os.path.join(out, "results.json")
    env = {"HDF5_PARAPREFIX": data, "LD_PRELOAD": os.environ["FAULTS"],
           "H5PERF_FAULT_SUFFIX": SUFFIX[d["api"]], "H5PERF_FAULT_KIND": d["kind"],
           "H5PERF_FAULT_RANK": str(d["rank"]), "H5PERF_FAULT_CALL": str(d["call"]),
           "H5PERF_FAULT_DELAY_S": str(DELAY), "H5PERF_FAULT_LOG": log,
           "OMPI_MCA_odls_base_sigkill_timeout": "0"}
    if d["nocleanup"]:
        env["HDF5_NOCLEANUP"] = "1"
    args = d["args"]
    if "map" in d:
        mapfile = os.path.join(out, "draw.map")
        with open(mapfile, "w") as fh:
            fh.write(d["map"])
        args = [mapfile if a == "{map}" else a for a in args]
    argv = [h5perf()] + args + ["--results", results]
    start = time.time()
    stalls = Stalls()
    p = subprocess.Popen(mpiexec_command(d["np"], argv), env=base_env(env), cwd=out,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        stdout, stderr = p.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        p.kill()
        stdout, stderr = p.communicate()
        stalls.since(start)
        left = wait_gone(data)
        for pid in left:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        return "hang", ["no end within %d s" % BOUND], time.time() - start
    seconds = time.time() - start
    # The shim writes its line as the fault strikes (before a delay sleeps):
    # the seconds from then to the end, less those the machine stood still.
    struck = os.path.getmtime(log) if os.path.exists(log) else time.time()
    stalled = stalls.since(struck)
    after = time.time() - struck - stalled
    rc = p.returncode
    err = stderr.decode(errors="replace").splitlines()
    lines = h5perf_lines(err)
    fired = open(log).read().splitlines() if os.path.exists(log) else []
    problems = check(d, rc, lines, fired, after)
    if stalled and problems:
        problems.append("the machine stood still %.0f s after the fault struck (not counted)"
                        % stalled)
    left = wait_gone(data)
    if left:
        problems.append("h5perf processes left: %r" % left)
    files = sorted(f for f in os.listdir(data) if f != "sentinel")
    if d["nocleanup"]:
        odd = [f for f in files if not DATA_NAME.match(f)]
        if odd:
            problems.append("files that are no data file of the run: %r" % odd)
    elif files:
        problems.append("files left: %r" % files)
    if not os.path.exists(sentinel) or snapshot(sentinel) != before:
        problems.append("the sentinel file was touched")
    # The watchdog's abort (MPI_Abort, exit 1) ends the job as the launcher
    # does: no process writes the results.
    aborted = rc not in (0, 1) or any(l.endswith("aborting the job") for l in lines)
    problems += check_results(rc, aborted, results, lines)
    outcome = "%s%s rc=%d" % (d["kind"], " (struck)" if fired else " (not reached)", rc)
    if problems:
        problems.append("stderr: %r" % err[-12:])
        problems.append("stdout tail: %r" % stdout.decode(errors="replace")[-400:])
    return outcome, problems, seconds


def check(d, rc, lines, fired, after):
    """The exit status and the lines, given whether the fault struck (and
    the seconds from its strike to the end)."""
    problems = []
    own = [l for l in lines if not l.startswith(WARNINGS)]
    if not fired:
        if rc != 0 or own:
            problems.append("no fault struck, yet exit %d and lines %r" % (rc, own))
        return problems
    kind = d["kind"]
    if kind == "kill":
        if rc == 0:
            problems.append("a process was killed, yet exit 0")
        return problems + bad_lines(d, own, allow_watchdog=True)
    if kind == "delay":
        if rc == 0:
            problems.append("a call was stuck past the watchdog, yet exit 0")
        if after >= DELAY:
            problems.append("the run waited for the stuck call (%.0f s after it struck): no "
                            "watchdog" % after)
        if not any("has not returned within" in l or "did not agree on this failure" in l
                   for l in own):
            problems.append("no watchdog line: %r" % own)
        return problems + bad_lines(d, own, allow_watchdog=True)
    absorbable = kind in ("short", "eintr")
    if rc == 0 and not absorbable:
        problems.append("%s struck, yet exit 0" % kind)
    if rc not in (0, 1):
        problems.append("exit %d, expected 1 (an I/O error)" % rc)
    if rc == 1 and not own:
        problems.append("exit 1 without a line")
    if rc == 0 and own:
        problems.append("exit 0 with lines %r" % own)
    if any(l.endswith("aborting the job") for l in own) and not (
            hdf5_diverged(d, own, fired) or ompio_read_diverged(d, own, fired)):
        problems.append("the watchdog ended an I/O error the processes did not agree on")
    return problems + bad_lines(d, own, allow_watchdog=True)


# The watchdog's line for an HDF5 close stuck inside the library.
HDF5_CLOSE_STUCK = re.compile(r"h5perf: rank \d+: HDF5 close of '[^']+' has not returned within ")
# ... of an HDF5 open stuck inside the library (seed 121641213, MPICH).
HDF5_OPEN_STUCK = re.compile(r"h5perf: rank \d+: HDF5 open of '[^']+' has not returned within ")
# The watchdog's line of a process that failed and waited for the others.
NOT_AGREED = re.compile(r"h5perf: rank (\d+): the processes did not agree on this failure within ")
# ... said by a process still inside HDF5's close (src/engine/watchdog.c).
HDF5_STILL_IN_CLOSE = re.compile(r"\(--watchdog\); this process is still in HDF5 close of ")
# A chunked dataset's creation whose fill write failed (HDF5 1.10.8): HDF5's
# words over Open MPI, the MPI call's over MPICH's ROMIO (seed 1545021932).
HDF5_CREATE_FAILED = ("h5perf: rank %s: HDF5 create dataset '[^']+': "
                      "(file write failed|MPI_File_write_at_all failed)")


def hdf5_diverged(d, lines, fired):
    """Whether the watchdog ended an HDF5 call that diverged inside the
    library, and nothing else. Two known defects of HDF5 1.10.8 (docs/
    design.md, "A failed phase's close"; bench/results/fault-campaign),
    both after a write failed on one process only:
    - the close: the processes whose metadata write failed wait in
      MPI_File_close's barrier (or H5FD_truncate's broadcast), the others
      in the flush's; every process is inside H5Fclose, and the line is
      "HDF5 close of ... has not returned", or, from a process whose
      earlier write failed (its watchdog armed then, seed 758378279),
      "did not agree on this failure ...; this process is still in HDF5
      close of ...";
    - a chunked dataset's creation with the library's fill (the guide's
      -c): the process whose fill write failed returns from H5Dcreate2
      without the MPI_Barrier of H5D__chunk_allocate that the others wait
      in (seed 686475503; under MPICH the others wait in the same
      function's collective write, MPI_File_set_view's all-reduce under
      H5F_block_write, seed 1545021932); it waits in h5perf's agreement
      after the begin, and its line is its "HDF5 create dataset ...: file
      write failed" (ROMIO's "MPI_File_write_at_all failed" under MPICH)
      and "the processes did not agree on this failure".
    Two more, seen under MPICH's ROMIO (CI's MPICH pass of 2026-11-28,
    gdb on each replay; bench/results/fault-campaign):
    - a collective transfer (-C) that failed on one process only: that
      process returns from H5Dwrite or H5Dread, the others wait inside the
      same call, in the MPI_File_set_view that HDF5 makes after the
      transfer (seeds 866011546, a write; 2104360120, a read); its lines
      are its "HDF5 write|read ...: transfer ..." and "the processes did
      not agree on this failure";
    - a read of the superblock that failed on process 0 inside H5Fopen:
      it closes the file (MPI_File_close's barrier), the others wait in
      H5F_open's MPI_Bcast; every process's line is "HDF5 open of ... has
      not returned" (seed 121641213).
    Narrow on purpose: an HDF5 draw, the fault struck a write (pwrite,
    pwritev) or, for the transfer and the open, the read they name
    (pread, preadv), and every line that ends the job is one of these; a
    watchdog line of any other call, or "did not agree" after any other
    failure, stays a violation."""
    wrote = any(re.match(r"\w+ rank \d+ call \d+ pwrite", f) for f in fired)
    read = any(re.match(r"\w+ rank \d+ call \d+ pread", f) for f in fired)
    ends = [l for l in lines if l.endswith("aborting the job")]

    def transfer_failed(rank):
        ops = "write|read" if wrote and read else "write" if wrote else "read" if read else "-"
        return d["collective"] and any(
            re.match(r"h5perf: rank %s: HDF5 (%s) '[^']+': transfer " % (rank, ops), x)
            for x in lines)

    def known(l):
        m = NOT_AGREED.match(l)
        if m and HDF5_STILL_IN_CLOSE.search(l):
            return wrote
        # The failed process waits in h5perf's next step or in its next
        # collective transfer (seed 1332598187: "...; this process is still
        # in HDF5 write of ...").
        waits = l.endswith("(--watchdog): aborting the job") or bool(
            re.search(r"\(--watchdog\); this process is still in HDF5 (write|read) of '[^']+': "
                      r"aborting the job$", l))
        if m and waits and transfer_failed(m.group(1)):
            return True
        if m:
            return wrote and any(re.match(HDF5_CREATE_FAILED % m.group(1), x) for x in lines)
        if HDF5_OPEN_STUCK.match(l):
            return read
        return wrote and bool(HDF5_CLOSE_STUCK.match(l))
    return d["api"] == "phdf5" and (wrote or read) and bool(ends) and all(known(l) for l in ends)


def ompio_read_diverged(d, lines, fired):
    """Whether the watchdog ended a collective read that diverged inside
    Open MPI's ompio, and nothing else: when the read of one aggregator
    fails, MPI_File_read_at_all returns the error on that process alone,
    and the others wait inside the same call (mca_fcoll_vulcan_file_read_all)
    for the data it was to send them (seed 508940275 through PnetCDF,
    786098405 through MPI-IO; gdb on both replays; bench/results/
    fault-campaign). The failed process waits for them in its next
    collective step, h5perf's or the file's close (seed 1504547018: "...;
    this process is still in MPI-IO close of ..."), and its lines are its
    "<API> read ..." and "the processes did not agree on this failure". The class is ompio's, so
    every API whose collective reads are MPI_File_read_at_all is in it
    (MPI-IO, HDF5, PnetCDF; the failing process may name MPI-IO under a
    library). Narrow on purpose: under Open MPI, a collective draw of one
    of these APIs, the fault struck a read (pread, preadv), and every line
    that ends the job is a "did not agree" of a process whose failure is a
    read, itself in no library call."""
    if d["api"] == "posix" or not d["collective"] or launcher_is_hydra_once():
        return False
    read = any(re.match(r"\w+ rank \d+ call \d+ pread", f) for f in fired)
    ends = [l for l in lines if l.endswith("aborting the job")]
    names = sorted({ERR_NAME[d["api"]], "MPI-IO"})

    def known(l):
        m = NOT_AGREED.match(l)
        waits = l.endswith("(--watchdog): aborting the job") or bool(
            re.search(r"\(--watchdog\); this process is still in (%s) close of '[^']+': "
                      r"aborting the job$" % "|".join(names), l))
        return bool(m) and waits and any(
            re.match(r"h5perf: rank %s: (%s) read '" % (m.group(1), "|".join(names)), x)
            for x in lines)
    return read and bool(ends) and all(known(l) for l in ends)


_HYDRA = []


def launcher_is_hydra_once():
    """launcher_is_hydra(), asked once (MPICH's ROMIO is another library)."""
    if not _HYDRA:
        _HYDRA.append(launcher_is_hydra())
    return _HYDRA[0]


def bad_lines(d, lines, allow_watchdog):
    """Lines that are not one failing process's line: rank, API, operation,
    a data file of the run, and the offset of a POSIX or MPI-IO transfer."""
    problems = []
    for l in lines:
        m = LINE.match(l)
        if not m:
            if not (allow_watchdog and re.match(r"h5perf: rank \d+: ", l)):
                problems.append("not a failure line: %r" % l)
            continue
        rank, api, op, path = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        if rank >= d["np"]:
            problems.append("rank %d of %d processes: %r" % (rank, d["np"], l))
        if api != ERR_NAME[d["api"]] and not (d["api"] in ("phdf5", "pnetcdf") and
                                              api == "MPI-IO"):
            problems.append("API %s in a run of %s: %r" % (api, d["api"], l))
        if not DATA_NAME.search(path):
            problems.append("no data file named: %r" % l)
        if api in ("POSIX", "MPI-IO") and op in ("write", "read") and " at offset " not in l:
            problems.append("no offset: %r" % l)
    return problems


def check_results(rc, aborted, path, lines):
    """The results document: valid, with the run's status, the failure in
    a run's errors. A run the launcher or the watchdog ended (killed,
    aborted) leaves none."""
    if not os.path.exists(path):
        return [] if aborted else ["no results document"]
    if aborted:
        return ["a results document after the job was aborted: %.200r" % open(path).read()]
    try:
        with open(path) as fh:
            doc = json.load(fh)
    except ValueError as e:
        return ["results document not JSON (%s): %.200r" % (e, open(path).read())]
    with open(SCHEMA) as fh:
        schema = json.load(fh)
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]
    if errors:
        return ["results document invalid: %s" % errors[:2]]
    problems = []
    if doc["exit_status"] != (0 if rc == 0 else 1):
        problems.append("results exit_status %r, run %d" % (doc["exit_status"], rc))
    if rc == 0 and doc["status"] != "ok":
        problems.append("results status %r after exit 0" % doc["status"])
    if rc == 1:
        errs = [e for r in doc["runs"] for e in r["errors"]]
        if doc["status"] == "ok" or not any(r["status"] != "ok" for r in doc["runs"]):
            problems.append("the failure is not recorded in the results")
        own = [l for l in lines if LINE.match(l)]
        missing = [l for l in own if l not in errs]
        if missing:
            problems.append("lines not in the results' errors: %r" % missing[:2])
    return problems


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # H5PERF_CAMPAIGN_DRAWS: the draws when --draws is not given (scripts/check
    # gives the MPICH pass fewer: docs/ci.md).
    p.add_argument("--draws", type=int, default=int(os.environ.get("H5PERF_CAMPAIGN_DRAWS", 100)))
    # H5PERF_CAMPAIGN_SEED: the seed when --seed is not given.
    p.add_argument("--seed", default=os.environ.get("H5PERF_CAMPAIGN_SEED", str(SUITE_SEED)),
                   help="the campaign's seed, or random (default: %d)" % SUITE_SEED)
    p.add_argument("--replay", type=int, default=None, help="run the draw of this seed alone")
    p.add_argument("--summary", help="write the campaign's figures to this JSON file")
    p.add_argument("--keep", help="keep each violating draw's directories under this one")
    a = p.parse_args(argv)
    apis = built_apis()
    if a.replay is not None:
        seeds = [a.replay]
    else:
        if a.seed == "random":
            master = random.SystemRandom().randrange(1 << 31)
        elif a.seed.isdigit():
            master = int(a.seed)
        else:
            p.error("--seed: '%s' is neither a whole number nor random" % a.seed)
        print("fault campaign: seed %d, %d draws" % (master, a.draws), flush=True)
        rng = random.Random(master)
        seeds = [rng.randrange(1 << 31) for _ in range(a.draws)]
    tally = {"draws": 0, "struck": 0, "violations": 0, "by_kind": {}, "violating_seeds": []}
    start = time.time()
    for i, seed in enumerate(seeds, 1):
        d = draw(seed, apis)
        top = tempfile.mkdtemp(prefix="h5perf-campaign-")
        outcome, problems, seconds = run_draw(d, top)
        k = tally["by_kind"].setdefault(d["kind"], {"draws": 0, "struck": 0, "violations": 0})
        k["draws"] += 1
        tally["draws"] += 1
        if "(struck)" in outcome:
            k["struck"] += 1
            tally["struck"] += 1
        verdict = "ok" if not problems else "VIOLATION"
        print("draw %d/%d seed %d: %s: %s: %s (%.1f s)" % (
            i, len(seeds), seed, describe(d), outcome, verdict, seconds), flush=True)
        if problems:
            k["violations"] += 1
            tally["violations"] += 1
            tally["violating_seeds"].append(seed)
            for pr in problems:
                print("    " + pr, flush=True)
            print("    replay: %s --replay %d" % (os.path.relpath(__file__), seed), flush=True)
            if a.keep:
                shutil.copytree(top, os.path.join(a.keep, str(seed)), dirs_exist_ok=True)
        shutil.rmtree(top, ignore_errors=True)
    tally["seconds"] = round(time.time() - start)
    print("fault campaign: %d draws, %d faults struck, %d invariant violations, %d s" % (
        tally["draws"], tally["struck"], tally["violations"], tally["seconds"]))
    if a.summary:
        with open(a.summary, "w") as fh:
            json.dump(tally, fh, indent=1)
    return 1 if tally["violations"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
