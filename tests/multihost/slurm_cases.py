#!/usr/bin/env python3
"""Tests of h5perf under a real Slurm (docs/slurm.md): Debian's slurmctld,
slurmd and munged started by the test on 3 hosts made of network namespaces
(slurm.py on netns.py), h5perf launched by srun, by sbatch with the example
job script (examples/slurm.sbatch), and cancelled by scancel.

Usage: slurm_cases.py --list | slurm_cases.py NAME
Exit 77 (skipped, with one line saying why) where the hosts cannot be made
(netns.why_not) or a Slurm or munge program is missing (naming its Debian
package).
"""
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from harness import PAGE_CACHE, expect, expect_eq, listing  # noqa: E402
from cases import load, validate, wait_for_no_process  # noqa: E402
from slurm import FINISHED, SlurmCluster, why_not  # noqa: E402

SKIP = 77
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "slurm.sbatch")
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def h5perf():
    return os.environ.get("H5PERF", "h5perf")


def expect_batch(ctx, job, step, tasks, per_node, r):
    """context.batch is the job as scontrol knows it, and the step given."""
    expect_eq(ctx.get("batch", "absent"), {
        "system": "slurm", "job_id": job["JobId"], "job_name": job["JobName"],
        "partition": job["Partition"], "nodes": int(job["NumNodes"]),
        "node_list": job["NodeList"], "step_id": step, "tasks": tasks,
        "tasks_per_node": per_node}, "context.batch", r)


@case
def slurm_srun_records_job():
    """srun --mpi=pmix starts h5perf on 2 of the 3 nodes, 2 tasks each: h5perf
    counts 2 hosts and names them in rank order, each process verifies data
    written on the other host (--read-shift 2, no page-cache warning), and
    the JSON records the job as scontrol knows it, with srun's step."""
    with SlurmCluster(3) as c:
        out = os.path.join(c.state, "r.json")
        r = c.client(["srun", "--mpi=pmix", "--job-name=h5perf-srun", "--nodes=2",
                      "--ntasks-per-node=2", h5perf(), "-e", "64K", "-B", "16K", "-x", "32K",
                      "-X", "32K", "-p", "4", "-A", "posix,mpiio,phdf5", "-C", "-D", "v",
                      "--read-shift", "2", "--results", out],
                     env={"HDF5_PARAPREFIX": c.data}, timeout=150)
        expect_eq((r.rc, r.h5perf_err, r.page_cache), (0, [], []),
                  "exit status, lines, page-cache warning", r)
        doc = load(out)
        validate(doc, r)
        ctx = doc["context"]
        expect_eq((doc["status"], ctx["processes"], ctx["hosts"], ctx["host_names"]),
                  ("ok", 4, 2, c.names[:2]), "status, processes, hosts, host_names", r)
        job = c.job_named("h5perf-srun")
        expect_eq((job["JobState"], job["NumNodes"], job["NodeList"]),
                  ("COMPLETED", "2", "%s-h[1-2]" % c.tag), "scontrol's record of the job", r)
        expect_batch(ctx, job, "0", 4, "2(x2)", r)
        expect_eq(listing(c.data), [], "files left", r)
        wait_for_no_process(c, r)


@case
def slurm_sbatch_example():
    """examples/slurm.sbatch submitted with sbatch on 3 nodes x 1 task (a
    small array, by its variables): the job completes, both runs (the block
    pattern verified, the guide's default sweep) pass on 3 processes on 3
    hosts, each JSON records the job and the step of process 0, and no file
    is left. Launched by srun (the script's default: each run is a step of
    3 tasks) and by Open MPI's mpirun (process 0 is mpirun's own child on
    the first node, in the batch script's environment: no step)."""
    with SlurmCluster(3) as c:
        for launch, steps in (("srun --mpi=pmix", [("0", 3, "1(x3)"), ("1", 3, "1(x3)")]),
                              ("mpirun", [(None, None, None)] * 2)):
            outdir = os.path.join(c.state, "out-" + launch.split()[0])
            os.makedirs(outdir)
            job_id = c.sbatch(["--nodes=3", "--ntasks-per-node=1", "--chdir", outdir, EXAMPLE],
                              env={"H5PERF": h5perf(), "H5PERF_GLOBAL": "48x48x48",
                                   "H5PERF_LAUNCH": launch, "HDF5_PARAPREFIX": c.data})
            job = c.wait_job(job_id)
            with open(os.path.join(outdir, "h5perf-%s.out" % job_id), errors="replace") as fh:
                output = fh.read()
            what = "%s, job %s" % (launch, job_id)
            expect_eq((job["JobState"], job["ExitCode"]), ("COMPLETED", "0:0"),
                      "the job's end (%s)\n--- its output, the end\n%s" % (what, output[-4000:]))
            lines = [l for l in output.splitlines()
                     if l.startswith("h5perf:") and not l.startswith(PAGE_CACHE)]
            expect_eq(lines, [], "h5perf's lines in the job's output (%s)" % what)
            for kind, (step, tasks, per_node) in zip(("block", "guide"), steps):
                doc = load(os.path.join(outdir, "h5perf-%s-%s.json" % (job_id, kind)))
                validate(doc, what)
                ctx = doc["context"]
                expect_eq((doc["status"], doc["config"]["pattern"], ctx["processes"],
                           ctx["hosts"], ctx["host_names"]),
                          ("ok", kind, 3, 3, c.names),
                          "status, pattern, processes, hosts, host_names (%s)" % what)
                expect_batch(ctx, job, step, tasks, per_node, "%s, %s" % (what, kind))
            expect_eq(listing(c.data), [], "files left (%s)" % what)
            wait_for_no_process(c, what)


@case
def slurm_scancel_leaves_no_file():
    """A batch job cancelled (scancel) while h5perf runs on 3 nodes, once its
    processes have made a data file, ends CANCELLED, with no data file left
    in the data directory, no process left on any host, and no results
    file (a run stopped by a signal writes no results, and the file it
    created empty at set-up is removed: docs/differences.md, "Failures")."""
    with SlurmCluster(3) as c:
        out = os.path.join(c.state, "r.json")
        run = "srun --mpi=pmix %s -e 32M -B 1M -x 1M -X 1M -i 1000000 -A posix,mpiio,phdf5 " \
              "--results %s" % (h5perf(), out)
        job_id = c.sbatch(["--nodes=3", "--ntasks-per-node=1", "--output",
                           os.path.join(c.state, "job.out"), "--wrap", run],
                          env={"HDF5_PARAPREFIX": c.data})

        def started():
            return listing(c.data) or c.job(job_id)["JobState"] in FINISHED

        def output():
            with open(os.path.join(c.state, "job.out"), errors="replace") as fh:
                return "--- the job's output, the end\n" + fh.read()[-4000:]

        c.wait_until("a data file of job %s" % job_id, started, 120)
        seen = listing(c.data)
        state = c.job(job_id)["JobState"]
        expect(seen and state == "RUNNING", "the job runs, with a data file: %s, %r\n%s"
               % (state, seen, output()))
        r = c.client(["scancel", job_id])
        expect_eq(r.rc, 0, "scancel's exit status", r)
        job = c.wait_job(job_id, 60)
        what = output()
        expect_eq(job["JobState"], "CANCELLED", "the job's end\n" + what)
        wait_for_no_process(c, None)
        expect_eq(listing(c.data), [], "files left (%r when cancelled)\n%s" % (seen, what))
        expect(not os.path.exists(out), "no results file left (empty)\n" + what)


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print("usage: slurm_cases.py --list | slurm_cases.py NAME", file=sys.stderr)
        sys.exit(2)
    # ctest ends a test that ran out of time with SIGTERM: leave through the
    # cluster's cleanup, which kills the daemons; what a SIGKILL leaves, the
    # next cluster made on the machine sweeps.
    signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(128 + sig))
    why = why_not()
    if why:
        print("SKIP %s: %s" % (sys.argv[1], why))
        sys.exit(SKIP)
    try:
        CASES[sys.argv[1]]()
    except AssertionError as e:
        print("FAIL %s: %s" % (sys.argv[1], e))
        sys.exit(1)
    print("PASS " + sys.argv[1])
