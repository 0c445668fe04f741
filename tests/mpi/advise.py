"""MPI cases of --advise --budget (docs/advisor.md): the race on the null
backend's synthetic clock (every transfer takes the same seconds, so every
candidate is equal: all reported tied, the baseline kept, the budget never
passed), a budget too small for the first round, and a real race on a
small workload whose recommended command line runs and reproduces the
configuration it names."""
import json
import os
import re
import shlex

from common import case
from harness import TempDir, expect, expect_eq, run

SMALL = """arrays:
  - name: field
    global: [16, 16]
    decomposition: {grid: [2, 1]}
    read_back: true
baseline: {api: posix}
search:
  apis: [posix, mpiio, phdf5]
  layouts: [shared, fpp]
  alignments: [1]
  align_data: [packed]
  transfer_sizes: [whole]
  hints: {romio_cb_write: [], romio_cb_read: []}
"""
SPENT = re.compile(r"^arrays\[0\] 'field': (\d+) candidates, (\d+) measured"
                   r"(?: in \d+ rounds?|, the first round unfinished), "
                   r"([0-9.]+) s of the ([0-9.]+) s budget")
# A row's ratio to the baseline, its tie mark and its state.
ROW = re.compile(r" \d+\.\d\d  (=| ) +(verified|in race|worse|halved|failed|unmeasured) ")
KEEP = ("recommendation: keep the baseline: no candidate is significantly better than the "
        "baseline (no 95% interval lies wholly above its)")


def advise(d, text, budget, exe=None, env=None):
    path = os.path.join(d, "w.yaml")
    with open(path, "w") as fh:
        fh.write(text)
    env = dict(env or {}, HDF5_PARAPREFIX=d)
    return run(2, "--advise %s --budget %s" % (path, budget), env=env, exe=exe)


def answer(r):
    """(candidates, measured, spent, budget), the table's rows, the
    recommendation's lines."""
    head = [SPENT.match(x) for x in r.lines]
    head = [m for m in head if m]
    expect_eq(len(head), 1, "one answer", r)
    m = head[0]
    at = r.lines.index(m.group(0)) if m.group(0) in r.lines else \
        [i for i, x in enumerate(r.lines) if x.startswith(m.group(0))][0]
    rows = []
    for x in r.lines[at + 2:]:
        if x.startswith("recommendation"):
            break
        rows.append(x)
    rec = r.lines[at + 2 + len(rows):]
    return (int(m.group(1)), int(m.group(2)), float(m.group(3)), float(m.group(4))), rows, rec


@case
def advise_equal_on_a_synthetic_clock():
    """Ten candidates on the null backend, each transfer 0.01 s: every row
    is tied with the best, the baseline is kept with the line that says no
    candidate is significantly better, there is nothing 'not' to do, and
    the race spent no more than its budget."""
    with TempDir() as d:
        r = advise(d, SMALL, "3", exe=os.environ["ENGINE_NULL"],
                   env={"H5PERF_NULL_SECONDS": "0.01"})
        expect_eq(r.rc, 0, "exit status", r)
        (n, measured, spent, budget), rows, rec = answer(r)
        expect_eq((n, measured), (10, 10), "candidates measured", r)
        expect(spent <= budget, "spent %.2f s of the %.2f s budget" % (spent, budget), r)
        expect_eq(len(rows), 10, "rows of the table", r)
        ties = [ROW.search(x) for x in rows]
        expect(all(t and t.group(1) == "=" for t in ties), "every row tied with the best", r)
        expect_eq(rec[0], KEEP, "recommendation", r)
        expect(not any(x.strip().startswith("not:") for x in rec), "no 'not:' line", r)


@case
def advise_budget_on_a_synthetic_clock():
    """A budget smaller than the first round: the race stops before the
    measurement that would pass it, says the budget ended it, and leaves
    the rest unmeasured."""
    with TempDir() as d:
        r = advise(d, SMALL, "0.3", exe=os.environ["ENGINE_NULL"],
                   env={"H5PERF_NULL_SECONDS": "0.01"})
        expect_eq(r.rc, 0, "exit status", r)
        (n, measured, spent, budget), rows, rec = answer(r)
        expect(measured < n, "measured %d of %d" % (measured, n), r)
        expect(spent <= budget, "spent %.2f s of the %.2f s budget" % (spent, budget), r)
        expect(any("(the budget ended the race)" in x for x in r.lines), "budget line", r)
        expect(any(", the first round unfinished, " in x for x in r.lines),
               "the first round said unfinished", r)


@case
def advise_real_recommendation_runs():
    """A real race (2 processes, a small array, 20 s): exit 0, the budget
    kept within 10%; the recommendation's command line, run as printed
    (its HDF5_MPI_INFO too) with -D v and --results, passes and its JSON
    has the API, layout and I/O mode the command names."""
    with TempDir() as d:
        r = advise(d, SMALL, "20")
        expect_eq(r.rc, 0, "exit status", r)
        (n, measured, spent, budget), rows, rec = answer(r)
        expect(spent <= 1.1 * budget, "spent %.2f s of the %.2f s budget" % (spent, budget), r)
        cmd = [x for x in rec if x.strip().startswith("command: ")]
        expect_eq(len(cmd), 1, "one command line", r)
        words = shlex.split(cmd[0].strip()[len("command: "):])
        env = {}
        while "=" in words[0]:
            k, v = words.pop(0).split("=", 1)
            env[k] = v
        expect_eq(words[:4], ["mpiexec", "-n", "2", "h5perf"], "the command's launch", r)
        args = words[4:]
        res = os.path.join(d, "r.json")
        env["HDF5_PARAPREFIX"] = d
        again = run(2, args + ["-D", "v", "--results", res], env=env)
        expect_eq(again.rc, 0, "exit status of the recommended command", again)
        with open(res) as fh:
            doc = json.load(fh)
        api = args[args.index("-A") + 1]
        expect_eq(doc["config"]["apis"], [api], "the command's API", again)
        expect_eq(doc["runs"][0]["layout"], args[args.index("--layout") + 1], "layout", again)
        expect_eq(doc["config"]["io_mode"], "collective" if "-C" in args else "independent",
                  "I/O mode", again)
        if "HDF5_MPI_INFO" in env:
            expect_eq(doc["config"]["environment"]["HDF5_MPI_INFO"], env["HDF5_MPI_INFO"],
                      "hints", again)
