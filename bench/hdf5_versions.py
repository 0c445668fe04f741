"""HDF5 across versions (docs/performance.md, "HDF5 across versions"), run by
bench/hdf5-versions.

The fidelity harness's HDF5 cases (bench/configs.py: the guide's 1D 1 MiB
and 8 MiB transfers, the block pattern's shared, chunked and fpp layouts;
independent and collective) for h5perf built against each HDF5 (Debian's
1.10.8, and 1.14.5 and 2.0.0 built by scripts/build-hdf5), alternated in one
sitting: each repetition runs, per case, every version's h5perf and bare
MPI-IO (bench/limit) once, in an order that rotates with the repetition;
each version's HDF5/MPI-IO ratio is of the medians over the repetitions,
with each contender's spread. Then, on the versions that have them, HDF5's
variants (docs/hdf5.md) as h5perf's own tables give them, the versions
alternated: the subfiling driver against the MPI-IO driver and a file per
process (block pattern), multi-dataset I/O against one call per variable
(particles pattern). Writes bench/results/hdf5-versions/versions.json and
versions.md. Asserts nothing.
"""
import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import configs  # noqa: E402
import fidelity  # noqa: E402
import fidelity_report as report  # noqa: E402
import fidelity_run as contender  # noqa: E402

VERSIONS = ("1.10.8", "1.14.5", "2.0.0")  # 1.10.8: Debian's, found without HDF5_ROOT
CASES = ("contig_1m", "contig_8m", "block_shared", "block_chunked", "block_fpp")
MODES = ("phdf5", "phdf5_coll")
# HDF5's variants (h5perf's own runs; one JSON run per point): what each
# compares, with its h5perf options at bench and at test size.
VARIANTS = [
    ("block_subfiling", "3D block 256^3, grid 1x2x1: the subfiling driver",
     "--pattern block --global 256x256x256 --grid 1x2x1 --layout shared,fpp -A mpiio,phdf5 "
     "--hdf5.driver mpio,subfiling",
     "--pattern block --global 16x16x16 --grid 1x2x1 --layout shared,fpp -A mpiio,phdf5 "
     "--hdf5.driver mpio,subfiling"),
    ("particles_multi", "particles, 8 variables, 2M per process: multi-dataset I/O",
     "--pattern particles --particles 2097152 --layout shared,fpp -A mpiio,phdf5 "
     "--hdf5.multi-dataset",
     "--pattern particles --particles 4096 --layout shared,fpp -A mpiio,phdf5 "
     "--hdf5.multi-dataset"),
    ("particles_multi_coll", "particles, 8 variables, 2M per process, collective: "
     "multi-dataset I/O",
     "--pattern particles --particles 2097152 --layout shared,fpp -A mpiio,phdf5 "
     "--hdf5.multi-dataset -C",
     "--pattern particles --particles 4096 --layout shared,fpp -A mpiio,phdf5 "
     "--hdf5.multi-dataset -C"),
]
MEASURES = ("write", "read", "write_open_close", "read_open_close")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="bench/hdf5-versions", description=__doc__.split("\n\n")[1])
    ap.add_argument("--reps", type=int, default=None,
                    help="runs of each contender per case (default 7; 2 with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help="test sizes, 2 runs, results in build-release/hdf5-versions-quick")
    ap.add_argument("--target", default="/dev/shm", help="directory to run in [%(default)s]")
    ap.add_argument("--out", help="results directory [bench/results/hdf5-versions]")
    a = ap.parse_args(argv)
    a.reps = a.reps or (2 if a.quick else 7)
    if not a.out:
        a.out = (os.path.join(ROOT, "build-release", "hdf5-versions-quick") if a.quick
                 else os.path.join(HERE, "results", "hdf5-versions"))
    return a


def build(version):
    """A Release build of h5perf against one HDF5 (the fidelity harness's,
    bench/fidelity.py; the source-built ones with HDF5_ROOT)."""
    if version == VERSIONS[0]:
        return fidelity.build(os.path.join(ROOT, "build-release"))
    prefix = subprocess.run([os.path.join(ROOT, "scripts", "build-hdf5"), version], check=True,
                            stdout=subprocess.PIPE).stdout.decode().strip()
    d = os.path.join(ROOT, "build-release-hdf5-" + version)
    if not os.path.exists(os.path.join(d, "CMakeCache.txt")):
        subprocess.run(["cmake", "-S", ROOT, "-B", d, "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG", "-DBUILD_TESTING=OFF",
                        "-DHDF5_ROOT=" + prefix], check=True, stdout=subprocess.DEVNULL)
    return fidelity.build(d)


def running_version(bins, work):
    return fidelity.hdf5_version(bins, work)


def rotated(items, rep):
    k = rep % len(items)
    return list(items[k:]) + list(items[:k])


def overhead_cases(a, builds, work):
    """Part 1: per case, every version's h5perf and bare MPI-IO, rotated."""
    size = "test" if a.quick else "bench"
    by_name = {c.name: c for c in configs.CONFIGS}
    modes = {m.name: m for m in configs.MODES}
    out = []
    for cname in CASES:
        for mname in MODES:
            config, mode = by_name[cname], modes[mname]
            h5_args = configs.h5perf_args(config, mode, size)
            lim_args = configs.limit_args(config, mode, size)
            nbytes = configs.bytes_per_phase(config, size)
            samples = {v: [] for v in builds}
            samples["limit"] = []
            for rep in range(a.reps):
                for who in rotated(list(builds) + ["limit"], rep):
                    if who == "limit":
                        bins = builds[VERSIONS[0]]
                        samples[who].append(contender.run_limit(
                            configs.NP, bins["limit"], lim_args, work, bins["hwm"]))
                    else:
                        bins = builds[who]
                        samples[who].append(contender.run_h5perf(
                            configs.NP, bins["h5perf"], h5_args, work, bins["hwm"], nbytes, True))
                    if os.listdir(work):
                        raise contender.RunError("files left in %s: %s" % (work, os.listdir(work)))
                print("%s %s %d/%d" % (cname, mname, rep + 1, a.reps), file=sys.stderr)
            for v in builds:
                meta = {"version": v, "config": cname, "config_what": config.what,
                        "mode": mname, "mode_what": mode.what, "h5perf_args": h5_args,
                        "limit_args": lim_args}
                out.append(report.summarize(meta, samples[v], samples["limit"]))
    return out


def run_key(run):
    return "%s %s%s" % (run["api"], run.get("layout", ""),
                        ", " + run["variant"] if run.get("variant") else "")


def variant_run(bins, args, work):
    """One h5perf run; {run key: {measure: seconds of the slowest process}}."""
    results = os.path.join(work, "h5perf-results.json")
    contender.launch(configs.NP, bins["h5perf"], shlex.split(args) + configs.one_run() +
                     ["-i", "1", "--results=" + results], work, bins["hwm"], 1800)
    with open(results) as f:
        doc = json.load(f)
    os.unlink(results)
    out = {}
    for run in doc["runs"]:
        out[run_key(run)] = {m["measure"]: m["samples"][0]["seconds"]["slowest"]
                             for m in run["measures"] if m["measure"] in MEASURES}
    return out, run_bytes(doc)


def run_bytes(doc):
    return {run_key(r): r["bytes"] for r in doc["runs"]}


def variant_cases(a, builds, work):
    """Part 2: HDF5's variants, the versions that have them alternated."""
    versions = [v for v in builds if v != VERSIONS[0]]
    out = []
    for name, what, bench, test in VARIANTS:
        args = test if a.quick else bench
        seconds = {v: {} for v in versions}
        nbytes = {}
        for rep in range(a.reps):
            for v in rotated(versions, rep):
                got, nbytes = variant_run(builds[v], args, work)
                for key, m in got.items():
                    for measure, s in m.items():
                        seconds[v].setdefault(key, {}).setdefault(measure, []).append(s)
            print("%s %d/%d" % (name, rep + 1, a.reps), file=sys.stderr)
        for v in versions:
            runs = {key: {m: report.stats(s) for m, s in per.items()}
                    for key, per in seconds[v].items()}
            out.append({"version": v, "case": name, "what": what, "h5perf_args": args,
                        "bytes": nbytes, "stats": runs})
    return out


def cell(case, m):
    r, st = case["ratio"][m]["median"], case["stats"]
    return "%.2f (%.0f%% / %.0f%%)" % (r, st["limit"][m]["spread_pct"],
                                       st["h5perf"][m]["spread_pct"])


def variant_ratio(case, num, den, m):
    s = case["stats"]
    if num not in s or den not in s:
        return "-"
    a, b = s[num][m], s[den][m]
    return "%.2f (%.0f%% / %.0f%%)" % (b["median"] / a["median"], a["spread_pct"],
                                       b["spread_pct"])


# The ratios of the variants' table: the run over its reference.
VARIANT_RATIOS = {
    "block_subfiling": [("HDF5 shared, subfiled / HDF5 fpp", "phdf5 shared, subfiled",
                         "phdf5 fpp"),
                        ("HDF5 shared / HDF5 fpp", "phdf5 shared", "phdf5 fpp"),
                        ("HDF5 shared, subfiled / HDF5 shared", "phdf5 shared, subfiled",
                         "phdf5 shared"),
                        ("HDF5 shared, subfiled / MPI-IO shared", "phdf5 shared, subfiled",
                         "mpiio shared")],
    "particles_multi": [("HDF5 shared, multi-dataset / HDF5 shared",
                         "phdf5 shared, multi-dataset", "phdf5 shared"),
                        ("HDF5 fpp, multi-dataset / HDF5 fpp", "phdf5 fpp, multi-dataset",
                         "phdf5 fpp"),
                        ("HDF5 shared / MPI-IO shared", "phdf5 shared", "mpiio shared")],
}
VARIANT_RATIOS["particles_multi_coll"] = VARIANT_RATIOS["particles_multi"]


def write_markdown(path, doc):
    lines = ["# HDF5 across versions: overhead over bare MPI-IO, and HDF5's variants", "",
             "Date: %s (UTC). Machine: %s, %d cores, %s, %d MiB of memory." % (
                 doc["date"], doc["machine"]["uname"], doc["machine"]["nproc"],
                 doc["machine"]["cpu"], doc["machine"]["memory_mib"]),
             "Commit: %s%s. %s. Target: %s (%s)." % (
                 doc["commit"], " (dirty)" if doc["dirty"] else "", doc["mpi"], doc["target"],
                 doc["target_fs"]),
             "Builds: %s." % "; ".join("HDF5 %s: %s" % (v, b) for v, b in doc["builds"].items()),
             "Command: `%s`. %d processes; %d runs of each contender per case, alternated "
             "(the order rotating with each repetition), one iteration per run." % (
                 doc["command"], doc["processes"], doc["repetitions"]), "",
             "## HDF5 over bare MPI-IO, per version", "",
             "Throughput ratio HDF5/MPI-IO of the median times (1.00: as fast as bare "
             "MPI-IO on the same bytes), write and read (h5perf's Write and Read, without "
             "open and close); in brackets the spread (worst - best) / median of bare MPI-IO "
             "and of h5perf.", "",
             "| configuration | mode | measure | %s |" % " | ".join(
                 "HDF5 %s" % v for v in doc["versions"]),
             "|---|---|---|" + "---|" * len(doc["versions"])]
    for cname in CASES:
        for mname in MODES:
            cases = {c["version"]: c for c in doc["overhead"]
                     if c["config"] == cname and c["mode"] == mname}
            if not cases:
                continue
            first = next(iter(cases.values()))
            for m in ("write", "read"):
                lines.append("| %s | %s | %s | %s |" % (
                    first["config_what"], first["mode_what"], m,
                    " | ".join(cell(cases[v], m) if v in cases else "-"
                               for v in doc["versions"])))
    lines += ["", "## HDF5's variants (docs/hdf5.md)", "",
              "Each row: the median time of the reference run over the run's (a throughput "
              "ratio), as h5perf's ratio tables give it, including open and close "
              "(write_open_close, read_open_close); in brackets the spreads of the reference "
              "and of the run. One h5perf run per repetition and version gives every row of "
              "a case.", ""]
    for name, what, _, _ in VARIANTS:
        cases = {c["version"]: c for c in doc["variants"] if c["case"] == name}
        if not cases:
            continue
        lines += ["### %s" % what, "", "`%s`" % next(iter(cases.values()))["h5perf_args"], "",
                  "| ratio | measure | %s |" % " | ".join("HDF5 %s" % v for v in cases),
                  "|---|---|" + "---|" * len(cases)]
        for label, num, den in VARIANT_RATIOS[name]:
            for m in ("write_open_close", "read_open_close"):
                lines.append("| %s | %s | %s |" % (label, m, " | ".join(
                    variant_ratio(cases[v], num, den, m) for v in cases)))
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv):
    a = parse_args(argv)
    builds = {v: build(v) for v in VERSIONS}
    work = tempfile.mkdtemp(prefix="h5perf-versions-", dir=a.target)
    try:
        running = {v: running_version(builds[v], work) for v in VERSIONS}
        wrong = [v for v in VERSIONS if running[v] != v]
        if wrong:
            sys.exit("bench/hdf5-versions: the build for HDF5 %s runs HDF5 %s"
                     % (wrong[0], running[wrong[0]]))
        doc = {"schema": "h5perf-hdf5-versions", "schema_version": 1,
               "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                   "%Y-%m-%dT%H:%M:%SZ"),
               "quick": a.quick,
               "command": " ".join(["bench/hdf5-versions"] + [shlex.quote(x) for x in argv]),
               "repetitions": a.reps, "processes": configs.NP, "machine": fidelity.machine(),
               "commit": fidelity.command_output(["git", "rev-parse", "HEAD"]),
               "dirty": fidelity.command_output(
                   ["git", "status", "--porcelain", "--untracked-files=no"], "") != "",
               "mpi": contender.mpi_version(), "target": a.target,
               "target_fs": fidelity.fs_type(a.target), "versions": list(VERSIONS),
               "builds": {v: os.path.dirname(builds[v]["h5perf"]) for v in VERSIONS}}
        doc["overhead"] = overhead_cases(a, builds, work)
        doc["variants"] = variant_cases(a, builds, work)
    except contender.RunError as e:
        sys.exit("bench/hdf5-versions: %s" % e)
    finally:
        subprocess.run(["rm", "-rf", work])
    os.makedirs(a.out, exist_ok=True)
    report.write_json(os.path.join(a.out, "versions.json"), doc)
    write_markdown(os.path.join(a.out, "versions.md"), doc)
    print("bench/hdf5-versions: wrote %s and versions.md" % os.path.join(a.out, "versions.json"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
