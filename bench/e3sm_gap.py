#!/usr/bin/env python3
"""bench/e3sm_gap.py: where the time between E3SM-IO's canonical PnetCDF
write and h5perf's PnetCDF nonblocking write of the same map goes
(docs/map.md, "Against E3SM-IO").

One repetition runs each contender once, in a rotating order, so that
every contender meets the same load:
  e3sm         E3SM-IO's e3sm_io (-a pnetcdf -x canonical): its file, its
               header, its hints; its "end-to-end time" (slowest process)
  bare         bench/e3sm_bare: E3SM-IO's calls, barriers, hints and timers
               on h5perf's file of the map (--vars, --element-size)
  bare_nohints the same without E3SM-IO's hints (h5perf passes none)
  bare_agree   the same with an MPI_Allreduce after each variable's post
               (what h5perf made per variable before this comparison)
  bare_as_h5perf
               without the hints, with an MPI_Allreduce where h5perf's
               write agrees inside its timers (around the create, after
               the definitions twice, before the posts)
  h5perf       h5perf --pattern map -A pnetcdf --pnetcdf.nonblocking=only
               -C -w -i 1: its write open-to-close (slowest process)
  h5perf_old   the same with --h5perf-old (an earlier build), if given
  mpiio_joined h5perf -A mpiio --mpiio.joined=only -C, the same bytes
               through raw MPI-IO done the same way (one call per file)
and writes OUT/TAG.json and OUT/TAG.md: per contender the median, best and
worst seconds and the spread, the load average before each repetition,
and the differences between medians that attribute the gap. Asserts
nothing; exits 2 on a bad command line, 1 when a run fails.
"""
import argparse
import datetime
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fidelity  # noqa: E402
import fidelity_report  # noqa: E402
import fidelity_run as launcher  # noqa: E402

_loader = importlib.machinery.SourceFileLoader("e3sm_peer", os.path.join(HERE, "e3sm_peer"))
_spec = importlib.util.spec_from_loader("e3sm_peer", _loader)
peer = importlib.util.module_from_spec(_spec)  # bench/e3sm_peer's runs and checks
_loader.exec_module(peer)

PROG = "bench/e3sm_gap.py"
NAMES = {"e3sm": "E3SM-IO canonical PnetCDF (its file)",
         "bare": "bare: E3SM-IO's calls and hints, h5perf's file",
         "bare_nohints": "bare without E3SM-IO's hints",
         "bare_agree": "bare with an agreement per variable",
         "bare_as_h5perf": "bare without hints, with h5perf's agreements",
         "h5perf": "h5perf PnetCDF nonblocking",
         "h5perf_old": "h5perf PnetCDF nonblocking, earlier build",
         "mpiio_joined": "h5perf MPI-IO joined"}


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--e3sm", required=True, help="E3SM-IO's e3sm_io executable")
    ap.add_argument("--map", required=True)
    ap.add_argument("--h5perf", default=os.path.join(ROOT, "build-release", "h5perf"))
    ap.add_argument("--h5perf-old", help="an earlier build of h5perf, for before and after")
    ap.add_argument("--bare", default=None, help="bench/e3sm_bare (default: beside --h5perf)")
    ap.add_argument("--vars", default="11,2,49,3,3,8")
    ap.add_argument("--element-size", default="4")
    ap.add_argument("-n", "--processes", type=int, default=16)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--dir", default="/dev/shm")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "e3sm-peer"))
    ap.add_argument("--tag", default="gap")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args(argv)
    a.bare = a.bare or os.path.join(os.path.dirname(a.h5perf), "bench", "e3sm_bare")
    a.file = None  # the G case: one history file
    for exe in [a.e3sm, a.h5perf, a.bare] + ([a.h5perf_old] if a.h5perf_old else []):
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            peer.fail(2, "'%s': not an executable file" % exe)
    if not os.path.isfile(a.map):
        peer.fail(2, "--map '%s': no such file" % a.map)
    return a


def run_bare(a, data, extra):
    out = peer.launch(a, [a.bare, a.map, os.path.join(data, "bare.nc"), "--vars", a.vars,
                          "--element-size", a.element_size] + extra, data)
    words = out.split()
    i = words.index("seconds")
    vals = dict(zip(words[i::2], words[i + 1::2]))
    return {k: float(v) for k, v in vals.items()}


def run_h5perf(a, data, exe, api, flag):
    res = os.path.join(data, "r.json")
    argv = [exe, "--pattern", "map", "--map", a.map, "-A", api, flag, "--layout", "shared",
            "-w", "-i", "1", "-C", "--vars", a.vars, "--element-size", a.element_size,
            "--results", res, "-p", str(a.processes)]
    peer.launch(a, argv, data)
    doc = json.load(open(res))
    os.unlink(res)
    run = doc["runs"][0]
    m = {x["measure"]: x for x in run["measures"]}
    return {"seconds": m["write_open_close"]["samples"][0]["seconds"]["slowest"],
            "bytes": run["bytes"]}


def contenders(a):
    c = {"e3sm": lambda d: peer.run_e3sm(a, d, False),
         "bare": lambda d: run_bare(a, d, []),
         "bare_nohints": lambda d: run_bare(a, d, ["--hints", "none"]),
         "bare_agree": lambda d: run_bare(a, d, ["--agree-per-var"]),
         "bare_as_h5perf": lambda d: run_bare(a, d, ["--hints", "none", "--agree-as-h5perf"]),
         "h5perf": lambda d: run_h5perf(a, d, a.h5perf, "pnetcdf", "--pnetcdf.nonblocking=only"),
         "mpiio_joined": lambda d: run_h5perf(a, d, a.h5perf, "mpiio", "--mpiio.joined=only")}
    if a.h5perf_old:
        c["h5perf_old"] = lambda d: run_h5perf(a, d, a.h5perf_old, "pnetcdf",
                                               "--pnetcdf.nonblocking=only")
    return c


def main(argv):
    a = parse_args(argv)
    runs = contenders(a)
    order = list(runs)
    samples = {c: [] for c in order}
    load = []
    start = datetime.datetime.now(datetime.timezone.utc)
    data = tempfile.mkdtemp(prefix="e3sm-gap-", dir=a.dir)
    try:
        for r in range(a.reps):
            load.append(os.getloadavg()[0])
            for c in order[r % len(order):] + order[:r % len(order)]:
                samples[c].append(runs[c](data))
                for n in os.listdir(data):
                    os.unlink(os.path.join(data, n))
        load.append(os.getloadavg()[0])
    except launcher.RunError as e:
        peer.fail(1, str(e))
    finally:
        shutil.rmtree(data, ignore_errors=True)
    write(a, samples, load, start)


def write(a, samples, load, start):
    stats = {c: fidelity_report.stats([s["seconds"] for s in v]) for c, v in samples.items()}
    med = {c: s["median"] for c, s in stats.items()}
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    doc = {"date": start.strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": commit,
           "machine": fidelity.machine(), "command": " ".join([PROG] + sys.argv[1:]),
           "map": a.map, "processes": a.processes, "dir": a.dir, "reps": a.reps, "load": load,
           "stats": stats, "samples": samples}
    os.makedirs(a.out, exist_ok=True)
    base = os.path.join(a.out, a.tag)
    with open(base + ".json", "w") as fh:
        json.dump(doc, fh, indent=1)
    lines = ["# E3SM-IO's G case against h5perf, attributed", "",
             "Date: %s (UTC). Machine: %s. Commit: %s." % (doc["date"], doc["machine"], commit),
             "Command: `%s`." % doc["command"],
             "Map: %s, %d processes, %s. %d repetitions, each contender once per repetition "
             "in a rotating order; load average before each: %s." % (
                 a.map, a.processes, a.dir, a.reps, " ".join("%.2f" % x for x in load)), "",
             "Open-to-close seconds, slowest process: median, best, worst; spread = "
             "(worst - best) / median; over E3SM-IO = E3SM-IO's median over this one's.", "",
             "| contender | median ms | best ms | worst ms | spread | over E3SM-IO |",
             "|---|---:|---:|---:|---:|---:|"]
    for c, s in stats.items():
        lines.append("| %s | %.1f | %.1f | %.1f | %.0f%% | %.3f |" % (
            NAMES[c], 1e3 * s["median"], 1e3 * s["best"], 1e3 * s["worst"], s["spread_pct"],
            med["e3sm"] / s["median"]))
    diffs = [("E3SM-IO's file (header, 52 variables) against h5perf's (76), same calls",
              "e3sm", "bare"),
             ("E3SM-IO's hints (none in h5perf)", "bare_nohints", "bare"),
             ("an agreement per variable", "bare_agree", "bare"),
             ("h5perf's agreements inside its timers", "bare_as_h5perf", "bare_nohints"),
             ("h5perf's own, after (h5perf - bare without hints)", "h5perf", "bare_nohints"),
             ("h5perf's own beyond its agreements", "h5perf", "bare_as_h5perf")]
    if "h5perf_old" in med:
        diffs.append(("the agreements per variable removed (earlier build - this one)",
                      "h5perf_old", "h5perf"))
    lines += ["", "Differences of medians (ms):", ""]
    for what, x, y in diffs:
        lines.append("- %s: %+.1f" % (what, 1e3 * (med[x] - med[y])))
    lines.append("")
    with open(base + ".md", "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1:])
