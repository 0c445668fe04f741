#!/usr/bin/env python3
"""The cost of recording every call's latency (docs/measuring.md, "Latency";
docs/performance.md): h5perf built at a commit before the recording, the
same h5perf with it, and the bare loop of bench/limit, alternated
(before, after, limit, before, ...) on the smallest transfers of the
guide's patterns, where a per-call cost weighs most: 1 KiB contiguous
transfers, one pwrite or MPI_File_write_at each. Writes medians, spreads
and the ratios after/before and h5perf/limit to
bench/results/latency-cost/README.md. Asserts nothing.

With --instructions, counts instead the instructions per call in user space
in h5perf's phases (phase_run) under valgrind's callgrind, which the
machine's load does not change: one process, 4 and 8 MiB in 1 KiB calls of each API, written (-w), and written
then read; per call the difference over the 4096 more calls of a phase,
so that start-up cancels.
Writes bench/results/latency-cost/instructions.md.

Usage: bench/latency_cost.py --before COMMIT [--reps N] [--target DIR]
       bench/latency_cost.py --before COMMIT --instructions [--target DIR]
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fidelity  # noqa: E402
import fidelity_run as contender  # noqa: E402

# 16 MiB per process in 1 KiB calls: 16384 calls per process and phase.
CASES = (("posix", "-A posix -e 16M -x 1K -X 1K -B 1K"),
         ("mpiio", "-A mpiio -e 16M -x 1K -X 1K -B 1K"))
NP = 2
MEASURES = ("write", "read")


def build_before(commit, cache):
    """h5perf (Release, -O2) of commit, built in a worktree under cache."""
    src = os.path.join(cache, "src-" + commit)
    if not os.path.isdir(src):
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", src, commit],
                       check=True, stdout=subprocess.DEVNULL)
    build = os.path.join(cache, "build-" + commit)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        subprocess.run(["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG", "-DBUILD_TESTING=OFF"],
                       check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "-j2", "--target", "h5perf"], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(build, "h5perf")


def callgrind_total(exe, args, work):
    """Instructions callgrind counts in h5perf's phases (phase_run and what
    it calls: the watchdog's thread, whose wake-ups depend on the time a
    run takes, and the start-up are left out, so that the count repeats to
    a few instructions) in h5perf's own process (Open MPI's singleton start
    forks a short-lived child, whose count is smaller)."""
    out = tempfile.mkdtemp(dir=work, prefix="callgrind-")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=phase_run",
                    "--callgrind-out-file=" + os.path.join(out, "out.%p"), exe] + args,
                   check=True, cwd=work, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    totals = []
    for name in os.listdir(out):
        with open(os.path.join(out, name)) as f:
            totals += [int(line.split()[1]) for line in f if line.startswith("totals:")]
    return max(totals)


def instructions(commit, before, after, target, out_dir):
    """Instructions per call of each API, before (commit) and after."""
    work = tempfile.mkdtemp(dir=target, prefix="h5perf-latency-")
    rows = []
    for api, _ in CASES:
        per_call = {}
        for name, exe in (("before", before), ("after", after)):
            n = {}
            for mib in (4, 8):
                for only in ([], ["-w"]):
                    args = ["-A", api, "-e", "%dM" % mib, "-x", "1K", "-X", "1K", "-B", "1K",
                            "-p", "1", "-P", "1"] + only
                    n[mib, bool(only)] = callgrind_total(exe, args, work)
            # 4 MiB more in 1 KiB calls: 4096 more writes, and as many reads.
            write = (n[8, True] - n[4, True]) / 4096.0
            read = (n[8, False] - n[4, False]) / 4096.0 - write
            per_call[name] = {"write": write, "read": read}
        for m in MEASURES:
            b, x = per_call["before"][m], per_call["after"][m]
            rows.append((api, m, b, x, x - b))
    # The child may still be writing its count: removed whatever it leaves.
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "instructions.md"), "w") as f:
        f.write("# Instructions per call, before and after latency recording\n\n")
        f.write("`bench/latency_cost.py --before %s --instructions`, %s UTC, %s.\n\n" % (
            commit, datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"),
            fidelity.machine()))
        f.write("valgrind's callgrind (`--toggle-collect=phase_run`), 1 process, 4 and 8 MiB "
                "in 1 KiB calls, written (`-w`) and written then read; instructions in user "
                "space per call: the "
                "difference over the 4096 more calls of a phase (a read's: of the runs "
                "that read, less the write's). A clock read counts as the instructions it "
                "executes: one for `rdtscp`, a few dozen for `MPI_Wtime` "
                "(docs/performance.md).\n\n")
        f.write("| API | phase | before | after | after - before |\n|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %s | %.1f | %.1f | %+.1f |\n" % r)
    print("bench/latency_cost.py: %s" % os.path.join(out_dir, "instructions.md"))


def clock_reads(target):
    """bench/clock_read's line, in words: each clock's ns per read."""
    build = os.path.join(ROOT, "build-release")
    subprocess.run(["cmake", "--build", build, "-j2", "--target", "clock_read"], check=True,
                   stdout=subprocess.DEVNULL)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    out = subprocess.run([os.path.join(build, "bench", "clock_read"), target, "101"],
                         check=True, env=env, stdout=subprocess.PIPE).stdout
    r = json.loads(out.decode())
    words = []
    for what, name in (("read_alone_ns", "alone"), ("read_after_pwrite_ns", "after a pwrite")):
        words.append("%s: %s" % (name, ", ".join(
            "%s %.1f (%.1f)" % (c, r[what][c]["median"], r[what][c]["min"])
            for c in ("MPI_Wtime", "tsc", "MPI_Wtime+record", "tsc+record", "MPI_Wtime+log",
                      "tsc+log")
            if "tsc" not in c or r["tsc"])))
    words.append("the 1 KiB pwrite itself %.0f (%.0f)" % (r["pwrite_ns"]["median"],
                                                          r["pwrite_ns"]["min"]))
    if "order_ns" in r:
        o = r["order_ns"]
        words.append("a call's median latency read by rdtscp, and by rdtsc: a 1 KiB memcpy "
                     "from 64 MiB %.0f and %.0f ns, a 1 KiB pwrite %.0f and %.0f ns" % (
                         o["memcpy"]["rdtscp"], o["memcpy"]["rdtsc"], o["pwrite"]["rdtscp"],
                         o["pwrite"]["rdtsc"]))
    text = "; ".join(words) + (" (counter: %.0f Hz)" % r["tsc_hz"] if r["tsc"] else
                               " (the counter is not usable here)")
    # What h5perf adds to a call: a read and the log's store (binned
    # outside the timers), after a call as in the engine.
    return text, r["read_after_pwrite_ns"]["tsc+log" if r["tsc"] else "MPI_Wtime+log"]["median"]


# Calls slower than this were, on a shared machine, mostly preempted by other
# work; their mean stands for the calls of an idle machine.
CALL_KEPT_S = 20e-6


def call_times(exe, args, work, hwm, runs=5):
    """{measure: (p50, mean of the calls under CALL_KEPT_S)} in ns of a
    transfer as h5perf's own histograms have it (from the clock read that
    ended the call before: the whole loop), medians over runs."""
    got = {m: [] for m in MEASURES}
    path = os.path.join(work, "calls.json")
    for _ in range(runs):
        contender.launch(NP, exe, args + ["--format=json", "-o", path], work, hwm, 900)
        with open(path) as f:
            run = json.load(f)["runs"][0]
        os.unlink(path)
        for m in MEASURES:
            t = run["latency"][m]["transfer"]
            kept = [(u, c) for u, c in t["histogram"] if u < CALL_KEPT_S]
            mean = sum(u * c for u, c in kept) / sum(c for _, c in kept)
            got[m].append((t["seconds"]["p50"] * 1e9, mean * 1e9))
    return {m: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
            for m, v in got.items()}


def mibs(sample, m):
    return sample.bytes / (1 << 20) / sample.seconds[m]


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/latency_cost.py")
    ap.add_argument("--before", required=True, help="a commit without latency recording")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--target", default="/dev/shm")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/h5perf-bench"))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "latency-cost"))
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions per call under callgrind instead")
    a = ap.parse_args(argv)
    os.makedirs(a.cache, exist_ok=True)
    bins = fidelity.build(os.path.join(ROOT, "build-release"))
    before = build_before(a.before, a.cache)
    if a.instructions:
        instructions(a.before, before, bins["h5perf"], a.target, a.out)
        return
    rows = []
    calls = []
    load = [os.getloadavg()[0]]
    for api, args in CASES:
        got = {"before": [], "after": [], "limit": []}
        work = tempfile.mkdtemp(dir=a.target, prefix="h5perf-latency-")
        full = args.split() + ["-p", str(NP), "-P", str(NP)]
        nbytes = NP * (16 << 20)
        for _ in range(a.reps):
            got["before"].append(contender.run_h5perf(NP, before, full, work, bins["hwm"],
                                                      nbytes, True))
            got["after"].append(contender.run_h5perf(NP, bins["h5perf"], full, work,
                                                     bins["hwm"], nbytes, True))
            got["limit"].append(contender.run_limit(NP, bins["limit"], full, work,
                                                    bins["hwm"]))
        ct = call_times(bins["h5perf"], full, work, bins["hwm"])
        calls += [(api, m) + ct[m] for m in MEASURES]
        os.rmdir(work)
        for m in MEASURES:
            med = {k: statistics.median(mibs(s, m) for s in v) for k, v in got.items()}
            pairs = [mibs(x, m) / mibs(y, m) for x, y in zip(got["after"], got["before"])]
            rows.append((api, m, med["before"], med["after"], med["limit"],
                         statistics.median(pairs), min(pairs), max(pairs),
                         med["before"] / med["limit"], med["after"] / med["limit"]))
    reads, record_ns = clock_reads(a.target)
    load.append(os.getloadavg()[0])
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "README.md"), "w") as f:
        f.write("# The cost of recording every call's latency\n\n")
        f.write("`bench/latency_cost.py --before %s --reps %d --target %s`, %s UTC, %s.\n\n" % (
            a.before, a.reps, a.target,
            datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"), fidelity.machine()))
        f.write("2 processes, 16 MiB each in 1 KiB calls (one `pwrite` or "
                "`MPI_File_write_at` per call), alternated before, after, limit; MiB/s "
                "medians of %d runs; after/before per alternated pair: median (min..max). "
                "Load average (1 min) at the start and end: %.1f, %.1f on %d cores.\n\n"
                % (a.reps, load[0], load[1], os.cpu_count()))
        f.write("| API | phase | before | after | limit | after/before | pairs min..max "
                "| before/limit | after/limit |\n|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %s | %.0f | %.0f | %.0f | %.3f | %.3f..%.3f | %.3f | %.3f |\n" % r)
        f.write("\nOne read of the timers' clock, with the histogram's update "
                "(`+record`), and with the log's store (`+log`, binned when full, inside the "
                "loop's time) (`bench/clock_read %s 101`, right after the runs; ns per read, "
                "median (min) of 101 alternated loops of 16384; after a pwrite: less the "
                "same loop without a read): %s\n" % (a.target, reads))
        f.write("\nA transfer's time in h5perf (after), from its own latency histograms "
                "(from the clock read that ended the call before: the whole loop), medians "
                "of 5 runs: p50, and the mean of the calls under %.0f us (longer ones were "
                "mostly preempted by other work); recording: a read and the log's store "
                "after a pwrite (%.1f ns, above), as a share of that mean.\n\n"
                "| API | phase | p50 ns | mean ns | recording / mean |\n|---|---|---|---|---|\n"
                % (CALL_KEPT_S * 1e6, record_ns))
        for api, m, p50, mean in calls:
            f.write("| %s | %s | %.0f | %.0f | %.1f%% |\n" % (api, m, p50, mean,
                                                              100 * record_ns / mean))
    print("bench/latency_cost.py: %s" % os.path.join(a.out, "README.md"))


if __name__ == "__main__":
    main(sys.argv[1:])
