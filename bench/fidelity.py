"""The fidelity harness (docs/performance.md), run by bench/run: holds h5perf to the
physical limit, the bare loops of bench/limit.c that issue the same calls.

Builds h5perf and the limit program (Release, -O2) if needed; then, on each
target directory (tmpfs /dev/shm and the default disk /tmp), for each
configuration and API mode of bench/configs.py, alternates h5perf and the
limit program (h5perf, limit, h5perf, limit, ...; --reps each) and writes
medians, bests, spreads, ratios, overheads per call and peak memory to
bench/results/fidelity.json and fidelity.md. Asserts nothing.
"""
import argparse
import datetime
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import configs  # noqa: E402
import fidelity_report as report  # noqa: E402
import fidelity_run as contender  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="bench/run", description=__doc__.split("\n\n")[1])
    ap.add_argument("--reps", type=int, default=None,
                    help="runs of each contender per case (default 7; 2 with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help="test sizes and 2 runs, results in BUILD/fidelity-quick: checks the "
                         "harness end to end, measures nothing")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-release"),
                    help="Release build directory, configured and built if needed "
                         "[%(default)s]")
    ap.add_argument("--targets", default="/dev/shm,/tmp",
                    help="comma-separated directories to run in [%(default)s]")
    ap.add_argument("--configs", default=",".join(c.name for c in configs.CONFIGS),
                    help="comma-separated configurations [all: %(default)s]")
    ap.add_argument("--modes", help="comma-separated API modes [all of %s; the pnetcdf "
                    "ones where the build has PnetCDF]" % ",".join(m.name for m in configs.MODES))
    ap.add_argument("--out", help="results directory [bench/results, or BUILD/fidelity-quick]")
    a = ap.parse_args(argv)
    if a.reps is None:
        a.reps = 2 if a.quick else 7
    if a.reps < 1:
        ap.error("--reps must be at least 1")
    known_c = {c.name: c for c in configs.CONFIGS}
    known_m = {m.name: m for m in configs.MODES}
    try:
        a.configs = [known_c[n] for n in a.configs.split(",")]
        a.modes = [known_m[n] for n in a.modes.split(",")] if a.modes else None
    except KeyError as e:
        ap.error("unknown configuration or mode %s" % e)
    a.targets = a.targets.split(",")
    a.out = a.out or (os.path.join(a.build, "fidelity-quick") if a.quick
                      else os.path.join(HERE, "results"))
    return a


def build(build_dir):
    """Configures (Release, -O2) if needed and builds the three targets."""
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if not os.path.exists(cache):
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG", "-DBUILD_TESTING=OFF"],
                       check=True, stdout=subprocess.DEVNULL)
    with open(cache) as f:
        text = f.read()
    if not re.search(r"^CMAKE_BUILD_TYPE:\w+=Release$", text, re.M):
        sys.exit("bench/run: '%s' is not a Release build; give another --build" % build_dir)
    subprocess.run(["cmake", "--build", build_dir, "-j2", "--target", "h5perf", "limit", "hwm"],
                   check=True, stdout=subprocess.DEVNULL)
    flags = re.search(r"^CMAKE_C_FLAGS_RELEASE:\w+=(.*)$", text, re.M)
    return {"h5perf": os.path.join(build_dir, "h5perf"),
            "limit": os.path.join(build_dir, "bench", "limit"),
            "hwm": os.path.join(build_dir, "bench", "libhwm.so"),
            "flags": flags.group(1) if flags else "?"}


def command_output(argv, default="unknown"):
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT,
                           timeout=60)
        return p.stdout.decode(errors="replace").strip() or default
    except OSError:
        return default


def machine():
    cpu, mem = "unknown CPU", 0
    with open("/proc/cpuinfo") as f:
        m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
        cpu = m.group(1) if m else cpu
    with open("/proc/meminfo") as f:
        m = re.search(r"^MemTotal:\s*(\d+) kB", f.read(), re.M)
        mem = int(m.group(1)) // 1024 if m else 0
    u = platform.uname()
    return {"uname": "%s %s %s" % (u.system, u.release, u.machine), "nproc": os.cpu_count(),
            "cpu": cpu, "memory_mib": mem}


def fs_type(path):
    """The type the kernel names in mountinfo for the mount holding path, as
    h5perf's JSON context does ("ext4", where `stat -f` says "ext2/ext3")."""
    dev = os.stat(path).st_dev
    found = None
    try:
        with open("/proc/self/mountinfo") as f:
            for line in f:
                fields, sep, rest = line.partition(" - ")
                major_minor = fields.split()[2:3]
                if sep and major_minor == ["%d:%d" % (os.major(dev), os.minor(dev))]:
                    found = rest.split()[0]
    except OSError:
        pass
    return found or command_output(["stat", "-f", "-c", "%T", path])


def hdf5_version(bins, work):
    """From h5perf's header line "HDF5 Library: Version x.y.z"."""
    out, _ = contender.launch(1, bins["h5perf"], ["-A", "posix", "-e", "4K", "-w"], work,
                              bins["hwm"], 120)
    m = re.search(r"HDF5 Library: Version (\S+)", out)
    return m.group(1) if m else "unknown"


def run_case(a, bins, work, target, config, mode, use_results):
    size = "test" if a.quick else "bench"
    h5_args = configs.h5perf_args(config, mode, size)
    lim_args = configs.limit_args(config, mode, size)
    nbytes = configs.bytes_per_phase(config, size)
    h5, lim = [], []
    for rep in range(a.reps):
        h5.append(contender.run_h5perf(configs.NP, bins["h5perf"], h5_args, work, bins["hwm"],
                                       nbytes, use_results))
        lim.append(contender.run_limit(configs.NP, bins["limit"], lim_args, work, bins["hwm"]))
        if os.listdir(work):
            raise contender.RunError("files left in %s: %s" % (work, os.listdir(work)))
        print("%s %s %s %d/%d: write %.4f s / %.4f s" % (
            target, config.name, mode.name, rep + 1, a.reps, h5[-1].seconds["write"],
            lim[-1].seconds["write"]), file=sys.stderr)
    meta = {"target": target, "config": config.name, "config_what": config.what,
            "mode": mode.name, "mode_what": mode.what, "h5perf_args": h5_args,
            "limit_args": lim_args}
    return report.summarize(meta, h5, lim)


def run_target(a, bins, target, use_results, doc):
    work = tempfile.mkdtemp(prefix="h5perf-fidelity-", dir=target)
    try:
        if doc["hdf5"] == "unknown":
            doc["hdf5"] = hdf5_version(bins, work)
        for config in a.configs:
            for mode in a.modes:
                if configs.applies(mode, config):
                    doc["cases"].append(run_case(a, bins, work, target, config, mode,
                                                 use_results))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    a = parse_args(argv)
    bins = build(a.build)
    use_results = contender.supports_results(bins["h5perf"])
    apis = contender.built_apis(bins["h5perf"])
    if a.modes is None:
        a.modes = [m for m in configs.MODES if "pnetcdf" in apis or "pnetcdf" not in m.name]
    missing = [m.name for m in a.modes if "pnetcdf" in m.name and "pnetcdf" not in apis]
    if missing:
        sys.exit("bench/run: --modes %s: this build of h5perf (%s) has no PnetCDF"
                 % (",".join(missing), a.build))
    doc = {"schema": "h5perf-fidelity", "schema_version": 1,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "quick": a.quick, "command": " ".join(["bench/run"] + [shlex.quote(x) for x in argv]),
           "repetitions": a.reps, "processes": configs.NP, "machine": machine(),
           "commit": command_output(["git", "rev-parse", "HEAD"]),
           "dirty": command_output(["git", "status", "--porcelain", "--untracked-files=no"],
                                   "") != "",
           "mpi": contender.mpi_version(), "hdf5": "unknown",
           "build": "CMake Release, C flags '%s', %s" % (bins["flags"], a.build),
           "targets": [{"dir": t, "fs": fs_type(t)} for t in a.targets], "cases": []}
    try:
        for t in a.targets:
            run_target(a, bins, t, use_results, doc)
    except contender.RunError as e:
        sys.exit("bench/run: %s" % e)
    sources = {c["h5perf_times_from"] for c in doc["cases"]}
    doc["h5perf_times_from"] = sources.pop() if len(sources) == 1 else "mixed"
    os.makedirs(a.out, exist_ok=True)
    report.write_json(os.path.join(a.out, "fidelity.json"), doc)
    report.write_markdown(os.path.join(a.out, "fidelity.md"), doc)
    print("bench/run: wrote %s and fidelity.md" % os.path.join(a.out, "fidelity.json"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
