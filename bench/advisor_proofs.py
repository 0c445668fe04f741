#!/usr/bin/env python3
"""The advisor's answers on this machine (docs/advisor.md), five parts:

split       the same 64^3 array of 16 variables split along its slowest
            dimension (grid 2x1x1) and along its fastest (1x1x2), written
            once into a shared file: both workloads advised alternately,
            --reps times; the best candidate of each, with its interval,
            and the ratio slow/fast per repetition and per API;
components  the fastest-dimension split written and read back, one launch
            per Open MPI MPI-IO component (OMPI_MCA_io=ompio, romio321),
            alternated, --reps times: each API's independent and
            collective write and read medians, with intervals;
direct      the runs the components part races, made by h5perf itself as the
            measured facts were (docs/advisor.md: -i 5 each, medians):
            each API and I/O mode under each component, alternated, --reps
            times; Write and Read, and the same with open and close;
examples    bench/advisor_proofs/*.yaml (the examples/workloads/ files at
            a size this machine holds) under /usr/bin/time -v: the answer,
            the wall time and the peak memory (the largest process's);
equal       three candidates that are the same run (transfer sizes that all
            move a process's part in one call), --reps launches: the
            advisor must keep the baseline each time.

Writes every answer under OUT/answers/ and the tables to OUT/PART.md.
Asserts nothing.

Usage: bench/advisor_proofs.py PART... [--reps N] [--budget S] [--target DIR]
                               [--map E3SM-IO's map_f_case_16p.nc] [--out DIR]
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fidelity  # noqa: E402

# The measured facts' array (docs/advisor.md): 64^3 doubles, 16 variables,
# 2 processes, one shared file; only the grid differs between the two.
SPLIT = """name: 64^3 doubles, 16 variables, grid {grid}
arrays:
  - name: field
    global: [64, 64, 64]
    type: f64
    decomposition: {{grid: [{grid}]}}
    variables: 16
    read_back: {read}
baseline: {{api: phdf5, layout: shared, collective: false}}
search:
  apis: [{apis}]
  layouts: [shared]
  alignments: [1]
  align_data: [packed]
  transfer_sizes: [whole]
  hints: {{romio_cb_write: [], romio_cb_read: []}}
"""
GRIDS = (("slow", "2, 1, 1"), ("fast", "1, 1, 2"))
COMPONENTS = ("ompio", "romio321")
# One row of the answer's table (src/engine/advise_print.c).
NUM = r"([0-9.]+)\s+(?:\[\s*([0-9.]+),\s*([0-9.]+)\]|\[n<6\])"
ROW = re.compile(r"^\s+(\d+|base)\s+(?:" + NUM + r"|-)\s+(?:" + NUM + r"|-)\s+([0-9.]+)\s+(=)?\s+"
                 r"(verified|in race|worse|halved|failed|unmeasured)\s+(.*)$")
HEAD = re.compile(r"^\S.*: (\d+) candidates, (\d+) measured(?: in (\d+) rounds?|, the first round "
                  r"unfinished), ([0-9.]+) s")


def mpiexec():
    return shutil.which("mpiexec") or "mpiexec"


def advise(h5perf, np, workload, budget, target, env_extra, timed=False):
    """One launch of --advise; (stdout, stderr, wall seconds, peak KiB)."""
    env = dict(os.environ, HDF5_PARAPREFIX=target, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **env_extra)
    argv = [mpiexec(), "--oversubscribe", "-n", str(np), h5perf, "--advise", workload,
            "--budget", str(budget), "--progress"]
    if timed:
        argv = ["/usr/bin/time", "-v"] + argv
    t0 = datetime.datetime.now()
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True)
    wall = (datetime.datetime.now() - t0).total_seconds()
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    if p.returncode != 0:
        sys.exit("bench/advisor_proofs.py: --advise %s exited %d:\n%s" % (workload, p.returncode,
                                                                          p.stderr))
    return p.stdout, p.stderr, wall, int(peak.group(1)) if peak else None


def interval(m, at):
    if m.group(at) is None:
        return None
    return (float(m.group(at)), (float(m.group(at + 1)), float(m.group(at + 2)))
            if m.group(at + 1) else None)


def table(text):
    """The answer's rows: dicts of write/read (median, (low, high) or None),
    ratio, tie, state, candidate; and the recommendation's first line."""
    rows = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            rows.append({"rank": m.group(1), "write": interval(m, 2), "read": interval(m, 5),
                         "x_base": float(m.group(8)), "tie": m.group(9) == "=",
                         "state": m.group(10), "candidate": m.group(11).strip()})
    rec = [x for x in text.splitlines() if x.startswith("recommendation:")]
    head = [HEAD.match(x) for x in text.splitlines() if HEAD.match(x)]
    return rows, rec[0] if rec else "", head[0].group(0) if head else ""


def fmt(v):
    if v is None:
        return "-"
    med, ci = v
    return "%.0f [%.0f, %.0f]" % (med, ci[0], ci[1]) if ci else "%.0f [n<6]" % med


def api_of(candidate):
    return candidate.split()[1]


def spread(xs):
    return "%.2f (%.2f..%.2f, %d)" % (statistics.median(xs), min(xs), max(xs), len(xs))


def save(out, name, stdout, stderr):
    os.makedirs(os.path.join(out, "answers"), exist_ok=True)
    with open(os.path.join(out, "answers", name + ".txt"), "w") as f:
        f.write(stdout + ("\n--- stderr\n" + stderr if stderr.strip() else ""))


def part_split(a, h5perf, out, md):
    apis = "posix, mpiio, phdf5, pnetcdf"
    paths = {}
    for name, grid in GRIDS:
        paths[name] = os.path.join(out, "split-%s.yaml" % name)
        with open(paths[name], "w") as f:
            f.write(SPLIT.format(grid=grid, read="false", apis=apis))
    best = {n: [] for n, _ in GRIDS}
    per_api = {n: {} for n, _ in GRIDS}
    for rep in range(a.reps):
        for name, _ in (GRIDS if rep % 2 == 0 else GRIDS[::-1]):
            text, err, wall, _ = advise(h5perf, 2, paths[name], a.budget, a.target, {})
            save(out, "split-%s-%d" % (name, rep + 1), text, err)
            rows, rec, head = table(text)
            best[name].append(rows[0])
            for r in rows:
                cur = per_api[name].setdefault(api_of(r["candidate"]), [None] * a.reps)
                if cur[rep] is None or r["write"][0] > cur[rep]["write"][0]:
                    cur[rep] = r
    md.write("## split: the decomposition's direction (write only, one shared file)\n\n")
    md.write("Workloads `split-slow.yaml` (grid 2x1x1) and `split-fast.yaml` (grid 1x1x2), "
             "identical but for the grid; search: APIs %s, both I/O modes, shared layout, "
             "whole parts, no hints; budget %s s each, alternated, %d repetitions. Write "
             "MiB/s (open and close included) median [95%% interval].\n\n"
             % (apis, a.budget, a.reps))
    md.write("| rep | best of slow split | candidate | best of fast split | candidate "
             "| slow/fast |\n|---|---|---|---|---|---|\n")
    ratios = []
    for rep in range(a.reps):
        s, f = best["slow"][rep], best["fast"][rep]
        ratios.append(s["write"][0] / f["write"][0])
        md.write("| %d | %s | `%s` | %s | `%s` | %.2f |\n" % (
            rep + 1, fmt(s["write"]), s["candidate"], fmt(f["write"]), f["candidate"],
            ratios[-1]))
    md.write("\nslow/fast of the best candidates: median (min..max, repetitions) %s.\n\n"
             % spread(ratios))
    md.write("Each API's best candidate (its higher write median of the two I/O modes):\n\n"
             "| API | slow split, per rep | fast split, per rep | slow/fast median "
             "(min..max) |\n|---|---|---|---|\n")
    for api in sorted(per_api["slow"]):
        s, f = per_api["slow"][api], per_api["fast"].get(api, [])
        rs = [x["write"][0] / y["write"][0] for x, y in zip(s, f) if x and y]
        md.write("| %s | %s | %s | %s |\n" % (
            api, "; ".join(fmt(x["write"]) for x in s if x),
            "; ".join(fmt(y["write"]) for y in f if y), spread(rs) if rs else "-"))
    md.write("\n")


def part_components(a, h5perf, out, md):
    path = os.path.join(out, "components.yaml")
    with open(path, "w") as f:
        f.write(SPLIT.format(grid="1, 1, 2", read="true", apis="mpiio, phdf5, pnetcdf"))
    md.write("## components: per-API picks on the fastest-dimension split\n\n")
    md.write("`components.yaml` (grid 1x1x2, written and read back), one launch per MPI-IO "
             "component, alternated, budget %s s each, %d repetitions. MiB/s (open and close "
             "included) median [95%% interval]; `*` marks the mode whose median is higher, "
             "`apart` when the two intervals do not overlap.\n\n" % (a.budget, a.reps))
    for rep in range(a.reps):
        for comp in (COMPONENTS if rep % 2 == 0 else COMPONENTS[::-1]):
            text, err, wall, _ = advise(h5perf, 2, path, a.budget, a.target,
                                        {"OMPI_MCA_io": comp})
            save(out, "components-%s-%d" % (comp, rep + 1), text, err)
            rows, rec, head = table(text)
            md.write("### %s, repetition %d\n\n%s\n\n%s\n\n" % (comp, rep + 1, head, rec))
            md.write("| API | phase | independent | collective | pick |\n|---|---|---|---|---|\n")
            by = {}
            for r in rows:
                mode = "collective" if " -C" in r["candidate"] else "independent"
                by[(api_of(r["candidate"]), mode)] = r
            for api in ("mpiio", "phdf5", "pnetcdf"):
                for phase in ("write", "read"):
                    i, c = by.get((api, "independent")), by.get((api, "collective"))
                    if not i or not c:
                        continue
                    vi, vc = i[phase], c[phase]
                    pick = "collective" if vc[0] > vi[0] else "independent"
                    apart = vi[1] and vc[1] and (vi[1][0] > vc[1][1] or vc[1][0] > vi[1][1])
                    md.write("| %s | %s | %s%s | %s%s | %s%s |\n" % (
                        api, phase, fmt(vi), " *" if pick == "independent" else "", fmt(vc),
                        " *" if pick == "collective" else "", pick,
                        ", apart" if apart else ""))
            md.write("\n")


DIRECT = ("--pattern block --global 64x64x64 --grid 1x1x2 --element-size 8 --vars 16 "
          "--layout shared -i 5")
MEASURES = ("write", "read", "write_open_close", "read_open_close")


def direct_run(h5perf, args, target, comp):
    """One h5perf launch: {measure: [MiB/s of each iteration]}."""
    res = os.path.join(target, "r.json")
    env = dict(os.environ, HDF5_PARAPREFIX=target, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_io=comp)
    argv = [mpiexec(), "--oversubscribe", "-n", "2", h5perf] + args.split() + [
        "--results", res]
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        sys.exit("bench/advisor_proofs.py: %s exited %d:\n%s" % (args, p.returncode, p.stderr))
    with open(res) as f:
        run = json.load(f)["runs"][0]
    os.unlink(res)
    nbytes = 64 * 64 * 64 * 8 * 16
    return {m["measure"]: [nbytes / 1048576.0 / x["seconds"]["slowest"] for x in m["samples"]]
            for m in run["measures"] if m["measure"] in MEASURES}


def part_direct(a, h5perf, out, md):
    modes = [(api, mode) for api in ("mpiio", "phdf5", "pnetcdf")
             for mode in ("independent", "collective")]
    got = {}
    for rep in range(a.reps):
        for comp in (COMPONENTS if rep % 2 == 0 else COMPONENTS[::-1]):
            for k in range(len(modes)):
                api, mode = modes[(k + rep) % len(modes)]
                args = "%s -A %s%s" % (DIRECT, api, " -C" if mode == "collective" else "")
                for m, v in direct_run(h5perf, args, a.target, comp).items():
                    got.setdefault((comp, api, mode, m), []).extend(v)
    md.write("## direct: the same runs by h5perf itself\n\n`h5perf %s -A API [-C]`, "
             "2 processes, under `OMPI_MCA_io=ompio` and `=romio321`, alternated (component, "
             "then API and mode rotating), %d launches of 5 iterations each. MiB/s of the "
             "slowest process: median (min..max) of the %d iterations.\n\n"
             % (DIRECT, a.reps, 5 * a.reps))
    md.write("| component | API | mode | Write | Read | Write Open-Close | Read Open-Close |\n"
             "|---|---|---|---|---|---|---|\n")
    for comp in COMPONENTS:
        for api, mode in modes:
            cells = []
            for m in MEASURES:
                v = got[(comp, api, mode, m)]
                cells.append("%.0f (%.0f..%.0f)" % (statistics.median(v), min(v), max(v)))
            md.write("| %s | %s | %s | %s |\n" % (comp, api, mode, " | ".join(cells)))
    md.write("\n")


def part_examples(a, h5perf, out, md):
    md.write("## examples: the example workloads at this machine's size\n\n")
    md.write("`/usr/bin/time -v mpiexec ... h5perf --advise FILE --budget %s`; peak memory: "
             "GNU time's maximum resident set size, that of the largest process (mpiexec "
             "or one rank).\n\n| workload | processes | wall s | peak MiB | answer |\n"
             "|---|---|---|---|---|\n" % a.budget)
    for name in ("block512", "vpic", "e3sm"):
        # Beside the map E3SM-IO's datasets hold (docs/map.md), not in git.
        path = os.path.join(a.target, name + ".yaml")
        shutil.copy(os.path.join(HERE, "advisor_proofs", name + ".yaml"), path)
        if name == "e3sm":
            os.symlink(a.map, os.path.join(a.target, os.path.basename(a.map)))
        np = {"block512": 8, "vpic": 8, "e3sm": 16}[name]
        text, err, wall, peak = advise(h5perf, np, path, a.budget, a.target, {}, timed=True)
        save(out, "examples-" + name, text, err)
        rows, rec, head = table(text)
        md.write("| %s | %d | %.1f | %.0f | %s; %s |\n" % (name, np, wall, (peak or 0) / 1024,
                                                         head, rec))
    md.write("\n")


# Three candidates that make the same I/O: each process's 512 KiB in one
# call, whether the transfer size is its whole part, 1 MiB or 2 MiB.
EQUAL = """name: three names for the same run
arrays:
  - name: field
    global: [64, 64, 32]
    type: f64
    decomposition: {grid: [2, 1, 1]}
    read_back: true
baseline: {api: posix, layout: shared}
search:
  apis: [posix]
  layouts: [shared]
  align_data: [packed]
  transfer_sizes: [whole, 1M, 2M]
"""


def part_equal(a, h5perf, out, md):
    md.write("## equal: candidates that are the same run\n\n")
    md.write("A 64x64x32 array of doubles over 2 processes, POSIX, a shared file, with "
             "transfer sizes whole, 1 MiB and 2 MiB: each process writes and reads its "
             "512 KiB in one call in all three, so nothing but noise tells them apart; "
             "`--budget %s`, %d launches. The advisor must keep the baseline.\n\n"
             "| launch | answer | recommendation |\n|---|---|---|\n" % (a.budget, a.reps))
    path = os.path.join(a.target, "equal.yaml")
    with open(path, "w") as f:
        f.write(EQUAL)
    for k in range(a.reps):
        text, err, _, _ = advise(h5perf, 2, path, a.budget, a.target, {})
        save(out, "equal-%d" % (k + 1), text, err)
        rows, rec, head = table(text)
        md.write("| %d | %s | %s |\n" % (k + 1, head, rec))
    md.write("\n")


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/advisor_proofs.py")
    ap.add_argument("parts", nargs="+", choices=("split", "components", "direct", "examples",
                                                  "equal"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=60)
    ap.add_argument("--target", default="/dev/shm")
    ap.add_argument("--map", default=os.path.expanduser(
        "~/.cache/h5perf-peers/e3sm-io/datasets/map_f_case_16p.nc"), help="E3SM-IO's map")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "advisor-proofs"))
    a = ap.parse_args(argv)
    bins = fidelity.build(os.path.join(ROOT, "build-release"))
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(dir=a.target, prefix="h5perf-advisor-")
    a.target = work
    commit = fidelity.command_output(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    for part in a.parts:
        with open(os.path.join(a.out, part + ".md"), "w") as md:
            load = os.getloadavg()[0]
            md.write("# bench/advisor_proofs.py %s\n\n`bench/advisor_proofs.py %s --reps %d "
                     "--budget %s`, %s UTC, commit %s, %s; data in %s (%s).\n\n" % (
                         part, part, a.reps, a.budget,
                         datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"), commit,
                         fidelity.machine(), os.path.dirname(work), fidelity.fs_type(work)))
            {"split": part_split, "components": part_components, "direct": part_direct,
             "examples": part_examples, "equal": part_equal}[part](a, bins["h5perf"], a.out, md)
            md.write("Load average (1 min) at the start and end: %.1f, %.1f on %d cores.\n"
                     % (load, os.getloadavg()[0], os.cpu_count()))
        print("bench/advisor_proofs.py: %s" % os.path.join(a.out, part + ".md"))
    shutil.rmtree(work)


if __name__ == "__main__":
    main(sys.argv[1:])
