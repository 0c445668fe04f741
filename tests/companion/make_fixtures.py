#!/usr/bin/env python3
"""Writes the companion's test fixtures into tests/companion/data/.

Made-up but plausible h5perf results documents (schema version 1 for the
guide's patterns, 2 for the block and particles patterns), with the
summaries computed as h5perf computes them, so the fixtures can be read like
real runs (particles.json's layout follows a real run's). They are
committed; rerun this only to change them:
    python3 tests/companion/make_fixtures.py
  sweep.json    3 APIs x 1, 2, 4 processes x 256KiB..1MiB, 3 iterations, all ok
  failure.json  2 processes, -D r,t,v (raw, open and close times), a verification
                failure (mpiio, 512KiB) and an I/O error that ends the run
                (phdf5, 1MiB), exit status 1
  block.json    --pattern block: a 512x512x256 array of 4-byte elements, 2
                variables (512MiB per phase), 3 layouts x 3 APIs x 1, 2, 4
                processes, 3 iterations, all ok, every figure over 0.1 s
  particles.json  --pattern particles --particles 4194304 --distribution
                imbalance:0.5: 8 variables, 2 layouts (shared, fpp) x 3 APIs x
                1, 2, 4 processes, 3 iterations, all ok, every figure over 0.1 s
  particles-placed.json  the same at 1 and 2 processes with --align-data
                4K,1M --shift 0,512: POSIX and MPI-IO on the shared layout run
                4 times (4K, 4K+512, 1M, 1M+512), HDF5 and fpp once, packed
  headline.json  the guide's 2D pattern, collective (-C), version 2: 4 APIs
                (with PnetCDF) x 2, 4 processes x 256KiB, 1MiB, 3 iterations;
                processes unbalanced differently by API, HDF5's writes at 4
                processes and 1MiB fell back to independent I/O, the reads at
                2 processes under a page-cache warning, figures on both sides
                of 0.1 s (the HTML report's headline, warnings and imbalance)
"""
import json
import os
import random
import statistics
from fractions import Fraction

MIB = 1 << 20
KIB = 1 << 10
DIR = "/scratch/h5perf"
# Base throughput of one process in MiB/s, and how each API pays for small
# transfers (a fixed cost per call): HDF5 slower than MPI-IO, MPI-IO than POSIX.
BANDWIDTH = {"posix": 900.0, "mpiio": 860.0, "phdf5": 760.0, "pnetcdf": 800.0}
CALL_COST = {"posix": 32 * KIB, "mpiio": 48 * KIB, "phdf5": 96 * KIB, "pnetcdf": 64 * KIB}
EXT = {"posix": "posix", "mpiio": "mpio", "phdf5": "h5"}
# The block pattern: how much of an API's bandwidth each layout gets (one
# shared file in the array's order costs most, HDF5 most of all).
LAYOUT_SHARE = {"shared": {"posix": 0.55, "mpiio": 0.7, "phdf5": 0.6},
                "chunked": {"posix": 0.85, "mpiio": 0.9, "phdf5": 0.8},
                "fpp": {"posix": 1.0, "mpiio": 1.0, "phdf5": 1.0}}
# --align-data and --shift: what a placement does to the bandwidth of a
# placed file (a shift off the file system's block costs, a large alignment
# helps a little).
ALIGN_SHARE = {4096: 1.0, 1048576: 1.1}
SHIFT_SHARE = {0: 1.0, 512: 0.7}


def mib_per_s(nbytes, t):
    return nbytes / MIB / t if t > 0 else 0.0


def summary(nbytes, times, data):
    if not times:
        return None
    s = sorted(times)
    sec = {"min": s[0], "mean": sum(s) / len(s), "median": statistics.median(s), "max": s[-1]}
    mbs = None
    if data:
        mbs = {"max": mib_per_s(nbytes, sec["min"]), "avg": mib_per_s(nbytes, sec["mean"]),
               "min": mib_per_s(nbytes, sec["max"]), "median": mib_per_s(nbytes, sec["median"])}
    return {"iterations": len(s), "seconds": sec, "mib_per_s": mbs}


def measure(name, nbytes, slowest, failed, balance=0.91):
    """One measure; slowest[i] is iteration i+1's time, failed maps an
    iteration to its status; balance is the fastest process's time over
    the slowest's."""
    data = name in ("write", "write_open_close", "write_raw", "read", "read_open_close",
                    "read_raw")
    samples, times = [], []
    for i, t in enumerate(slowest, 1):
        st = failed.get(i, "ok")
        sec = None
        if st == "ok":
            sec = {"slowest": t, "fastest": t * balance, "mean": t * (1 + balance) / 2
                   if balance != 0.91 else t * 0.96}
            times.append(t)
        samples.append({"iteration": i, "status": st, "bytes": nbytes if data else 0,
                        "seconds": sec})
    status = next((failed[i] for i in sorted(failed)), "ok")
    return {"measure": name, "status": status, "samples": samples,
            "summary": summary(nbytes, times, data) if status == "ok" else None}


def measure_names(raw, times):
    names = []
    for phase in ("write", "read"):
        names += [phase, phase + "_open_close"]
        names += [phase + "_raw"] if raw else []
        names += [phase + "_open", phase + "_close"] if times else []
    return names


def run(rng, api, procs, xfer, nbytes, iterations, names, failed=None, errors=(), share=1.0,
        balance=None):
    """One run; failed maps a phase ("write"/"read") to {iteration: status};
    share scales the bandwidth; balance(i) is iteration i's fastest process
    time over the slowest's (default 0.91)."""
    failed = failed or {}
    bw = BANDWIDTH[api] * procs ** 0.8 * xfer / (xfer + CALL_COST[api]) * share
    measures = []
    for name in names:
        phase, _, kind = name.partition("_")
        base = nbytes / MIB / bw * (1.1 if phase == "read" else 1.0)
        extra = {"": 0.0, "raw": -0.04 * base, "open_close": 0.004 + 0.001 * procs,
                 "open": 0.003 + 0.001 * procs, "close": 0.001}[kind]
        t = base + extra if kind not in ("open", "close") else extra
        slowest = [t * rng.uniform(0.97, 1.03) for _ in range(iterations)]
        if balance is None:
            measures.append(measure(name, nbytes, slowest, failed.get(phase, {})))
        else:
            m = measure(name, nbytes, slowest, failed.get(phase, {}), 0.5)
            for i, sample in enumerate(m["samples"]):
                if sample["seconds"] is not None:
                    b = balance(i)
                    sample["seconds"].update(fastest=sample["seconds"]["slowest"] * b,
                                             mean=sample["seconds"]["slowest"] * (1 + b) / 2)
            measures.append(m)
    status = next((m["status"] for m in measures if m["status"] != "ok"), "ok")
    return {"processes": procs, "transfer_size": xfer, "api": api, "bytes": nbytes,
            "status": status, "errors": list(errors), "measures": measures}


def document(runs, cfg, argv, exit_status=0, block=None, particles=None):
    """A whole document: the guide's (version 1), or with block (config.block)
    the block pattern's, with particles (config.particles) the particles
    pattern's (version 2, without the guide's workload keys)."""
    worst = "ok"
    for r in runs:
        if r["status"] == "io_error" or (r["status"] == "verify_failed" and worst == "ok"):
            worst = r["status"]
    procs = max(r["processes"] for r in runs)
    context = {
        "h5perf_version": "0.1.0", "h5perf_commit": "a5f67cd", "hdf5_version": "1.10.8",
        "mpi_library": "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4",
        "mpi_version": "3.1", "processes": procs, "hosts": 1, "host_names": ["node001"],
        "directory": DIR, "file_system": {"type": "ext4", "magic": "0xef53"},
        "start_time": "2026-11-22T08:00:00Z", "end_time": "2026-11-22T08:01:40Z",
        "command_line": argv}
    config = {"apis": ["posix", "mpiio", "phdf5"]}
    if particles is not None:
        config.update(pattern="particles", particles=particles)
    elif block is None:
        config.update(geometry="1d", layout="contiguous", storage="contiguous")
    else:
        config.update(pattern="block", block=block)
    config.update({
        "io_mode": "independent", "align": 1, "align_threshold": 1,
        "output": None, "format": "json", "results_file": None, "overwrite": False,
        "watchdog_seconds": 120, "progress": False, "overhead": False, "fsync": False,
        "direct": False, "read_shift": 0,
        "environment": {"HDF5_PARAPREFIX": DIR, "HDF5_NOCLEANUP": None, "HDF5_MPI_INFO": None},
        "mpi_info": {}, "warnings": []})
    config.update(cfg)
    version = 1 if block is None and particles is None else 2
    return {"schema": "h5perf-results", "schema_version": version,
            "status": worst,
            "exit_status": exit_status, "context": context, "config": config, "runs": runs}


def sweep():
    rng = random.Random(5)
    procs, xfers, iterations, per_proc = (1, 2, 4), (256 * KIB, 512 * KIB, MIB), 3, MIB
    names = measure_names(False, False)
    runs = [run(rng, api, p, x, per_proc * p, iterations, names)
            for p in procs for x in xfers for api in ("posix", "mpiio", "phdf5")]
    cfg = {"bytes_per_process": per_proc, "min_xfer_size": xfers[0], "max_xfer_size": xfers[-1],
           "block_size": 256 * KIB, "num_dsets": 1, "num_files": 1, "iterations": iterations,
           "min_processes": 1, "max_processes": 4, "write_only": False, "read_only": False,
           "debug": {"level": 0, "raw": False, "times": False, "verify": False}}
    return document(runs, cfg, ["h5perf", "-e", "1M", "-x", "256K", "-X", "1M", "-B", "256K",
                                "-p", "1", "-P", "4", "-i", "3", "--format=json"])


def failure():
    rng = random.Random(6)
    xfers, iterations, per_proc = (512 * KIB, MIB), 3, 2 * MIB
    names = measure_names(True, True)
    verify = "h5perf: rank 1: mpiio verify '%s/#pio_tmp_0.mpio' offset 1572864: " \
             "expected 0x01 found 0x00 (524288 bytes differ)" % DIR
    nospace = "h5perf: rank %d: phdf5 write '" + DIR + "/#pio_tmp_0.h5' offset %d " \
              "length 1048576: No space left on device"
    runs = []
    for x in xfers:
        for api in ("posix", "mpiio", "phdf5"):
            if x == MIB and api == "phdf5":
                # The I/O error in the first iteration stops the run there.
                bad = {"write": {1: "io_error"}, "read": {1: "io_error"}}
                errs = [nospace % (0, 0), nospace % (1, 2 * MIB)]
                runs.append(run(rng, api, 2, x, per_proc * 2, 1, names, bad, errs))
            elif x == 512 * KIB and api == "mpiio":
                runs.append(run(rng, api, 2, x, per_proc * 2, iterations, names,
                                {"read": {2: "verify_failed"}}, [verify]))
            else:
                runs.append(run(rng, api, 2, x, per_proc * 2, iterations, names))
    cfg = {"bytes_per_process": per_proc, "min_xfer_size": xfers[0], "max_xfer_size": xfers[-1],
           "block_size": 512 * KIB, "num_dsets": 1, "num_files": 1, "iterations": iterations,
           "min_processes": 2, "max_processes": 2, "write_only": False, "read_only": False,
           "debug": {"level": 0, "raw": True, "times": True, "verify": True}}
    return document(runs, cfg, ["h5perf", "-e", "2M", "-x", "512K", "-X", "1M", "-B", "512K",
                                "-p", "2", "-i", "3", "-D", "r,t,v", "--format=json"], 1)


def block():
    """As h5perf writes it: process counts from the largest down, at each the
    layouts, at each the APIs; a run's transfer size is a process's block of
    one variable, its bytes the variables x the array."""
    rng = random.Random(7)
    shape, elem, nvars, iterations = [512, 512, 256], 4, 2, 3
    grids = {4: [2, 2, 1], 2: [2, 1, 1], 1: [1, 1, 1]}
    array = shape[0] * shape[1] * shape[2] * elem
    names = measure_names(False, False)
    runs = []
    for p in (4, 2, 1):
        for layout in ("shared", "chunked", "fpp"):
            for api in ("posix", "mpiio", "phdf5"):
                r = run(rng, api, p, array // p, nvars * array, iterations, names,
                        share=LAYOUT_SHARE[layout][api])
                runs.append(dict(list(r.items())[:3] + [("layout", layout), ("grid", grids[p])] +
                                 list(r.items())[3:]))
    cfg = {"iterations": iterations, "min_processes": 1, "max_processes": 4,
           "write_only": False, "read_only": False, "memory_check": True,
           "debug": {"level": 0, "raw": False, "times": False, "verify": False}}
    spec = {"global": shape, "grid": None, "read_grid": None, "element_size": elem,
            "vars": nvars, "layouts": ["shared", "chunked", "fpp"]}
    return document(runs, cfg, ["h5perf", "--pattern", "block", "--global", "512x512x256",
                                "--element-size", "4", "--vars", "2", "-p", "1", "-i", "3",
                                "--format=json"], block=spec)


def imbalance_counts(n, f, procs):
    """docs/particles.md's imbalance:F: linearly from (1-F)N on process 0 to
    (1+F)N on the last, rounded half up; N with one process."""
    if procs == 1:
        return [n]
    return [int((1 - f) * n + 2 * f * n * Fraction(r, procs - 1) + Fraction(1, 2))
            for r in range(procs)]


def particles():
    """As h5perf writes it: process counts from the largest down, at each the
    layouts, at each the APIs; a run's transfer size is the largest process's
    particles of one variable, its bytes the variables x all particles. The
    slowest process, the one with the most particles, sets the time."""
    rng = random.Random(8)
    n, f, nvars, iterations = 4194304, Fraction(1, 2), 8, 3
    names = measure_names(False, False)
    runs = []
    for p in (4, 2, 1):
        counts = imbalance_counts(n, f, p)
        total, least, most = sum(counts), min(counts), max(counts)
        for layout in ("shared", "fpp"):
            for api in ("posix", "mpiio", "phdf5"):
                share = LAYOUT_SHARE[layout][api] * total / p / most
                r = run(rng, api, p, 4 * most, 4 * nvars * total, iterations, names, share=share)
                runs.append(dict(list(r.items())[:3] + [
                    ("layout", layout),
                    ("particles", {"total": total, "min": least, "max": most})] +
                    list(r.items())[3:]))
    cfg = {"iterations": iterations, "min_processes": 1, "max_processes": 4,
           "write_only": False, "read_only": False, "memory_check": True,
           "debug": {"level": 0, "raw": False, "times": False, "verify": False}}
    spec = {"per_process": n, "distribution": "imbalance:0.5", "seed": None,
            "vars": ["x", "y", "z", "px", "py", "pz", "id_1", "id_2"][:nvars],
            "layouts": ["shared", "fpp"]}
    return document(runs, cfg, ["h5perf", "--pattern", "particles", "--particles", str(n),
                                "--distribution", "imbalance:0.5", "-p", "1", "-i", "3",
                                "--format=json"], particles=spec)


def particles_placed():
    """As h5perf writes it (src/pattern/app_points.c): process
    counts from the largest down, at each the layouts, at each every
    (--align-data, --shift) pair, --shift innermost, at each the APIs; HDF5
    and the file per process are not placed and run with the first pair
    only, packed (align_data and shift 0)."""
    rng = random.Random(9)
    n, f, nvars, iterations = 4194304, Fraction(1, 2), 8, 3
    aligns, shifts = [4096, 1048576], [0, 512]
    names = measure_names(False, False)
    runs = []
    for p in (2, 1):
        counts = imbalance_counts(n, f, p)
        total, least, most = sum(counts), min(counts), max(counts)
        for layout in ("shared", "fpp"):
            for i, (align, shift) in enumerate((a, s) for a in aligns for s in shifts):
                for api in ("posix", "mpiio", "phdf5"):
                    placed = layout != "fpp" and api != "phdf5"
                    if not placed and i > 0:
                        continue
                    share = LAYOUT_SHARE[layout][api] * total / p / most
                    if placed:
                        share *= ALIGN_SHARE[align] * SHIFT_SHARE[shift]
                    r = run(rng, api, p, 4 * most, 4 * nvars * total, iterations, names,
                            share=share)
                    runs.append(dict(list(r.items())[:3] + [
                        ("layout", layout),
                        ("align_data", align if placed else 0),
                        ("shift", shift if placed else 0),
                        ("particles", {"total": total, "min": least, "max": most})] +
                        list(r.items())[3:]))
    cfg = {"iterations": iterations, "min_processes": 1, "max_processes": 2,
           "write_only": False, "read_only": False, "memory_check": True,
           "debug": {"level": 0, "raw": False, "times": False, "verify": False}}
    spec = {"per_process": n, "distribution": "imbalance:0.5", "seed": None,
            "vars": ["x", "y", "z", "px", "py", "pz", "id_1", "id_2"][:nvars],
            "layouts": ["shared", "fpp"], "align_data": aligns, "shift": shifts}
    return document(runs, cfg, ["h5perf", "--pattern", "particles", "--particles", str(n),
                                "--distribution", "imbalance:0.5", "--align-data", "4K,1M",
                                "--shift", "0,512", "-p", "1", "-i", "3", "--format=json"],
                    particles=spec)


# headline.json: the fastest process's share of the slowest's time, by API
# (iteration i: this less 0.01 i), and what HDF5 reported of its collective
# transfers.
BALANCE = {"posix": 0.95, "mpiio": 0.8, "phdf5": 0.6, "pnetcdf": 0.7}
COLLECTIVE = {"mode": "contiguous_collective", "modes": ["contiguous_collective"],
              "collective": True, "cause": None, "cause_processes": 0, "processes_agree": True}
FELL_BACK = {"mode": "no_collective", "modes": ["no_collective"], "collective": False,
             "cause": "datatype conversion", "cause_processes": 1, "processes_agree": True}
PAGE_CACHE = ("h5perf: warning: the read throughputs of posix, mpiio, phdf5, pnetcdf with 2 "
              "processes can only come from the page cache: each process reads data written "
              "moments before on its own host, through that host's cache (use --direct for "
              "POSIX, or --read-shift with processes on several hosts)")


def headline():
    """As h5perf writes it: process counts from the smallest up, at each the
    transfer sizes, at each the APIs; -e 64M, 2D, collective."""
    rng = random.Random(10)
    procs, xfers, iterations, per_proc = (2, 4), (256 * KIB, MIB), 3, 64 * MIB
    apis = ("posix", "mpiio", "phdf5", "pnetcdf")
    names = measure_names(False, False)
    runs = []
    for p in procs:
        for x in xfers:
            for api in apis:
                r = run(rng, api, p, x, per_proc * p, iterations, names,
                        balance=lambda i, api=api: BALANCE[api] - 0.01 * i)
                if api == "phdf5":
                    r["actual_io_mode"] = {"write": FELL_BACK if (p, x) == (4, MIB)
                                           else COLLECTIVE, "read": COLLECTIVE}
                runs.append(r)
    cfg = {"bytes_per_process": per_proc, "min_xfer_size": xfers[0], "max_xfer_size": xfers[-1],
           "block_size": 256 * KIB, "num_dsets": 1, "num_files": 1, "iterations": iterations,
           "min_processes": 2, "max_processes": 4, "write_only": False, "read_only": False,
           "debug": {"level": 0, "raw": False, "times": False, "verify": False},
           "apis": list(apis), "geometry": "2d", "io_mode": "collective"}
    doc = document(runs, cfg, ["h5perf", "-A", "posix,mpiio,phdf5,pnetcdf", "-2", "-C", "-e",
                               "64M", "-x", "256K", "-X", "1M", "-B", "256K", "-p", "2", "-P",
                               "4", "-i", "3", "--format=json"])
    doc["schema_version"] = 2
    doc["config"] = dict([("apis", doc["config"]["apis"]), ("pattern", "guide")] +
                         [kv for kv in doc["config"].items() if kv[0] != "apis"])
    return dict(list(doc.items())[:4] + [("page_cache_warnings", [PAGE_CACHE])] +
                list(doc.items())[4:])


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    os.makedirs(out, exist_ok=True)
    for name, doc in (("sweep", sweep()), ("failure", failure()), ("block", block()),
                      ("particles", particles()), ("particles-placed", particles_placed()),
                      ("headline", headline())):
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
