"""Shared by the companion tests: paths, running a tool, and fixture variants.

Standard library only (the h5perf-compare tests run where matplotlib and
jsonschema may be missing). The variants are made here, from the committed
fixtures, so that test_fixtures.py can check them against the schema too.
"""
import copy
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
DATA = os.path.join(HERE, "data")
SCHEMA = os.path.join(ROOT, "docs", "results.schema.json")
# The fixtures these tests were written against (make_fixtures.py); other
# files in data/ are only checked against the schema and for consistency.
SWEEP = os.path.join(DATA, "sweep.json")
FAILURE = os.path.join(DATA, "failure.json")
BLOCK = os.path.join(DATA, "block.json")
PARTICLES = os.path.join(DATA, "particles.json")
PARTICLES_PLACED = os.path.join(DATA, "particles-placed.json")
HEADLINE = os.path.join(DATA, "headline.json")
MIB = 1 << 20
DATA_MEASURES = ("write", "write_open_close", "write_raw", "read", "read_open_close", "read_raw")


class Result:
    def __init__(self, p):
        self.rc, self.out, self.err = p.returncode, p.stdout, p.stderr
        self.err_lines = p.stderr.splitlines()

    def __repr__(self):
        return "rc=%d\n--- stdout\n%s--- stderr\n%s" % (self.rc, self.out[-3000:], self.err)


def run_tool(name, args, cwd=None, python=None, env=None):
    """Runs tools/<name> with python (default: this interpreter, the one
    CMake chose), or by its #! line when python is "shebang"."""
    cmd = [] if python == "shebang" else [python or sys.executable]
    cmd += [os.path.join(TOOLS, name)] + list(args)
    p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
    return Result(p)


def venv_without_matplotlib(directory):
    """A venv of this interpreter without the system's packages, like a
    pyenv or venv python3 first on PATH: returns its bin directory."""
    venv = os.path.join(directory, "venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True,
                   stdin=subprocess.DEVNULL, timeout=100)
    return os.path.join(venv, "bin")


def bin_with_matplotlib(directory):
    """A directory holding a python3 that runs this interpreter (which has
    matplotlib): a script, so that a venv interpreter keeps its venv."""
    bindir = os.path.join(directory, "bin-with-matplotlib")
    os.makedirs(bindir)
    shell_script(os.path.join(bindir, "python3"), 'exec "%s" "$@"\n' % sys.executable)
    return bindir


def shell_script(path, body):
    """Writes an executable sh script; returns its path."""
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)
    return path


def load(path):
    with open(path) as f:
        return json.load(f)


def save(doc, directory, name):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def fixture_paths():
    return sorted(os.path.join(DATA, f) for f in os.listdir(DATA) if f.endswith(".json"))


# --- an independent oracle ------------------------------------------------------
# Written from the schema's definitions, not from tools/h5perf_results.py.

def expected_median(run, measure):
    """Median MiB/s of one measure, or None when it failed or moves no data
    (open and close times): bytes over the median of the slowest-process
    times of the successful iterations."""
    if measure["status"] != "ok" or measure["measure"] not in DATA_MEASURES:
        return None
    times = slowest_times(measure)
    return run["bytes"] / MIB / statistics.median(times) if times else None


def slowest_times(measure):
    return [s["seconds"]["slowest"] for s in measure["samples"] if s["status"] == "ok"]


def expected_verdict(a_run, a_measure, b_run, b_measure, threshold, min_time):
    """What docs/companion.md says h5perf-compare concludes about one
    configuration (threshold a fraction, min_time the text of --min-time),
    from the times: B's best iteration is its shortest, A's worst its longest."""
    if a_measure["status"] != "ok":
        return "skipped: failed in A (%s)" % a_measure["status"]
    if b_measure["status"] != "ok":
        return "REGRESSION: failed in B (%s)" % b_measure["status"]
    ta, tb = slowest_times(a_measure), slowest_times(b_measure)
    if max(statistics.median(ta), statistics.median(tb)) < float(min_time):
        return "too short to judge (< %s s)" % min_time
    # Throughputs in bytes/s (the MiB scale cancels out): B's best below A's
    # worst by more than the threshold, or the mirror image.
    best_b, worst_a = b_run["bytes"] / min(tb), a_run["bytes"] / max(ta)
    best_a, worst_b = a_run["bytes"] / min(ta), b_run["bytes"] / max(tb)
    if best_b < worst_a * (1 - threshold):
        return "REGRESSION"
    if best_a < worst_b * (1 - threshold):
        return "faster"
    return "same"


def find_run(doc, processes, xfer, api, layout=None, placement=(0, 0)):
    """The guide's run of (processes, xfer, api), or the block or particles
    pattern's of that layout and placement (align_data, shift; 0, 0 where
    a run has none)."""
    return next(r for r in doc["runs"] if (r["processes"], r["transfer_size"], r["api"],
                                           r.get("layout"), placement_of(r)) ==
                (processes, xfer, api, layout, placement))


def placement_of(run):
    """(align_data, shift) of a run, (0, 0) where it has none (packed)."""
    return (run.get("align_data", 0), run.get("shift", 0))


def key_of(run, measure):
    """A measure's key as docs/companion.md defines it: (processes, transfer
    size, API, measure), and the block or particles pattern's layout last,
    then a placed run's align_data and shift."""
    key = (run["processes"], run["transfer_size"], run["api"], measure)
    if "layout" not in run:
        return key
    placed = placement_of(run) if placement_of(run) != (0, 0) else ()
    return key + (run["layout"],) + placed


def run_of(doc, key):
    """The run of a key (key_of())."""
    return find_run(doc, *key[:3], layout=key[4] if len(key) > 4 else None,
                    placement=tuple(key[5:7]) if len(key) > 5 else (0, 0))


def find_measure(run, name):
    return next(m for m in run["measures"] if m["measure"] == name)


# --- variants -------------------------------------------------------------------

def resummarize(run, m):
    """Recomputes a measure's summary from its samples as h5perf does, so
    that a variant stays a consistent document."""
    times = sorted(s["seconds"]["slowest"] for s in m["samples"] if s["status"] == "ok")
    if m["status"] != "ok" or not times:
        m["summary"] = None
        return
    sec = {"min": times[0], "mean": sum(times) / len(times),
           "median": statistics.median(times), "max": times[-1]}
    mbs = None
    if m["measure"] in DATA_MEASURES:
        def rate(t):
            return run["bytes"] / MIB / t
        mbs = {"max": rate(sec["min"]), "avg": rate(sec["mean"]), "min": rate(sec["max"]),
               "median": rate(sec["median"])}
    m["summary"] = {"iterations": len(times), "seconds": sec, "mib_per_s": mbs}


def slowed(doc, factor, only=None, runs=None):
    """A copy with every time multiplied by factor (factor 2 = half the
    throughput); only, if given, is a key (key_of()); runs, if given, a
    predicate choosing the runs."""
    doc = copy.deepcopy(doc)
    for run in doc["runs"]:
        if runs is not None and not runs(run):
            continue
        for m in run["measures"]:
            if only is not None and key_of(run, m["measure"]) != only:
                continue
            for s in m["samples"]:
                if s["seconds"] is not None:
                    s["seconds"] = {k: v * factor for k, v in s["seconds"].items()}
            resummarize(run, m)
    return doc


def with_times(doc, key, times):
    """A copy where one measure had exactly these iterations, all
    successful, that took these times (as many as given)."""
    doc = copy.deepcopy(doc)
    run = run_of(doc, key)
    m = find_measure(run, key[3])
    nbytes = m["samples"][0]["bytes"]
    m["samples"] = [{"iteration": i, "status": "ok", "bytes": nbytes,
                     "seconds": {"slowest": t, "fastest": t * 0.9, "mean": t * 0.95}}
                    for i, t in enumerate(times, 1)]
    resummarize(run, m)
    return doc


def failed_in(doc, key, status="io_error"):
    """A copy where one measure failed in every iteration, as h5perf writes it."""
    doc = copy.deepcopy(doc)
    run = run_of(doc, key)
    m = find_measure(run, key[3])
    m["status"] = status
    for s in m["samples"]:
        s["status"], s["seconds"] = status, None
    m["summary"] = None
    run["status"] = status
    run["errors"] = ["h5perf: rank 0: %s %s '/scratch/h5perf/#pio_tmp_0': Input/output error" % (
        key[2], key[3])]
    doc["status"], doc["exit_status"] = status, 1
    return doc


def only_processes(doc, processes):
    doc = copy.deepcopy(doc)
    doc["runs"] = [r for r in doc["runs"] if r["processes"] == processes]
    return doc


def unplaced_new_build(doc):
    """A copy of a block or particles document as a build with --align-data
    and --shift writes it when neither is given: empty lists in the
    configuration, and every run packed (align_data and shift 0)."""
    doc = copy.deepcopy(doc)
    doc["config"][doc["config"]["pattern"]].update(align_data=[], shift=[])
    for run in doc["runs"]:
        run.update(align_data=0, shift=0)
    return doc


def placed_block():
    """block.json as if run with --shift 0,512 (no --align-data): POSIX and
    MPI-IO on the shared and chunked layouts also ran shifted by 512 bytes,
    1.5 times slower, each right after its packed run."""
    doc = unplaced_new_build(load(BLOCK))
    doc["config"]["block"]["shift"] = [0, 512]
    runs = []
    for run in doc["runs"]:
        runs.append(run)
        if run["api"] in ("posix", "mpiio") and run["layout"] != "fpp":
            shifted = slowed({"runs": [run]}, 1.5)["runs"][0]
            shifted["shift"] = 512
            runs.append(shifted)
    doc["runs"] = runs
    return doc


def uniform_particles(doc):
    """A copy of a particles document as if run with --distribution uniform
    (the same mean per process and the same times): each process holds the
    mean, so the counts, transfer sizes and bytes change, and with them the
    throughputs."""
    doc = copy.deepcopy(doc)
    spec = doc["config"]["particles"]
    n, nvars = spec["per_process"], len(spec["vars"])
    spec["distribution"] = "uniform"
    for run in doc["runs"]:
        total = n * run["processes"]
        run["particles"] = {"total": total, "min": n, "max": n}
        run["transfer_size"], run["bytes"] = 4 * n, 4 * nvars * total
        for m in run["measures"]:
            for s in m["samples"]:
                s["bytes"] = run["bytes"] if s["bytes"] else 0
            resummarize(run, m)
    for i, arg in enumerate(doc["context"]["command_line"]):
        if arg == "--distribution":
            doc["context"]["command_line"][i + 1] = "uniform"
    return doc
