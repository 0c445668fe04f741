"""bench/scale_cost.py end to end at its smallest (docs/scale.md): 1 and 2
processes, one repetition, 2 steps (and bench/scale_rank0 at 10 and 20
names): every contender runs under the probe
(bench/scale_probe.c), every process's probe line is read, the README has
every cost's table and samples.json every contender at each count, and
nothing is left in the target directory. Not timed: no figure is checked.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench",
                      "scale_cost.py")


def main():
    build = os.path.dirname(os.environ["H5PERF"])
    with harness.TempDir() as tmp:
        target, out = os.path.join(tmp, "target"), os.path.join(tmp, "out")
        os.mkdir(target)
        env = harness.base_env()
        r = subprocess.run([sys.executable, SCRIPT, "--no-build", "--build", build, "--procs",
                            "1,2", "--reps", "1", "--steps", "2", "--rank0-procs", "10,20", "--target", target, "--out",
                            out], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=600)
        run = harness.Run(r.returncode, r.stdout.decode(errors="replace"),
                          r.stderr.decode(errors="replace"))
        harness.expect_eq(r.returncode, 0, "exit status of bench/scale_cost.py", run)
        with open(os.path.join(out, "samples.json")) as f:
            doc = json.load(f)
        got = sorted((s["procs"], s["contender"]) for s in doc["samples"])
        sys.path.insert(0, os.path.dirname(SCRIPT))
        import scale_cost  # noqa: E402
        want = sorted((p, c) for p in (1, 2) for c in scale_cost.CONTENDERS)
        harness.expect_eq(got, want, "a sample of every contender at 1 and 2 processes")
        with open(os.path.join(out, "README.md")) as f:
            text = f.read()
        for cost in scale_cost.costs(2):
            harness.expect("\n## %s: " % cost[0] in text, "a table of " + cost[0])
        harness.expect("\n## Process 0's page-cache check" in text, "the page-cache check's table")
        harness.expect_eq(harness.listing(target), [], "files left in the target")


if __name__ == "__main__":
    main()
    print("ok: bench/scale_cost.py end to end")
