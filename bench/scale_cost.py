#!/usr/bin/env python3
"""h5perf's own costs from 1 process up (docs/scale.md): each alternated,
run by run, with what it is measured against, on tiny payloads (4 KiB per
process, 1 KiB-scale I/O), oversubscribed beyond the cores.

Every run has bench/scale_probe preloaded, which appends, per process, when
it started, entered and left MPI_Init, made its first and last data call
(pwrite/pread) and entered MPI_Finalize, and its time in file-system calls
between MPI_Init and the first data call. Contenders, in each repetition
(the order rotating by one each repetition):

  bare           bench/scale_bare: the run's open/pwrite/close, open/pread/
                 close, the slowest process's time reduced, and h5perf's
                 latency merge (three reductions to process 0), timed
  h5perf         -A posix -e 4K -x 4K -X 4K -B 4K -p P -P P
  no_cleaner     the same without its cleanup process (the probe makes the
                 registry's memfd_create fail)
  no_memcheck    the same with --no-memory-check
  latency        the same with --latency (the latency table in the report)
  results        the same with --results FILE.json
  iter6          the same with -i 6
  confidence     -i 1 --confidence 50 --max-iterations 6: the same six
                 iterations, with process 0's decision (and its broadcast)
                 after each
  fpp            --pattern block -A posix --global 512P --layout fpp (8-byte
                 elements: 4 KiB per process, a file per process), whose
                 file-system checks on process 0 look at every process's
                 file name
  step_h5perf    -A mpiio -C -e 4K -x 4K -X 4K -B 4K -d D --results: D
                 collective steps per phase, each followed by h5perf's
                 agreement
  step_limit     bench/limit with the same options: the same MPI-IO calls
                 without h5perf's agreement

Then bench/scale_rank0 times process 0's page-cache check
(engine/context.c's context_reads_local, compiled in) on lists of P host
names this machine could not start (--rank0-procs), 3 times each.

Each cost is a difference within a repetition (h5perf minus what it is
measured against), so that the machine's drift cancels pair by pair;
medians and min..max over repetitions, the load average (1 min) sampled
before each repetition. Writes bench/results/scale-cost/README.md and
samples.json (every run's figures), and the least-squares fits of each
cost's medians against P (a + b P, a + b log2 P, a + b P log2 P).
Asserts nothing.

Usage: bench/scale_cost.py [--procs 1,2,4,...] [--reps N] [--reps-at P=N,...]
       [--steps D] [--target DIR] [--out DIR] [--build DIR] [--no-build]
       [--contenders a,b,...] [--append]
       bench/scale_cost.py --refit [--out DIR]   (README again from samples.json)
"""
import argparse
import datetime
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fidelity  # noqa: E402
import fidelity_run  # noqa: E402

TINY = ["-A", "posix", "-e", "4K", "-x", "4K", "-X", "4K", "-B", "4K"]
STEP = ["-A", "mpiio", "-C", "-e", "4K", "-x", "4K", "-X", "4K", "-B", "4K"]
CONTENDERS = ("bare", "h5perf", "no_cleaner", "no_memcheck", "latency", "results", "iter6",
              "confidence", "fpp", "step_h5perf", "step_limit")
TIMEOUT = 900


def command(name, p, bins, work, steps):
    """(argv, extra environment) of one contender at P processes."""
    pp = ["-p", str(p), "-P", str(p)]
    h5 = [bins["h5perf"]]
    if name == "bare":
        return [bins["scale_bare"], work, "4096", "--merge"], {}
    if name == "h5perf":
        return h5 + TINY + pp, {}
    if name == "no_cleaner":
        return h5 + TINY + pp, {"SCALE_PROBE_NO_CLEANER": "1"}
    if name == "no_memcheck":
        return h5 + TINY + pp + ["--no-memory-check"], {}
    if name == "latency":
        return h5 + TINY + pp + ["--latency"], {}
    if name == "results":
        return h5 + TINY + pp + ["--results", os.path.join(work, "scale-results.json")], {}
    if name == "iter6":
        return h5 + TINY + pp + ["-i", "6"], {}
    if name == "confidence":
        return h5 + TINY + pp + ["-i", "1", "--confidence", "50", "--max-iterations", "6"], {}
    if name == "fpp":
        return h5 + ["--pattern", "block", "-A", "posix", "--global", str(512 * p), "--layout",
                     "fpp"] + pp, {}
    if name == "step_h5perf":
        return h5 + STEP + pp + ["-d", str(steps), "--results",
                                 os.path.join(work, "scale-results.json")], {}
    if name == "step_limit":
        return [bins["limit"], "--dir=" + work] + STEP + pp + ["-d", str(steps)], {}
    raise ValueError(name)


def read_probe(path, p):
    """The probe's lines: {rank: {field: ns}}."""
    keys = ("start", "init_in", "init_out", "first_io", "last_io", "finalize", "children",
            "fs_ns", "fs_calls", "cpu_init_out", "cpu_first_io", "cpu_last_io",
            "cpu_finalize", "n_tree", "n_linear", "n_comm")
    ranks = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 19 and w[0] == "probe":
                ranks[int(w[1])] = dict(zip(keys, (int(x) for x in w[3:])))
    if sorted(ranks) != list(range(p)):
        raise fidelity_run.RunError("probe: %d lines of %d processes" % (len(ranks), p))
    return ranks


def figures(ranks, wall, t0_ns):
    """A run's figures in seconds, from its probe lines (the job's: the last
    process to reach each point)."""
    def last(k):
        return max(r[k] for r in ranks.values())
    s = 1e-9
    return {
        "wall": wall,
        "launch": (min(r["start"] for r in ranks.values()) - t0_ns) * s,
        "pre_mpi": max(r["init_in"] - r["start"] for r in ranks.values()) * s,
        "mpi_init": (last("init_out") - min(r["init_in"] for r in ranks.values())) * s,
        "startup": (last("first_io") - last("init_out")) * s,
        "io": (last("last_io") - last("first_io")) * s,
        "end": (last("finalize") - last("last_io")) * s,
        "in_mpi": (last("finalize") - last("init_out")) * s,
        "fs_rank0": ranks[0]["fs_ns"] * s,
        "fs_calls_rank0": ranks[0]["fs_calls"],
        "fs_max": max(r["fs_ns"] for r in ranks.values()) * s,
        "children": sum(r["children"] for r in ranks.values()),
        # Processor time per process (median over processes, and process
        # 0's): the work oversubscription does not multiply.
        "cpu_startup": statistics.median(r["cpu_first_io"] - r["cpu_init_out"]
                                         for r in ranks.values()) * s,
        "cpu_in_mpi": statistics.median(r["cpu_finalize"] - r["cpu_init_out"]
                                        for r in ranks.values()) * s,
        "cpu_end_rank0": (ranks[0]["cpu_finalize"] - ranks[0]["cpu_last_io"]) * s,
        "cpu_in_mpi_rank0": (ranks[0]["cpu_finalize"] - ranks[0]["cpu_init_out"]) * s,
        # What process 0 does more than the median process.
        "cpu_rank0_extra": (ranks[0]["cpu_finalize"] - ranks[0]["cpu_init_out"]) * s -
        statistics.median(r["cpu_finalize"] - r["cpu_init_out"] for r in ranks.values()) * s,
        # Process 0's collective calls and communicators created.
        "n_tree": ranks[0]["n_tree"], "n_linear": ranks[0]["n_linear"],
        "n_comm": ranks[0]["n_comm"],
    }


def run_one(name, p, bins, work, steps):
    argv, extra = command(name, p, bins, work, steps)
    probe = os.path.join(work, "probe.txt")
    env = fidelity_run.launch_env(work)
    env.update(extra)
    env.update(LD_PRELOAD=bins["probe"], SCALE_PROBE_FILE=probe)
    t0_ns = time.time_ns()
    t0 = time.monotonic()
    try:
        r = subprocess.run(fidelity_run.mpiexec_command(p, argv), env=env, cwd=work,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        raise fidelity_run.RunError("timed out: %s" % " ".join(argv)) from e
    wall = time.monotonic() - t0
    if r.returncode != 0:
        raise fidelity_run.RunError("%s at %d: exit %d\n%s" % (
            name, p, r.returncode, r.stderr.decode(errors="replace")[-3000:]))
    fig = figures(read_probe(probe, p), wall, t0_ns)
    os.unlink(probe)
    out = r.stdout.decode(errors="replace")
    res = os.path.join(work, "scale-results.json")
    if name == "bare":
        fig["merge"] = json.loads(out.strip().splitlines()[-1])["merge"]
    elif name == "step_limit":
        sec = json.loads(out.strip().splitlines()[-1])["seconds"]
        fig["steps_s"] = sec["write_open_close"][0] + sec["read_open_close"][0]
    elif name == "step_h5perf":
        sec = fidelity_run.seconds_from_json(res)
        fig["steps_s"] = sec["write_open_close"] + sec["read_open_close"]
    if os.path.exists(res):
        os.unlink(res)
    left = [n for n in os.listdir(work)]
    if left:
        raise fidelity_run.RunError("%s at %d left %s in %s" % (name, p, left, work))
    return fig


# Each cost: (name, what, contender, its figure, baseline, its figure, scale).
# The cost of a repetition is contender[figure] - baseline[figure], times scale
# (per step: divided by the steps of both phases).
def costs(steps):
    return (
        ("whole", "whole run (mpiexec's wall time)", "h5perf", "wall", "bare", "wall", 1),
        ("startup", "start-up: last process out of MPI_Init to the last first data call",
         "h5perf", "startup", "bare", "startup", 1),
        ("startup_cpu", "start-up's processor time per process (median process)", "h5perf",
         "cpu_startup", "bare", "cpu_startup", 1),
        ("run_cpu", "processor time per process from MPI_Init to MPI_Finalize (median "
         "process)", "h5perf", "cpu_in_mpi", "bare", "cpu_in_mpi", 1),
        ("run_cpu_rank0", "processor time of process 0 from MPI_Init to MPI_Finalize",
         "h5perf", "cpu_in_mpi_rank0", "bare", "cpu_in_mpi_rank0", 1),
        ("rank0_cpu_extra", "process 0's processor time beyond the median process's",
         "h5perf", "cpu_rank0_extra", "bare", "cpu_rank0_extra", 1),
        ("pre_mpi", "before MPI_Init (the cleanup process's fork among it)", "h5perf",
         "pre_mpi", "bare", "pre_mpi", 1),
        ("cleanup", "cleanup process: whole run with it minus without it", "h5perf", "wall",
         "no_cleaner", "wall", 1),
        ("cleanup_pre", "cleanup process: before MPI_Init, with minus without", "h5perf",
         "pre_mpi", "no_cleaner", "pre_mpi", 1),
        ("memcheck", "memory check: start-up with minus without --no-memory-check", "h5perf",
         "startup", "no_memcheck", "startup", 1),
        ("memcheck_cpu", "memory check: start-up's processor time (median process), with "
         "minus without", "h5perf", "cpu_startup", "no_memcheck", "cpu_startup", 1),
        ("fscheck", "file-system calls before the first data call, process 0", "h5perf",
         "fs_rank0", "bare", "fs_rank0", 1),
        ("fscheck_fpp", "file-system calls before the first data call, process 0, a file per "
         "process minus one shared file", "fpp", "fs_rank0", "h5perf", "fs_rank0", 1),
        ("step", "agreement per collective step (D steps per phase, write and read)",
         "step_h5perf", "steps_s", "step_limit", "steps_s", 1.0 / (2 * steps)),
        ("end", "after the last data call to MPI_Finalize (merge, decisions, report)",
         "h5perf", "end", "bare", "end", 1),
        ("end_cpu", "process 0's processor time after its last data call", "h5perf",
         "cpu_end_rank0", "bare", "cpu_end_rank0", 1),
        ("latency", "--latency on minus off (after the last data call)", "latency", "end",
         "h5perf", "end", 1),
        ("latency_cpu", "--latency on minus off: process 0's processor time after its last "
         "data call", "latency", "cpu_end_rank0", "h5perf", "cpu_end_rank0", 1),
        ("merge", "the latency merge's reductions alone (bare program)", "bare", "merge",
         None, None, 1),
        ("confidence", "--confidence's 6 decisions over 6 iterations (in MPI)", "confidence",
         "in_mpi", "iter6", "in_mpi", 1),
        ("confidence_cpu", "--confidence's decisions: process 0's processor time from "
         "MPI_Init to MPI_Finalize", "confidence", "cpu_in_mpi_rank0", "iter6",
         "cpu_in_mpi_rank0", 1),
        ("results", "--results x.json on minus off (after the last data call)", "results",
         "end", "h5perf", "end", 1),
        ("results_cpu", "--results x.json on minus off: process 0's processor time after "
         "its last data call", "results", "cpu_end_rank0", "h5perf", "cpu_end_rank0", 1),
    )


def cost_samples(reps, cost):
    _, _, a, fa, b, fb, scale = cost
    out = []
    for rep in reps:
        if fa in rep.get(a, {}) and (b is None or fb in rep.get(b, {})):
            out.append((rep[a][fa] - (rep[b][fb] if b else 0)) * scale)
    return out


def ratio(reps, cost):
    _, _, a, fa, b, fb, _ = cost
    if b is None:
        return None
    both = [rep for rep in reps if fa in rep.get(a, {}) and fb in rep.get(b, {})]
    x = [rep[a][fa] for rep in both]
    y = [rep[b][fb] for rep in both]
    if not x or statistics.median(y) <= 0:
        return None
    return statistics.median(x) / statistics.median(y)


# --- least squares ---------------------------------------------------------

FORMS = (("a + b P", lambda p: p), ("a + b log2 P", lambda p: math.log2(p)),
         ("a + b P log2 P", lambda p: p * math.log2(p)))


def fit(points):
    """Each form's (name, a, b, rms residual) by least squares, best first."""
    out = []
    for name, g in FORMS:
        xs = [g(p) for p, _ in points]
        ys = [y for _, y in points]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
        a = my - b * mx
        rms = math.sqrt(sum((y - a - b * x) ** 2 for x, y in zip(xs, ys)) / n)
        out.append((name, a, b, rms))
    return sorted(out, key=lambda f: f[3])


def predict(form, p):
    name, a, b, _ = form
    return a + b * dict(FORMS)[name](p)


# --- the report --------------------------------------------------------------

def seconds(x):
    if abs(x) >= 1:
        return "%.3f s" % x
    if abs(x) >= 1e-3:
        return "%.2f ms" % (x * 1e3)
    return "%.1f us" % (x * 1e6)


def write_report(doc, out):
    steps = doc["steps"]
    by_p = {}
    for s in doc["samples"]:
        by_p.setdefault(s["procs"], {}).setdefault(s["rep"], {})[s["contender"]] = s["figures"]
    procs = sorted(by_p)
    lines = ["# h5perf's own costs from 1 process up", "",
             "`%s`, %s UTC, commit %s, %s, %s." % (doc["command"], doc["date"], doc["commit"],
                                                   doc["machine"]["cpu"], doc["mpi"]), "",
             "%d cores and %d MiB of memory; every process count above the cores "
             "oversubscribed. Tiny payloads in a directory of %s made and removed by "
             "the script: 4 KiB per process (`%s`); the steps: %d collective MPI-IO "
             "steps per phase (`%s -d %d`). Each figure is the median over repetitions "
             "of h5perf's figure minus its baseline's in the same repetition, with the "
             "min..max of those differences; `ratio` is the medians' ratio (h5perf / "
             "baseline) where both are times. Load: the 1-minute load average sampled "
             "before each repetition, median (min..max) below and its median beside "
             "each figure; it counts this benchmark's own processes too, about P while "
             "a run of P lasts. The contenders and the probe: "
             "bench/scale_cost.py's docstring and bench/README.md; the model: "
             "docs/scale.md." % (
                 doc["machine"]["nproc"], doc["machine"]["memory_mib"], doc["target"],
                 " ".join(TINY), steps, " ".join(STEP), steps), ""]
    load_at = {p: statistics.median(l[2] for l in doc["load"] if l[0] == p) for p in procs}
    lines += ["| P | repetitions | load |", "|---|---|---|"]
    for p in procs:
        loads = [l for l in doc["load"] if l[0] == p]
        ls = [l[2] for l in loads]
        lines.append("| %d | %d | %.2f (%.2f..%.2f) |" % (
            p, len(by_p[p]), statistics.median(ls), min(ls), max(ls)))
    lines.append("")
    fits = {}
    for cost in costs(steps):
        key, what = cost[0], cost[1]
        lines += ["## %s: %s" % (key, what), "",
                  "| P | h5perf - baseline | min..max | ratio | load |", "|---|---|---|---|---|"]
        pts = []
        for p in procs:
            reps = list(by_p[p].values())
            xs = cost_samples(reps, cost)
            if not xs:
                continue
            med = statistics.median(xs)
            pts.append((p, med))
            r = ratio(reps, cost)
            lines.append("| %d | %s | %s..%s | %s | %.1f |" % (
                p, seconds(med), seconds(min(xs)), seconds(max(xs)),
                "%.2f" % r if r is not None else "-", load_at[p]))
        lines.append("")
        if len(pts) >= 3:
            f = fit(pts)
            fits[key] = f
            lines.append("Least squares on the medians (rms residual): " + "; ".join(
                "%s: a = %s, b = %s (%s)" % (n, seconds(a), seconds(b), seconds(r))
                for n, a, b, r in f) + ". Above %d processes the cores are shared: an "
                "elapsed figure grows with P there whatever h5perf does (docs/scale.md)." % (
                    doc["machine"]["nproc"]))
            lines.append("")
    lines += ["## Collective calls of process 0, and file-system calls before its first data call",
              "", "Counted by the probe from MPI_Init to MPI_Finalize (medians over "
              "repetitions): tree = all-reduce, reduce, broadcast, barrier, scans (log P "
              "each); linear = gathers, scatters, all-gathers, all-to-all (a part per "
              "process); comm = communicators created; fs = process 0's own file-system "
              "calls before its first data call.", "",
              "| P | contender | tree | linear | comm | fs |", "|---|---|---|---|---|---|"]
    for p in procs:
        for name in CONTENDERS:
            got = [rep[name] for rep in by_p[p].values() if "n_tree" in rep.get(name, {})]
            if got:
                lines.append("| %d | %s | %g | %g | %g | %g |" % (
                    p, name, *(statistics.median(g[k] for g in got)
                               for k in ("n_tree", "n_linear", "n_comm", "fs_calls_rank0"))))
    lines.append("")
    if doc.get("rank0"):
        lines += ["## Process 0's page-cache check at counts this machine cannot start", "",
                  "`bench/scale_rank0 128 P...`: engine/context.c's `context_reads_local` on "
                  "P host names, 128 processes per host, the guide's pattern; 3 runs, "
                  "median (min..max) of the processor time.", "",
                  "| P | processor time | min..max | elapsed (median) |", "|---|---|---|---|"]
        pts = []
        for p in sorted({r["procs"] for r in doc["rank0"]}):
            c = [r["cpu_seconds"] for r in doc["rank0"] if r["procs"] == p]
            w = [r["seconds"] for r in doc["rank0"] if r["procs"] == p]
            pts.append((p, statistics.median(c)))
            lines.append("| %d | %s | %s..%s | %s |" % (p, seconds(statistics.median(c)),
                                                       seconds(min(c)), seconds(max(c)),
                                                       seconds(statistics.median(w))))
        if len(pts) >= 2:
            b = sum(y * p * p for p, y in pts) / sum(float(p) ** 4 for p, _ in pts)
            rms = math.sqrt(sum((y - b * p * p) ** 2 for p, y in pts) / len(pts))
            lines += ["", "Least squares of b P^2: b = %.3g s (%.2f ns per P^2), rms %s." % (
                b, b * 1e9, seconds(rms))]
        lines.append("")
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines))
    return fits


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/scale_cost.py")
    ap.add_argument("--procs", default="1,2,4,8,16,32,64,128,256")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--reps-at", default="",
                    help="fewer repetitions at some counts: P=N,P=N (64=5,128=3)")
    ap.add_argument("--contenders", default=",".join(CONTENDERS),
                    help="the contenders to run, in this order [all]")
    ap.add_argument("--append", action="store_true",
                    help="add to the out directory's samples.json (the same --steps) instead "
                    "of replacing it; its counts in --procs are measured again")
    ap.add_argument("--steps", type=int, default=64)
    ap.add_argument("--rank0-procs", default="1000,2000,4000,8000,16000",
                    help="the process counts of bench/scale_rank0 (none: empty)")
    ap.add_argument("--target", default="/dev/shm")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-release"),
                    help="a Release build, configured and built if needed [build-release]")
    ap.add_argument("--no-build", action="store_true",
                    help="use --build's programs as they are (the smoke test)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "scale-cost"))
    ap.add_argument("--refit", action="store_true",
                    help="write the README again from the out directory's samples.json")
    a = ap.parse_args(argv)
    a.build = os.path.abspath(a.build)
    if a.refit:
        with open(os.path.join(a.out, "samples.json")) as f:
            write_report(json.load(f), a.out)
        print("bench/scale_cost.py: %s" % os.path.join(a.out, "README.md"))
        return
    if not a.no_build:
        fidelity.build(a.build)
        subprocess.run(["cmake", "--build", a.build, "-j2", "--target", "scale_bare",
                        "scale_probe"], check=True, stdout=subprocess.DEVNULL)
    bins = {"h5perf": os.path.join(a.build, "h5perf"),
            "limit": os.path.join(a.build, "bench", "limit"),
            "scale_bare": os.path.join(a.build, "bench", "scale_bare"),
            "probe": os.path.join(a.build, "bench", "libscale_probe.so")}
    procs = [int(x) for x in a.procs.split(",")]
    doc = {"command": "bench/scale_cost.py " + " ".join(argv),
           "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"),
           "commit": fidelity.command_output(["git", "rev-parse", "--short", "HEAD"]),
           "machine": fidelity.machine(), "mpi": fidelity_run.mpi_version(),
           "target": a.target, "steps": a.steps, "samples": [], "load": []}
    reps_at = {int(k): int(v) for k, v in (x.split("=") for x in a.reps_at.split(",") if x)}
    chosen = tuple(a.contenders.split(","))
    if any(c not in CONTENDERS for c in chosen):
        sys.exit("bench/scale_cost.py: --contenders: choose among " + ",".join(CONTENDERS))
    os.makedirs(a.out, exist_ok=True)
    if a.append:
        with open(os.path.join(a.out, "samples.json")) as f:
            old = json.load(f)
        old["command"] += "; then " + doc["command"]
        old["samples"] = [x for x in old["samples"] if x["procs"] not in procs]
        old["load"] = [x for x in old["load"] if x[0] not in procs]
        doc = old
    work = tempfile.mkdtemp(dir=a.target, prefix="h5perf-scale-")
    try:
        for p in procs:
            reps = reps_at.get(p, a.reps)
            for rep in range(reps):
                doc["load"].append((p, rep, os.getloadavg()[0]))
                k = rep % len(chosen)
                for name in chosen[k:] + chosen[:k]:
                    fig = run_one(name, p, bins, work, a.steps)
                    doc["samples"].append({"procs": p, "rep": rep, "contender": name,
                                           "figures": fig})
                # What was measured so far is kept, should a later run fail.
                with open(os.path.join(a.out, "samples.json"), "w") as f:
                    json.dump(doc, f, indent=1)
            print("bench/scale_cost.py: P = %d done (%d repetitions), %s UTC" % (
                p, reps, datetime.datetime.utcnow().strftime("%H:%M:%S")), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.rank0_procs:
        exe = os.path.join(a.build, "bench", "scale_rank0")
        doc["rank0"] = []
        for rep in range(3):
            out = subprocess.run([exe, "128"] + a.rank0_procs.split(","), check=True,
                                 stdout=subprocess.PIPE, timeout=TIMEOUT).stdout.decode()
            doc["rank0"] += [dict(json.loads(l), rep=rep) for l in out.splitlines()]
        with open(os.path.join(a.out, "samples.json"), "w") as f:
            json.dump(doc, f, indent=1)
    write_report(doc, a.out)
    print("bench/scale_cost.py: %s" % os.path.join(a.out, "README.md"))


if __name__ == "__main__":
    main(sys.argv[1:])
