#!/usr/bin/env python3
"""The cost of recording every call's latency (docs/measuring.md, "Latency";
docs/performance.md): h5perf built at a commit before the recording, the
same h5perf with it, and the bare loop of bench/limit, alternated
(before, after, limit, before, ...) on the smallest transfers of the
guide's patterns, where a per-call cost weighs most: 1 KiB contiguous
transfers, one pwrite or MPI_File_write_at each. Writes medians, spreads
and the ratios after/before and h5perf/limit to
bench/results/latency-cost/README.md. Asserts nothing.

Usage: bench/latency_cost.py --before COMMIT [--reps N] [--target DIR]
"""
import argparse
import datetime
import os
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


def mibs(sample, m):
    return sample.bytes / (1 << 20) / sample.seconds[m]


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/latency_cost.py")
    ap.add_argument("--before", required=True, help="a commit without latency recording")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--target", default="/dev/shm")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/h5perf-bench"))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "latency-cost"))
    a = ap.parse_args(argv)
    os.makedirs(a.cache, exist_ok=True)
    bins = fidelity.build(os.path.join(ROOT, "build-release"))
    before = build_before(a.before, a.cache)
    rows = []
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
        os.rmdir(work)
        for m in MEASURES:
            med = {k: statistics.median(mibs(s, m) for s in v) for k, v in got.items()}
            pairs = [mibs(x, m) / mibs(y, m) for x, y in zip(got["after"], got["before"])]
            rows.append((api, m, med["before"], med["after"], med["limit"],
                         statistics.median(pairs), min(pairs), max(pairs),
                         med["before"] / med["limit"], med["after"] / med["limit"]))
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
    print("bench/latency_cost.py: %s" % os.path.join(a.out, "README.md"))


if __name__ == "__main__":
    main(sys.argv[1:])
