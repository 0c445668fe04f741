"""MPI cases about the machine-readable results (--format, --results), the
overhead section (--overhead) and the progress lines (--progress): JSON valid
against docs/results.schema.json, CSV rows equal to the JSON samples, the
text report's figures equal to the JSON's, failures recorded.
"""
import csv
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile

import jsonschema

from common import case
from harness import TempDir, built_apis, expect, expect_eq, listing, run

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                      "results.schema.json")
MIB = 1048576.0


def validate(doc, r=None):
    with open(SCHEMA) as fh:
        schema = json.load(fh)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
    expect_eq([e.message for e in errors][:3], [], "schema errors", r)


def load(path):
    with open(path) as fh:
        return json.load(fh)


def mount_type(path, tables=("/proc/self/mountinfo", "/proc/1/mountinfo")):
    """The file-system type of the mount holding path, independently of
    h5perf: the last line whose device is the path's in the first mount
    table that lists it (a chroot's own table omits the mounts outside it;
    process 1's still lists them), or None."""
    dev = os.stat(path).st_dev
    want = "%d:%d" % (os.major(dev), os.minor(dev))
    for table in tables:
        found = None
        try:
            with open(table) as fh:
                for line in fh:
                    left, right = line.split(" - ", 1)
                    if left.split()[2] == want:
                        found = right.split()[0]
        except OSError:
            continue
        if found is not None:
            return found
    return None


# The names a statfs magic may stand for (`stat -f -c %t`, hexadecimal),
# for a machine whose mount tables cannot be read.
MAGIC_NAMES = {"ef53": {"ext2/3/4"}, "1021994": {"tmpfs"}, "58465342": {"xfs"},
               "9123683e": {"btrfs"}, "6969": {"nfs"}, "794c7630": {"overlay"}}


def expect_fs_type(got, path, r=None):
    """got is the kernel's name for the file system of path: a mount table's
    where one lists the mount, else the name of its statfs magic."""
    listed = mount_type(path)
    if listed is not None:
        expect_eq(got, listed, "file system type (mount table)", r)
        return
    magic = subprocess.run(["stat", "-f", "-c", "%t", path], stdout=subprocess.PIPE,
                           universal_newlines=True, check=True).stdout.strip()
    expect(got in MAGIC_NAMES.get(magic, {"unknown"}),
           "file system type %r for statfs magic %s" % (got, magic), r)


def text_maxima(lines):
    """Per result block of the text report, in order: (name, Maximum MB/s)."""
    out, name = [], None
    for line in lines:
        s = line.strip()
        m = re.match(r"(.*) \(\d+ iteration\(s\)\):$", s)
        if m:
            name = m.group(1)
        m = re.match(r"Maximum Throughput: +([0-9.]+) MB/s", s)
        if m:
            out.append((name, m.group(1)))
    return out


TEXT_NAMES = {"write": "Write", "write_open_close": "Write Open-Close",
              "write_raw": "Raw Data Write", "read": "Read", "read_open_close": "Read Open-Close",
              "read_raw": "Raw Data Read"}


@case
def results_json_matches_text_report():
    """--results FILE.json next to the text report: the document validates, has
    one run per (P, X, API) with every measure and iteration, its bytes are
    those moved, and its maxima are the text report's figures."""
    with TempDir() as d:
        out = os.path.join(d, "r.json")
        args = "-e 64K -B 16K -x 32K -X 64K -i 3 -D r --results %s" % out
        r = run(2, args, env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        doc = load(out)
        validate(doc, r)
        expect_eq((doc["status"], doc["exit_status"]), ("ok", 0), "status", r)
        keys = [(x["processes"], x["transfer_size"], x["api"]) for x in doc["runs"]]
        expect_eq(keys, [(p, x, a) for p in (2, 1) for x in (32768, 65536)
                         for a in ("posix", "mpiio", "phdf5")], "runs in run order", r)
        for run_ in doc["runs"]:
            expect_eq(run_["bytes"], 65536 * run_["processes"], "bytes of a run", r)
            names = [m["measure"] for m in run_["measures"]]
            expect_eq(names, ["write_raw", "write", "write_open_close", "read_raw", "read",
                              "read_open_close"], "measures (in the text report's order)", r)
            for m in run_["measures"]:
                expect_eq([s["iteration"] for s in m["samples"]], [1, 2, 3], "samples", r)
                slow = [s["seconds"]["slowest"] for s in m["samples"]]
                expect_eq(m["summary"]["seconds"]["min"], min(slow), "min time", r)
                expect_eq(m["summary"]["seconds"]["median"], sorted(slow)[1], "median", r)
        # The text report's Maximum Throughput, block by block, is the JSON's.
        want = [(TEXT_NAMES[m["measure"]], "%.2f" % m["summary"]["mib_per_s"]["max"])
                for run_ in doc["runs"] for m in run_["measures"]]
        expect_eq(text_maxima(r.lines), want, "text maxima = JSON maxima", r)
        ctx = doc["context"]
        expect_eq((ctx["processes"], ctx["hosts"], len(ctx["host_names"])), (2, 1, 1),
                  "processes and hosts", r)
        # The harness unsets USER and LOGIN: the data files go to d itself.
        expect_eq(ctx["directory"], os.path.realpath(d), "directory", r)
        expect_fs_type(ctx["file_system"]["type"], d, r)
        expect(ctx["start_time"] <= ctx["end_time"], "start before end", r)
        expect_eq(ctx["command_line"][1:], shlex.split(args), "command line", r)
        # Each backend names its library: HDF5's is the version that ran,
        # MPI-IO's the MPI library, POSIX's the C library and the kernel.
        vers = ctx["api_versions"]
        # Every API of the build, run or not (PnetCDF is optional).
        expect_eq(sorted(vers), sorted(built_apis()), "api_versions keys", r)
        expect_eq(sorted(set(built_apis()) - {"pnetcdf"}), ["mpiio", "phdf5", "posix"],
                  "the build's APIs", r)
        expect_eq(vers["phdf5"], "HDF5 " + ctx["hdf5_version"], "phdf5 version", r)
        expect_eq(vers["mpiio"], ctx["mpi_library"], "mpiio version", r)
        expect(vers["posix"].endswith(" " + os.uname().release), "posix version: " + vers["posix"], r)
        # The timers' clock: the time-stamp counter where the kernel trusts
        # it (docs/measuring.md, "The clock"), with its calibrated rate.
        clock = ctx["clock"]
        if tsc_trusted():
            expect_eq(clock["source"], "tsc", "clock source", r)
            expect(1e8 < clock["ticks_per_second"] < 1e11, "the counter's rate: %r" % clock, r)
        else:
            expect_eq(clock, {"source": "MPI_Wtime", "ticks_per_second": None}, "clock", r)
        cfg = doc["config"]
        expect_eq((cfg["bytes_per_process"], cfg["block_size"], cfg["min_xfer_size"],
                   cfg["max_xfer_size"], cfg["iterations"], cfg["debug"]["raw"]),
                  (65536, 16384, 32768, 65536, 3, True), "effective configuration", r)
        expect_eq(cfg["environment"]["HDF5_PARAPREFIX"], d, "environment", r)
        expect_eq(listing(d), ["r.json"], "no data file left", r)


def tsc_trusted():
    """The kernel's word on the time-stamp counter, read independently of
    h5perf: x86-64 with constant_tsc, nonstop_tsc and rdtscp among the
    CPU's flags, and tsc the current clock source."""
    try:
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as fh:
            source = fh.read().strip()
        with open("/proc/cpuinfo") as fh:
            flags = next((l.split(":", 1)[1].split() for l in fh if l.startswith("flags")), [])
    except OSError:
        return False
    return (os.uname().machine == "x86_64" and source == "tsc"
            and {"constant_tsc", "nonstop_tsc", "rdtscp"} <= set(flags))


@case
def file_system_type_without_mount_table():
    """Where /proc/self/mountinfo does not list the mount holding the data
    directory (a chroot: here an empty table through the faults shim), the
    file system type is still the kernel's name, from process 1's table;
    where no table can tell (both emptied), the name of the statfs magic.
    On the directory of the tests and on /dev/shm."""
    with TempDir() as empty:
        table = os.path.join(empty, "mountinfo")
        open(table, "w").close()
        for parent in (None, "/dev/shm"):
            if parent and not os.path.isdir(parent):
                continue
            d = tempfile.mkdtemp(prefix="h5perf-test-", dir=parent)
            try:
                env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
                       "H5PERF_FAULT_MOUNTINFO": table}
                r = run(2, "-e 8K -A posix -w --format json", env=env)
                expect_eq(r.rc, 0, "exit status", r)
                expect_fs_type(json.loads(r.out)["context"]["file_system"]["type"], d, r)
                env["H5PERF_FAULT_MOUNTINFO_INIT"] = table
                r = run(2, "-e 8K -A posix -w --format json", env=env)
                magic = subprocess.run(["stat", "-f", "-c", "%t", d], stdout=subprocess.PIPE,
                                       universal_newlines=True, check=True).stdout.strip()
                got = json.loads(r.out)["context"]["file_system"]["type"]
                expect(got in MAGIC_NAMES.get(magic, {"unknown"}),
                       "file system type %r without mount tables (magic %s)" % (got, magic), r)
            finally:
                shutil.rmtree(d, ignore_errors=True)


@case
def format_json_and_csv_agree():
    """--format json to stdout is one JSON document and nothing else; --format
    csv has one row per sample, equal to the JSON samples, and survives a CSV
    reader. Adjustments are recorded as warnings."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "HDF5_MPI_INFO": "romio_cb_write=enable"}
        r = run(2, "-e 32K -B 8K -x 16K -X 64K -i 2 -A posix,mpiio -D t --format json", env=env)
        expect_eq(r.rc, 0, "exit status", r)
        doc = json.loads(r.out)
        validate(doc, r)
        expect_eq(doc["config"]["format"], "json", "format", r)
        expect_eq(doc["config"]["mpi_info"], {"romio_cb_write": "enable"}, "hints", r)
        expect_eq(doc["config"]["warnings"], [
            "h5perf: warning: -X '64K' is larger than the bytes per process (32KB); using 32KB"],
            "warnings", r)
        csv_path = os.path.join(d, "r.csv")
        json_path = os.path.join(d, "r.json")
        r = run(2, "-e 32K -B 8K -x 16K -i 2 -A posix,mpiio -D t,v --format csv -o %s "
                "--results %s" % (csv_path, json_path), env=env)
        expect_eq(r.rc, 0, "exit status", r)
        with open(csv_path, newline="") as fh:
            rows = list(csv.DictReader(fh))
        doc = load(json_path)
        validate(doc, r)
        samples = [(x, m, s) for x in doc["runs"] for m in x["measures"] for s in m["samples"]]
        latency = [x for x in rows if "_latency_" in x["measure"]]
        rows = [x for x in rows if "_latency_" not in x["measure"]]
        # Each run's latency: 2 phases x 3 calls x p50, p90, p99, p99.9, max,
        # each the JSON's figure.
        expect_eq(len(latency), 8 * 2 * 3 * 5, "latency rows", r)
        for row in latency:
            x = [y for y in doc["runs"] if (str(y["processes"]), str(y["transfer_size"]),
                                            y["api"]) == (row["processes"], row["transfer_size"],
                                                          row["api"])][0]
            phase, call, _, figure = row["measure"].split("_", 3)
            expect_eq(float(row["seconds_median"]), x["latency"][phase][call]["seconds"][figure],
                      "CSV latency %s" % row["measure"], r)
        # 2 process counts x 2 sizes x 2 APIs x 8 measures (4 per phase with
        # -D t) x 2 iterations
        expect_eq(len(rows), 2 * 2 * 2 * 8 * 2, "one row per sample", r)
        expect_eq(len(rows), len(samples), "as many rows as JSON samples", r)
        for row, (x, m, s) in zip(rows, samples):
            want = {"processes": str(x["processes"]), "transfer_size": str(x["transfer_size"]),
                    "api": x["api"], "measure": m["measure"], "iteration": str(s["iteration"]),
                    "status": "ok", "bytes": str(s["bytes"]), "error": ""}
            expect_eq({k: row[k] for k in want}, want, "CSV row", r)
            for k in ("slowest", "fastest", "mean"):
                expect_eq(float(row["seconds_" + k]), s["seconds"][k], "CSV seconds", r)
            expect_eq(float(row["seconds_median"]), m["summary"]["seconds"]["median"],
                      "CSV median of the run", r)
            if m["measure"] in ("write_open", "write_close", "read_open", "read_close"):
                expect_eq((s["bytes"], m["summary"]["mib_per_s"]), (0, None), "open/close", r)


@case
def refused_run_leaves_output_files():
    """A refused command line leaves an existing -o or --results file as it
    was and removes one it created; an accepted run replaces them."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d}
        keep, report = os.path.join(d, "keep.json"), os.path.join(d, "report.txt")
        new = os.path.join(d, "new.txt")
        for path in (keep, report):
            with open(path, "w") as fh:
                fh.write("precious\n")
        for args, line in (
                ("-o %s --results %s" % (keep, keep),
                 "h5perf: --results '%s': is also the report (-o); give the results a file "
                 "of their own" % keep),
                ("-o %s --results %s/missing/r.json" % (report, d),
                 "h5perf: --results '%s/missing/r.json': cannot create the results file: No "
                 "such file or directory" % d),
                ("-o %s --results %s/missing/r.csv" % (new, d),
                 "h5perf: --results '%s/missing/r.csv': cannot create the results file: No "
                 "such file or directory" % d)):
            r = run(2, args, env=env)
            expect_eq((r.rc, r.h5perf_err), (2, [line]), "refused", r)
            for path in (keep, report):
                with open(path) as fh:
                    expect_eq(fh.read(), "precious\n", "untouched " + path, r)
            expect_eq(listing(d), ["keep.json", "report.txt"], "nothing created", r)
        r = run(2, "-e 16K -A posix -o %s --results %s" % (report, keep), env=env)
        expect_eq(r.rc, 0, "accepted", r)
        validate(load(keep), r)
        with open(report) as fh:
            expect(fh.readline().startswith("HDF5 Library: Version "), "report replaced", r)


@case
def failures_are_recorded():
    """An I/O error and a verification mismatch appear in the JSON and the CSV
    with their status and error, never as a throughput."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".posix", "H5PERF_FAULT_EIO_RANK": "1"}
        out = os.path.join(d, "f.json")
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2 -i 2 -A mpiio,posix --results %s" % out,
                env=env)
        expect_eq(r.rc, 1, "exit status", r)
        doc = load(out)
        validate(doc, r)
        expect_eq((doc["status"], doc["exit_status"]), ("io_error", 1), "document status", r)
        posix = doc["runs"][0]
        expect_eq((posix["api"], posix["status"], posix["errors"]),
                  ("posix", "io_error", r.h5perf_err), "failed run and its error", r)
        for m in posix["measures"]:
            expect_eq((m["status"], m["summary"]), ("io_error", None), "failed measure", r)
            expect_eq([(s["status"], s["seconds"]) for s in m["samples"]],
                      [("io_error", None)], "failed sample", r)
        expect_eq(len(doc["runs"]), 1, "the sweep stopped", r)
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_CORRUPT_SUFFIX": ".mpio", "H5PERF_CORRUPT_OFFSET": "0",
               "H5PERF_CORRUPT_COUNT": "1"}
        csv_path = os.path.join(d, "v.csv")
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2 -A mpiio -D v --results %s --format json"
                % csv_path, env=env)
        expect_eq(r.rc, 1, "exit status", r)
        doc = json.loads(r.out)
        validate(doc, r)
        got = [(m["measure"], m["status"], m["summary"] is None) for m in doc["runs"][0]["measures"]]
        expect_eq(got, [("write", "ok", False), ("write_open_close", "ok", False),
                        ("read", "verify_failed", True), ("read_open_close", "verify_failed", True)],
                  "verification failure spoils the reads only", r)
        with open(csv_path, newline="") as fh:
            rows = [x for x in csv.DictReader(fh) if "_latency_" not in x["measure"]]
        expect_eq([x["seconds_median"] == "" for x in rows], [False, False, True, True],
                  "no median for a failed measure", r)
        expect_eq([(x["measure"], x["status"], x["seconds_slowest"], x["error"]) for x in rows], [
            ("write", "ok", rows[0]["seconds_slowest"], ""),
            ("write_open_close", "ok", rows[1]["seconds_slowest"], ""),
            ("read", "verify_failed", "", "data verification failed (see stderr)"),
            ("read_open_close", "verify_failed", "", "data verification failed (see stderr)")],
            "CSV rows of a verification failure", r)
        expect(rows[0]["seconds_slowest"] != "", "write seconds present", r)
        expect_eq(listing(d), ["f.json", "v.csv"], "files left", r)


@case
def overhead_section_and_progress():
    """--overhead ends the text report with the ratios of the median
    throughputs, equal to those of the JSON; --progress prints one line per
    iteration and a last line, on stderr only."""
    with TempDir() as d:
        out = os.path.join(d, "o.json")
        r = run(2, "-e 64K -B 16K -x 32K -X 64K -p 2 -i 3 --overhead --progress --results %s"
                % out, env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        doc = load(out)
        med = {(x["transfer_size"], x["api"], m["measure"]): m["summary"]["mib_per_s"]["median"]
               for x in doc["runs"] for m in x["measures"]}
        at = r.lines.index("Overhead summary (ratios of median throughputs; below 1.00: the "
                           "first API is slower; -: not run or failed):")
        expect_eq(r.lines[at + 1], "  Processes  Transfer size  Measure            HDF5/MPI-IO"
                  "  MPI-IO/POSIX", "header", r)
        want = []
        for x, size in ((32768, "32KB"), (65536, "64KB")):
            for key, name in (("write", "Write"), ("write_open_close", "Write Open-Close"),
                              ("read", "Read"), ("read_open_close", "Read Open-Close")):
                want.append("  %9d  %13s  %-16s  %12.2f  %12.2f" % (
                    2, size, name, med[(x, "phdf5", key)] / med[(x, "mpiio", key)],
                    med[(x, "mpiio", key)] / med[(x, "posix", key)]))
        expect_eq(r.lines[at + 2:], want, "overhead lines", r)
        progress = [l for l in r.err.splitlines() if l.startswith("h5perf: progress: ")]
        expect_eq(len(progress), 2 * 3 * 3 + 1, "one line per iteration and a last one", r)
        expect_eq(progress[0], "h5perf: progress: 2 processes, transfer size 32KB, posix, "
                  "iteration 1 of 3: 0% done", "first line", r)
        expect(re.match(r"h5perf: progress: 2 processes, transfer size 64KB, phdf5, iteration 3 "
                        r"of 3: 9[0-9]% done, about [0-9.]+ s left$", progress[-2]),
               "last iteration's line: %r" % progress[-2], r)
        expect(re.match(r"h5perf: progress: done in [0-9.]+ s$", progress[-1]), "end line", r)
        expect(not any("progress" in l for l in r.lines), "no progress on stdout", r)
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2", env={"HDF5_PARAPREFIX": d})
        expect(not any(l.startswith("Overhead") for l in r.lines), "not by default", r)
        expect_eq(r.err.count("progress"), 0, "no progress by default", r)


SLURM_STEP = {"SLURM_JOB_ID": "4242", "SLURM_JOB_NAME": 'h5perf "block"\tsweep',
              "SLURM_JOB_PARTITION": "batch", "SLURM_JOB_NUM_NODES": "2",
              "SLURM_JOB_NODELIST": "node[07-08]", "SLURM_STEP_ID": "3",
              "SLURM_STEP_NUM_TASKS": "4", "SLURM_STEP_TASKS_PER_NODE": "2(x2)"}


def batch_of(env):
    """context.batch of a small run whose processes (not mpiexec, which
    would take Slurm's variables for an allocation of its own) have env."""
    wrap = "; ".join("export %s=%s" % (k, shlex.quote(v)) for k, v in sorted(env.items())) or ":"
    with TempDir() as d:
        r = run(2, "-e 16K -x 16K -X 16K -p 2 -A posix --format json",
                env={"HDF5_PARAPREFIX": d}, wrap=wrap)
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status, lines", r)
        doc = json.loads(r.out)
        validate(doc, r)
        return doc["context"].get("batch", "absent"), r


@case
def results_json_batch_job():
    """context.batch records the batch job from process 0's environment, as
    given: null without one; Slurm's job, partition, nodes and step; PBS's
    job id, name and queue; a count that is not a whole number is null;
    Slurm's record wins over the PBS_JOBID its PBS plugin sets."""
    batch, r = batch_of({})
    expect_eq(batch, None, "no batch system", r)
    batch, r = batch_of(SLURM_STEP)
    expect_eq(batch, {"system": "slurm", "job_id": "4242", "job_name": 'h5perf "block"\tsweep',
                      "partition": "batch", "nodes": 2, "node_list": "node[07-08]",
                      "step_id": "3", "tasks": 4, "tasks_per_node": "2(x2)"}, "a Slurm step", r)
    pbs = {"PBS_JOBID": "1234.pbs01", "PBS_JOBNAME": "h5perf", "PBS_QUEUE": "workq"}
    batch, r = batch_of(pbs)
    expect_eq(batch, {"system": "pbs", "job_id": "1234.pbs01", "job_name": "h5perf",
                      "partition": "workq", "nodes": None, "node_list": None, "step_id": None,
                      "tasks": None, "tasks_per_node": None}, "a PBS job", r)
    odd = dict(pbs, SLURM_JOB_ID="77", SLURM_JOB_NUM_NODES="2x", SLURM_STEP_NUM_TASKS="")
    batch, r = batch_of(odd)
    expect_eq(batch, {"system": "slurm", "job_id": "77", "job_name": None, "partition": None,
                      "nodes": None, "node_list": None, "step_id": None, "tasks": None,
                      "tasks_per_node": None}, "Slurm with PBS_JOBID, counts not numbers", r)
