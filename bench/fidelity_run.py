"""Running one contender of the fidelity harness and reading its times.

run_h5perf() and run_limit() launch h5perf or the limit program under mpiexec
on a target directory, with bench/hwm.c preloaded for the peak memory of each
process, and return a Sample: the slowest process's seconds per measure, the
bytes per phase and the peak resident set size of each process. How h5perf's
times are read is one function, h5perf_seconds(): its --results JSON when the
binary writes it, else the text report. No statistics here.
"""
import collections
import functools
import json
import os
import re
import shlex
import subprocess
import tempfile

MEASURES = ("write", "write_open_close", "read", "read_open_close")
# The text report's block names (docs/original.md §7.3) of the measures.
TEXT_NAMES = {"Write": "write", "Write Open-Close": "write_open_close", "Read": "read",
              "Read Open-Close": "read_open_close"}

Sample = collections.namedtuple("Sample", "seconds bytes peak_kib source extra")


class RunError(Exception):
    pass


def mpiexec_command(np, argv):
    cmd = [os.environ.get("MPIEXEC", "mpiexec"), os.environ.get("MPIEXEC_NUMPROC_FLAG", "-n"),
           str(np)]
    cmd += shlex.split(os.environ.get("MPIEXEC_FLAGS", ""))
    if np > (os.cpu_count() or 1) and is_open_mpi():
        cmd.append("--oversubscribe")
    return cmd + argv


_open_mpi = None


def is_open_mpi():
    global _open_mpi
    if _open_mpi is None:
        version = mpi_version()
        _open_mpi = "Open MPI" in version or "OpenRTE" in version
    return _open_mpi


def mpi_version():
    p = subprocess.run([os.environ.get("MPIEXEC", "mpiexec"), "--version"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    lines = p.stdout.decode(errors="replace").splitlines()
    return lines[0].strip() if lines else "unknown"


def launch_env(directory):
    """The contenders' environment: data in `directory` itself (no $USER
    level), no HDF5_* leftovers, Open MPI allowed to run as root."""
    env = dict(os.environ)
    for k in ("USER", "LOGIN", "HDF5_NOCLEANUP", "HDF5_MPI_INFO"):
        env.pop(k, None)
    env["HDF5_PARAPREFIX"] = directory
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


def launch(np, exe, args, directory, hwm_lib, timeout):
    """Runs exe under mpiexec with the peak-memory preload. Returns (stdout,
    [peak KiB per rank])."""
    with tempfile.NamedTemporaryFile(prefix="h5perf-hwm-", delete=False) as f:
        hwm_file = f.name
    argv = ["env", "LD_PRELOAD=" + hwm_lib, "H5PERF_HWM_FILE=" + hwm_file, exe] + list(args)
    try:
        p = subprocess.run(mpiexec_command(np, argv), env=launch_env(directory),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        with open(hwm_file) as f:
            peaks = read_peaks(f.read(), np)
    except subprocess.TimeoutExpired as e:
        raise RunError("timed out after %ds: %s" % (timeout, " ".join(argv))) from e
    finally:
        os.unlink(hwm_file)
    if p.returncode != 0:
        raise RunError("%s %s: exit %d\n%s" % (os.path.basename(exe), " ".join(args),
                                                p.returncode, p.stderr.decode(errors="replace")))
    return p.stdout.decode(errors="replace"), peaks


def read_peaks(text, np):
    peaks = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 4 and f[0] == "hwm" and f[1].isdigit():
            peaks[int(f[1])] = int(f[3])
    return [peaks.get(r, -1) for r in range(np)]


@functools.lru_cache(maxsize=None)
def help_text(h5perf):
    """What h5perf --help prints (run once per binary)."""
    p = subprocess.run([h5perf, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=launch_env("."), timeout=60)
    return p.stdout.decode(errors="replace")


def supports_results(h5perf):
    """Does this h5perf have --results (builds before it do not)?"""
    return "--results" in help_text(h5perf)


def built_apis(h5perf):
    """The APIs of this h5perf build, from the last line of its --help
    ("APIs in this build: posix mpiio phdf5 pnetcdf"; older builds: the three)."""
    for line in help_text(h5perf).splitlines():
        if line.startswith("APIs in this build:"):
            return line.split(":", 1)[1].split()
    return ["posix", "mpiio", "phdf5"]


def run_h5perf(np, exe, args, directory, hwm_lib, bytes_, use_results, timeout=900):
    results = os.path.join(directory, "h5perf-results.json")
    extra = ["--results=" + results] if use_results else []
    out, peaks = launch(np, exe, list(args) + extra, directory, hwm_lib, timeout)
    try:
        seconds, source = h5perf_seconds(out, results, bytes_)
    finally:
        if os.path.exists(results):
            os.unlink(results)
    return Sample(seconds, bytes_, peaks, source, {})


def run_limit(np, exe, args, directory, hwm_lib, timeout=900):
    out, peaks = launch(np, exe, ["--dir=" + directory] + list(args), directory, hwm_lib,
                        timeout)
    r = json.loads(out.strip().splitlines()[-1])
    seconds = {m: r["seconds"][m][0] for m in MEASURES if m in r["seconds"]}
    extra = {"calls_per_process": r["calls_per_process"],
             "transfer_buffer": r["transfer_buffer"], "own_peak_kib": r["peak_rss_kib"]}
    return Sample(seconds, r["bytes"], peaks, "limit", extra)


# --- reading h5perf's times: the one place to change ---------------------------

def h5perf_seconds(stdout, results_path, bytes_):
    """{measure: seconds of the slowest process} of a one-iteration run, and
    where they came from ("json" or "text")."""
    if os.path.exists(results_path) and os.path.getsize(results_path) > 0:
        return seconds_from_json(results_path), "json"
    return seconds_from_text(stdout, bytes_), "text"


def seconds_from_json(path):
    with open(path) as f:
        doc = json.load(f)
    runs = doc["runs"]
    if len(runs) != 1:
        raise RunError("%s: %d runs, expected one configuration" % (path, len(runs)))
    out = {}
    for m in runs[0]["measures"]:
        if m["measure"] in MEASURES:
            out[m["measure"]] = m["samples"][0]["seconds"]["slowest"]
    return out


def seconds_from_text(stdout, bytes_):
    """From the text report: the Maximum Throughput of each block (MB/s of
    the one iteration's time, six significant digits; the times printed with
    -D t have only three decimals), turned back into seconds."""
    out, current = {}, None
    for line in stdout.splitlines():
        m = re.match(r"\s+(.+) \(\d+ iteration\(s\)\):$", line)
        if m:
            current = TEXT_NAMES.get(m.group(1))
            continue
        m = re.match(r"\s+Maximum Throughput:\s+([0-9.]+) MB/s", line)
        if m and current:
            mbps = float(m.group(1))
            if mbps <= 0:
                raise RunError("h5perf reported 0.00 MB/s for %s" % current)
            out[current] = bytes_ / 1048576.0 / mbps
            current = None
    if "write" not in out:
        raise RunError("no throughput found in h5perf's report:\n" + stdout[-2000:])
    return out
