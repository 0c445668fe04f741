"""MPI cases about the job scripts of examples/: the PBS script run as PBS
would run it (its variables set, its node file listing this machine), so
that it cannot rot where no PBS is at hand. The Slurm script is submitted
to a real Slurm by tests/multihost/slurm_cases.py.
"""
import json
import os
import shlex
import subprocess

from common import case
from harness import PAGE_CACHE, TempDir, base_env, expect_eq, h5perf, listing
from results import validate

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")


@case
def example_pbs_script():
    """examples/pbs.qsub with PBS's variables, 2 MPI processes on this host
    (its node file, and the launch line it builds from it, with this build's
    mpiexec first on PATH) and a small array: both runs pass, the block
    pattern verified, no file is left, and each JSON records the PBS job."""
    with TempDir() as d:
        data, work, bin_ = (os.path.join(d, x) for x in ("data", "work", "bin"))
        for x in (data, work, bin_):
            os.makedirs(x)
        # A script, not a link: MPICH's mpiexec finds its proxy beside its
        # own path.
        wrapper = os.path.join(bin_, "mpiexec")
        with open(wrapper, "w") as fh:
            fh.write('#!/bin/sh\nexec %s "$@"\n'
                     % shlex.quote(os.environ.get("MPIEXEC", "mpiexec")))
        os.chmod(wrapper, 0o755)
        nodes = os.path.join(d, "nodes")
        with open(nodes, "w") as fh:
            fh.write("localhost\nlocalhost\n")
        env = base_env({
            "PATH": bin_ + os.pathsep + os.environ.get("PATH", ""),
            "PBS_JOBID": "4242.pbs01", "PBS_JOBNAME": "h5perf", "PBS_QUEUE": "workq",
            "PBS_O_WORKDIR": work, "PBS_NODEFILE": nodes, "HDF5_PARAPREFIX": data,
            "H5PERF": h5perf(), "H5PERF_GLOBAL": "16x16x16"})
        p = subprocess.run(["bash", os.path.join(EXAMPLES, "pbs.qsub")], env=env, cwd=d,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=300)
        output = p.stdout.decode(errors="replace")
        lines = [l for l in output.splitlines()
                 if l.startswith("h5perf:") and not l.startswith(PAGE_CACHE)]
        expect_eq((p.returncode, lines), (0, []), "exit status, h5perf's lines\n" + output)
        expect_eq(sorted(os.listdir(work)), ["h5perf-4242-block.json", "h5perf-4242-guide.json"],
                  "results in PBS_O_WORKDIR")
        for kind in ("block", "guide"):
            with open(os.path.join(work, "h5perf-4242-%s.json" % kind)) as fh:
                doc = json.load(fh)
            validate(doc)
            expect_eq((doc["status"], doc["config"]["pattern"], doc["context"]["processes"]),
                      ("ok", kind, 2), "status, pattern, processes (%s)" % kind)
            expect_eq(doc["context"].get("batch", "absent"), {
                "system": "pbs", "job_id": "4242.pbs01", "job_name": "h5perf",
                "partition": "workq", "nodes": None, "node_list": None, "step_id": None,
                "tasks": None, "tasks_per_node": None}, "context.batch (%s)" % kind)
        expect_eq(listing(data), [], "files left")
