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

import jsonschema

from common import Skip, case
from harness import TempDir, built_apis, expect, expect_eq, launcher_is_hydra, listing, run

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
  collective_metadata: [false]
  hints: {romio_cb_write: [], romio_cb_read: []}
"""
HDF5 = """arrays:
  - name: field
    global: [16, 16]
    decomposition: {grid: [2, 1]}
    read_back: true
search:
  apis: [phdf5]
  layouts: [shared, chunked, fpp]
  io_modes: [independent]
  alignments: [1]
  transfer_sizes: [whole]
  chunk_shapes: [block, [3, 16], [32, 16]]
  metadata_block_sizes: {add: [64K]}
  hints: {romio_cb_write: [], romio_cb_read: []}
"""
SPENT = re.compile(r"^arrays\[0\] 'field': (\d+) candidates, (\d+) measured"
                   r"(?: in \d+ rounds?|, the first round unfinished), "
                   r"([0-9.]+) s of the ([0-9.]+) s budget")
# A row's ratio to the baseline, its tie mark and its state.
ROW = re.compile(r" \d+\.\d\d  (=| ) +(verified|in race|worse|halved|failed|unmeasured) ")
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                      "advice.schema.json")
# On the null backend's synthetic clock (H5PERF_NULL_SECONDS=0.01) each
# phase of SMALL's array (16x16 of 8 bytes, 2048 bytes) takes 0.01 s: every
# sample is 2048 B / 0.01 s in MiB/s, write, read and both, and each costs
# 0.02 s. The clock adds 0.01 s steps, so the figures agree to the last
# bits only: NEAR.
SAMPLE = 2048 / 0.01 / 1048576
NEAR = 1e-9
# SMALL's ten candidates: (API, layout, I/O mode).
SMALL_CHOICES = sorted([("posix", "shared", "independent"), ("posix", "fpp", "independent")] +
                       [(a, l, m) for a in ("mpiio", "phdf5") for l in ("shared", "fpp")
                        for m in ("independent", "collective")])
KEEP = ("recommendation: keep the baseline: no candidate is significantly better than the "
        "baseline (no 95% interval lies wholly above its)")


def advise(d, text, budget, exe=None, env=None, more=""):
    path = os.path.join(d, "w.yaml")
    with open(path, "w") as fh:
        fh.write(text)
    env = dict(env or {}, HDF5_PARAPREFIX=d)
    return run(2, "--advise %s --budget %s%s" % (path, budget, more), env=env, exe=exe)


def validate(doc, r=None):
    """doc is valid against docs/advice.schema.json."""
    with open(SCHEMA) as fh:
        schema = json.load(fh)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
    expect_eq([e.message for e in errors][:3], [], "schema errors", r)


def near(got, want):
    return got is not None and abs(got - want) <= NEAR * abs(want)


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
def advise_counts_what_it_races():
    """The count before the race is the race's own: SMALL's baseline is one
    of its search's ten candidates (10 raced); with POSIX, the baseline,
    out of the search, the search's eight candidates and the baseline (9)."""
    outside = SMALL.replace("apis: [posix, mpiio, phdf5]", "apis: [mpiio, phdf5]")
    for text, want in ((SMALL, 10), (outside, 9)):
        with TempDir() as d:
            r = advise(d, text, "3", exe=os.environ["ENGINE_NULL"],
                       env={"H5PERF_NULL_SECONDS": "0.01"})
            expect_eq(r.rc, 0, "exit status", r)
            (n, measured, _, _), _, _ = answer(r)
            said = [x for x in r.lines if x.startswith("candidates of arrays[0] 'field': ")]
            expect_eq(said, ["candidates of arrays[0] 'field': %d, the baseline among them"
                             % want], "the count before the race", r)
            expect_eq((n, measured), (want, want), "the race's count", r)


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
def advise_hdf5_choices_on_a_synthetic_clock():
    """HDF5's choices as candidates, each with its option: collective
    metadata (not with fpp), the metadata block sizes, and the chunk shapes
    that fit the array on the chunked layout (32x16 does not): shared 4,
    chunked 2 shapes x 4, fpp 2 block sizes; all measured and tied. The
    table shows the ten best, the baseline and the worst. The JSON answer
    gives each candidate's HDF5 choices as fields."""
    with TempDir() as d:
        advice = os.path.join(d, "advice.json")
        r = advise(d, HDF5, "5", exe=os.environ["ENGINE_NULL"],
                   env={"H5PERF_NULL_SECONDS": "0.001"}, more=" --results " + advice)
        expect_eq(r.rc, 0, "exit status", r)
        (n, measured, _, _), rows, _ = answer(r)
        expect_eq((n, measured), (14, 14), "candidates measured", r)
        tails = sorted(x.split("   ")[-1].strip() for x in rows)
        expect("-A phdf5 --layout chunked --chunk-shape 3x16" in tails,
               "a chunked candidate's options", r)
        expect("-A phdf5 --layout shared --hdf5.collective-metadata "
               "--hdf5.metadata-block-size 64K" in tails, "a shared candidate's options", r)
        expect("-A phdf5 --layout fpp --hdf5.metadata-block-size 64K" in tails,
               "an fpp candidate's options", r)
        expect(not any("fpp" in t and "collective-metadata" in t for t in tails),
               "no fpp candidate with collective metadata", r)
        expect(not any("32x16" in t for t in tails), "no chunk shape beyond the array", r)
        with open(advice) as fh:
            adv = json.load(fh)
        validate(adv, r)
        got = set((c["choices"]["layout"], c["choices"]["collective_metadata"],
                      c["choices"]["metadata_block_size"], c["choices"]["chunk_shape"])
                     for c in adv["sets"][0]["candidates"])
        expect(("shared", True, 65536, "block") in got, "a shared candidate's fields", r)
        expect({("chunked", False, None, "3x16"), ("chunked", True, 65536, "3x16")} <= got,
               "chunked candidates' fields: %r" % sorted(got, key=repr), r)
        expect(("fpp", False, 65536, "block") in got, "an fpp candidate's fields", r)


NONBLOCKING = """arrays:
  - name: field
    global: [16, 16]
    decomposition: {grid: [2, 1]}
    variables: 4
baseline: {api: pnetcdf, collective: true}
search:
  apis: [pnetcdf]
  layouts: [shared]
  io_modes: [collective]
  alignments: [1]
  transfer_sizes: [whole]
  hints: {romio_cb_write: [], romio_cb_read: []}
"""


def joining_race(d, workload, api, option, key):
    """A race of an API's joining variant (option, its choice key in the
    advice document) against its plain calls on the null backend, whose
    plain transfers take 0.01 s and the variant's 0.001 s: both measured,
    the variant 10 times the baseline and verified, the plain calls in race,
    in the table and in the advice document. Returns the run, the
    recommendation's lines and the document."""
    advice = os.path.join(d, "advice.json")
    r = advise(d, workload, "5", exe=os.environ["ENGINE_NULL"],
               env={"H5PERF_NULL_SECONDS": "0.01", "H5PERF_NULL_VARIANT_SECONDS": "0.001"},
               more=" --results " + advice)
    expect_eq(r.rc, 0, "exit status", r)
    (n, measured, _, _), rows, rec = answer(r)
    expect_eq((n, measured), (2, 2), "candidates measured", r)
    base = "-A %s --layout shared -C" % api
    expect_eq(states(rows), [("%s %s" % (base, option), "verified"), (base, "in race")],
              "the table's rows and states", r)
    expect_eq(ROW.search(rows[0]).group(0).split()[0], "10.00", "the variant's ratio", r)
    with open(advice) as fh:
        adv = json.load(fh)
    validate(adv, r)
    got = sorted((c["choices"][key], c["state"]) for c in adv["sets"][0]["candidates"])
    expect_eq(got, [(False, "in race"), (True, "verified")], "the JSON choices", r)
    return r, rec, adv


@case
def advise_pnetcdf_nonblocking_on_a_synthetic_clock():
    """PnetCDF's nonblocking calls as a candidate: its run is the variant
    alone (--pnetcdf.nonblocking=only: no blocking run before it in the
    same processes), measured by its figures. On the null backend each transfer of the
    blocking calls takes 0.01 s and of the nonblocking variant 0.001 s
    (H5PERF_NULL_VARIANT_SECONDS): the nonblocking candidate is 10 times
    the baseline, verified and recommended with its option, its calls and
    its JSON field."""
    if "pnetcdf" not in built_apis():
        raise Skip("this build of h5perf does not include PnetCDF")
    with TempDir() as d:
        r, rec, adv = joining_race(d, NONBLOCKING, "pnetcdf", "--pnetcdf.nonblocking=only",
                                   "pnetcdf_nonblocking")
        expect_eq([x.strip() for x in rec[:6]], [
            "recommendation: 10.00 times the baseline's throughput (95% intervals apart), its "
            "data verified",
            "command: mpiexec -n 2 h5perf --pattern block --global 16x16 --grid 2x1 "
            "--element-size 8 --vars 4 -A pnetcdf --layout shared -C --pnetcdf.nonblocking=only "
            "-w",
            "in words: pnetcdf, layout shared, collective transfers, a process's whole part per "
            "call, every variable's step posted without blocking, one wait",
            "hints: none (the library's own)",
            "PnetCDF: ncmpi_iput_vara per variable, ncmpi_wait_all",
            "not: -A pnetcdf --layout shared -C: 0.10 of the recommendation's throughput"],
            "the recommendation", r)
        for c in adv["sets"][0]["candidates"]:
            want = SAMPLE * (10 if c["choices"]["pnetcdf_nonblocking"] else 1)
            expect(all(near(v, want) for v in c["samples"]["write"]),
                   "write samples of %s near %r: %r" % (c["argv"][-2:], want,
                                                        c["samples"]["write"]), r)


JOINED = NONBLOCKING.replace("api: pnetcdf", "api: mpiio").replace(
    "apis: [pnetcdf]", "apis: [mpiio]\n  align_data: [packed]")


@case
def advise_mpiio_joined_on_a_synthetic_clock():
    """MPI-IO's joined calls as a candidate, offered by their row alone
    (docs/design.md, "Offering a choice in the advisor"): its run is the
    variant alone (--mpiio.joined=only), measured by its figures. On the
    null backend a transfer of the plain calls takes 0.01 s and of the
    joined variant 0.001 s: the joined candidate is 10 times the baseline,
    verified and recommended with its option, its calls and its JSON
    field."""
    with TempDir() as d:
        r, rec, _ = joining_race(d, JOINED, "mpiio", "--mpiio.joined=only", "mpiio_joined")
        expect_eq([x.strip() for x in rec[2:5]], [
            "in words: mpiio, layout shared, collective transfers, a process's whole part per "
            "call, every variable's step in one call through one view",
            "hints: none (the library's own)",
            "MPI-IO: MPI_File_set_view joining every variable's step, MPI_File_write_at_all, "
            "MPI_File_read_at_all"], "the recommendation", r)
        expect(rec[1].strip().endswith("-A mpiio --layout shared -C --mpiio.joined=only -w"),
               "the recommended command", r)


@case
def advise_real_recommendation_runs():
    """A real race (2 processes, a small array, 20 s): exit 0, the budget
    kept within 10%; the recommendation's command line, run as printed
    (its HDF5_MPI_INFO too) with -D v and --results, passes and its JSON
    has the API, layout and I/O mode the command names. The JSON answer
    (--results) is valid, its recommendation's command is the text's, and
    its figures are the text table's."""
    with TempDir() as d:
        advice = os.path.join(d, "advice.json")
        r = advise(d, SMALL, "20", more=" --results " + advice)
        expect_eq(r.rc, 0, "exit status", r)
        (n, measured, spent, budget), rows, rec = answer(r)
        expect(spent <= 1.1 * budget, "spent %.2f s of the %.2f s budget" % (spent, budget), r)
        with open(advice) as fh:
            adv = json.load(fh)
        validate(adv, r)
        expect_eq(adv["sets"][0]["recommendation"]["command"], text_command(r),
                  "the JSON's command is the text's", r)
        expect_eq("%.1f" % adv["sets"][0]["spent_seconds"], "%.1f" % spent, "spent", r)
        expect_eq(sum(1 for c in adv["sets"][0]["candidates"] if c["rank"] is not None),
                  measured, "measured", r)
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


def expect_sample_figures(c, r):
    """Candidate c measured on the synthetic clock: every sample, median
    and interval bound is SAMPLE, it cost 0.02 s a sample, its ratio to
    the baseline is 1, and it is tied with the best."""
    n = len(c["samples"]["write"])
    what = "candidate %d" % c["id"]
    expect_eq([len(c["samples"][k]) for k in ("write", "read", "both")], [n] * 3,
              what + " sample counts", r)
    expect(all(near(v, SAMPLE) for k in ("write", "read", "both") for v in c["samples"][k]),
           what + " samples %r" % (c["samples"],), r)
    for k in ("write", "read", "both"):
        expect(near(c[k]["median"], SAMPLE), what + " %s median %r" % (k, c[k]), r)
        if n >= 6:
            expect(all(near(v, SAMPLE) for v in c[k]["interval"]),
                   what + " %s interval %r" % (k, c[k]["interval"]), r)
        else:
            expect_eq(c[k]["interval"], None, what + " %s interval (n<6)" % k, r)
    expect(near(c["seconds"], 0.02 * n), what + " seconds %r for %d samples" % (c["seconds"], n),
           r)
    expect(near(c["ratio_to_baseline"], 1.0), what + " ratio", r)
    expect_eq(c["tie_with_best"], True, what + " tied", r)


def expect_candidates_words(doc, r):
    """Every candidate's command is mpiexec of its argv (its hints before
    it), and its choices are its words'."""
    for c in doc["sets"][0]["candidates"]:
        env = "HDF5_MPI_INFO='%s' " % c["hints"] if c["hints"] else ""
        expect_eq(c["command"], env + "mpiexec -n 2 " + " ".join(c["argv"]), "command", r)
        a = c["argv"]
        ch = c["choices"]
        expect_eq((ch["api"], ch["layout"], ch["io_mode"]),
                  (a[a.index("-A") + 1], a[a.index("--layout") + 1],
                   "collective" if "-C" in a else "independent"), "choices of %r" % a, r)
        expect_eq((ch["alignment"], ch["threshold"], ch["align_data"], ch["transfer_size"],
                   ch["buffer_offset"], ch["mpiio_component"], ch["hints"]),
                  (1, 1, "packed", "whole", 0, None, {}), "other choices", r)


def text_command(r):
    """The recommendation's command line of the text answer."""
    cmd = [x.strip()[len("command: "):] for x in r.lines if x.strip().startswith("command: ")]
    expect_eq(len(cmd), 1, "one command line", r)
    return cmd[0]


@case
def advise_json_equal_on_a_synthetic_clock():
    """--results a.json with the ten equal candidates of SMALL on the
    synthetic clock: the document is valid, and every figure is the
    clock's: 4 rounds of halving (samples 6, then 3, 4 and 6 more to the
    survivors: 19, 19, 19, 13, 9, 9 and four 6), then the duel of the last
    candidate and the baseline, never told apart: 11 more each in round 5,
    and one more of the baseline before the next would pass the budget
    (31, 30); 135 samples of 0.02 s spent (all 2.7 s the race may use),
    the baseline and one other in race at the end, eight halved, everything
    tied, the baseline kept, no 'not'."""
    with TempDir() as d:
        out = os.path.join(d, "a.json")
        with open(out, "w") as fh:
            fh.write("an earlier answer, replaced whole")
        r = advise(d, SMALL, "3", exe=os.environ["ENGINE_NULL"],
                   env={"H5PERF_NULL_SECONDS": "0.01"}, more=" --results " + out)
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(r.h5perf_err, [], "stderr", r)
        with open(out) as fh:
            doc = json.load(fh)
        validate(doc, r)
        expect_eq((doc["schema"], doc["schema_version"], doc["workload"], doc["processes"],
                   doc["budget_seconds"], doc["mpiio_component"], len(doc["sets"])),
                  ("h5perf-advice", 1, {"file": os.path.join(d, "w.yaml"), "name": None}, 2, 3,
                   os.environ.get("OMPI_MCA_io"), 1), "the launch", r)
        s = doc["sets"][0]
        expect_eq({k: s[k] for k in ("key", "name", "read_back", "budget_seconds", "rounds",
                                     "out_of_budget", "candidates_measured", "left_out",
                                     "baseline")},
                  {"key": "arrays[0]", "name": "field", "read_back": True, "budget_seconds": 3,
                   "rounds": 5, "out_of_budget": True, "candidates_measured": 10,
                   "left_out": 0, "baseline": 0}, "the set", r)
        expect(near(s["spent_seconds"], 2.7) and near(doc["spent_seconds"], 2.7),
               "spent %r, %r" % (s["spent_seconds"], doc["spent_seconds"]), r)
        cs = s["candidates"]
        expect_eq([c["id"] for c in cs], list(range(10)), "ids", r)
        expect_eq([c["baseline"] for c in cs], [True] + [False] * 9, "the baseline", r)
        expect_eq(sorted(c["rank"] for c in cs), list(range(1, 11)), "ranks", r)
        expect_eq(sorted((c["choices"]["api"], c["choices"]["layout"], c["choices"]["io_mode"])
                         for c in cs), SMALL_CHOICES, "the candidates' choices", r)
        expect_eq(sorted(len(c["samples"]["write"]) for c in cs),
                  [6, 6, 6, 6, 9, 9, 13, 19, 30, 31], "samples per candidate", r)
        expect_eq(sorted(c["state"] for c in cs), ["halved"] * 8 + ["in race"] * 2, "states", r)
        expect_eq((cs[0]["state"], len(cs[0]["samples"]["write"]), cs[0]["last_round"]),
                  ("in race", 31, 6), "the baseline's race", r)
        expect_eq(sorted((len(c["samples"]["write"]), c["last_round"]) for c in cs),
                  [(6, 1)] * 4 + [(9, 2)] * 2 + [(13, 3), (19, 4), (30, 5), (31, 6)],
                  "last rounds", r)
        for c in cs:
            expect_sample_figures(c, r)
        expect_candidates_words(doc, r)
        rec = s["recommendation"]
        expect_eq(rec, {"keep_baseline": True,
                        "why": "no candidate is significantly better than the baseline",
                        "candidate": 0, "ratio_to_baseline": None, "finalists_tried": 0,
                        "command": cs[0]["command"], "hints": None,
                        "in_words": "posix, layout shared, independent transfers, a process's "
                                    "whole part per call",
                        "calls": None}, "recommendation", r)
        expect_eq(rec["command"], text_command(r), "the text answer's command", r)
        expect_eq(s["not"], None, "nothing not to do", r)
        expect_eq(listing(d), ["a.json", "w.yaml"], "files left", r)


@case
def advise_json_first_round_unfinished():
    """A 0.3 s budget on the synthetic clock (0.27 s for the race): the
    baseline's 6 samples (0.12 s) and one sample of 7 others (0.14 s),
    then the next would pass it: rounds 0, the budget ended the race, two
    candidates unmeasured (no rank, samples, medians or ratio), the
    intervals of one sample null."""
    with TempDir() as d:
        out = os.path.join(d, "a.json")
        r = advise(d, SMALL, "0.3", exe=os.environ["ENGINE_NULL"],
                   env={"H5PERF_NULL_SECONDS": "0.01"}, more=" --results " + out)
        expect_eq(r.rc, 0, "exit status", r)
        with open(out) as fh:
            doc = json.load(fh)
        validate(doc, r)
        s = doc["sets"][0]
        expect_eq((s["rounds"], s["out_of_budget"], s["candidates_measured"]), (0, True, 8),
                  "the set", r)
        expect(near(s["spent_seconds"], 0.26), "spent %r" % s["spent_seconds"], r)
        cs = s["candidates"]
        measured = [c for c in cs if c["state"] != "unmeasured"]
        expect_eq(sorted(len(c["samples"]["write"]) for c in measured), [1] * 7 + [6],
                  "samples", r)
        expect_eq(len(cs[0]["samples"]["write"]), 6, "the baseline's samples", r)
        expect_eq(sorted(c["rank"] for c in measured), list(range(1, 9)), "ranks", r)
        for c in measured:
            expect_eq((c["state"], c["last_round"]), ("in race", 1), "state", r)
            expect_sample_figures(c, r)
        for c in cs:
            if c["state"] == "unmeasured":
                expect_eq((c["rank"], c["last_round"], c["seconds"], c["samples"], c["write"],
                           c["read"], c["both"], c["ratio_to_baseline"], c["tie_with_best"]),
                          (None, None, 0, {"write": [], "read": [], "both": []},
                           {"median": None, "interval": None},
                           {"median": None, "interval": None},
                           {"median": None, "interval": None}, None, False),
                          "an unmeasured candidate", r)
        expect_eq(len(cs) - len(measured), 2, "unmeasured", r)
        expect_eq(s["recommendation"]["keep_baseline"], True, "the baseline kept", r)


# HDF5 candidates of SMALL's array, with and without 16 MiB alignment:
# under a file-size limit of 8 MiB (ulimit -f 16384 on the ranks, in
# dash's 512-byte blocks) h5perf refuses the two aligned ones, whose file
# reaches past 16 MiB (docs/advisor.md, "Running it").
ALIGNED = """arrays:
  - name: field
    global: [16, 16]
    decomposition: {grid: [2, 1]}
    read_back: true
baseline: {api: phdf5}
search:
  apis: [phdf5]
  layouts: [shared]
  io_modes: [independent, collective]
  alignments: [1, 16M]
  transfer_sizes: [whole]
  collective_metadata: [false]
  hints: {romio_cb_write: [], romio_cb_read: []}
"""


@case
def advise_json_counts_refused():
    """The JSON answer counts the candidates h5perf refuses, which the race
    leaves out, and gives the first of them as the printed line does
    ("refused", "refused_example"; docs/advisor.md, "The answer as JSON"):
    two of ALIGNED's four under an 8 MiB file-size limit. The answer
    counted only the candidates of another MPI-IO component (left_out)."""
    if "phdf5" not in built_apis():
        raise Skip("built without parallel HDF5")
    with TempDir() as d:
        out = os.path.join(d, "a.json")
        path = os.path.join(d, "w.yaml")
        with open(path, "w") as fh:
            fh.write(ALIGNED)
        r = run(2, "--advise %s --budget 3 --results %s" % (path, out),
                env={"HDF5_PARAPREFIX": d, "H5PERF_NULL_SECONDS": "0.01"},
                exe=os.environ["ENGINE_NULL"], wrap="ulimit -f 16384")
        expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr", r)
        said = [x for x in r.lines if x.startswith("arrays[0]: 2 candidates h5perf refuses left "
                                                  "out, e.g. ")]
        expect_eq(len(said), 1, "the printed line", r)
        with open(out) as fh:
            doc = json.load(fh)
        validate(doc, r)
        s = doc["sets"][0]
        expect_eq((s["refused"], s["refused_example"], s["left_out"], len(s["candidates"])),
                  (2, said[0].split(", e.g. ", 1)[1], 0, 2), "the set", r)
        expect(s["refused_example"].startswith("-A phdf5 --layout shared -a 16M"),
               "the example: %r" % s["refused_example"], r)


@case
def advise_json_refused():
    """--results with --advise: a CSV name, no --budget, a directory that
    does not exist, a directory, and the workload file itself are each
    refused with one line and exit 2 before anything is measured; an
    existing file is left as it was."""
    with TempDir() as d:
        w = os.path.join(d, "w.yaml")
        with open(w, "w") as fh:
            fh.write(SMALL)
        old = os.path.join(d, "old.json")
        with open(old, "w") as fh:
            fh.write("{}")
        cases = [
            ("--budget 3 --results %s/a.csv" % d,
             "h5perf: --results '%s/a.csv': the advisor's answer is JSON: give a name ending "
             "in .json" % d),
            ("--results " + old,
             "h5perf: --results '%s': applies to --advise with --budget (nothing is measured "
             "without it)" % old),
            ("--budget 3 --results %s/no/a.json" % d,
             "h5perf: --results '%s/no/a.json': cannot write the advisor's answer there: No "
             "such file or directory" % d),
            ("--budget 3 --results %s/sub.json" % d,
             "h5perf: --results '%s/sub.json': is not a regular file (the advisor's answer "
             "replaces its file whole); give it a file of its own" % d),
        ]
        os.mkdir(os.path.join(d, "sub.json"))
        # A workload file whose name ends in .json (YAML reads JSON).
        wj = os.path.join(d, "w.json")
        with open(wj, "w") as fh:
            fh.write(SMALL)
        cases = [(w, a, l) for a, l in cases] + [
            (wj, "--budget 3 --results " + wj,
             "h5perf: --results '%s': is the workload file; give the advisor's answer a file "
             "of its own" % wj)]
        for path, args, line in cases:
            r = run(2, "--advise %s %s" % (path, args), env={"HDF5_PARAPREFIX": d},
                    exe=os.environ["ENGINE_NULL"])
            expect_eq((r.rc, r.h5perf_err, r.out), (2, [line], ""), args, r)
            expect_eq(listing(d), ["old.json", "w.json", "w.yaml"], "files after " + args, r)
            with open(old) as fh:
                expect_eq(fh.read(), "{}", "the existing file", r)
            with open(wj) as fh:
                expect_eq(fh.read(), SMALL, "the workload file", r)


HINTS = """arrays:
  - name: field
    global: [16, 16]
    decomposition: {grid: [2, 1]}
search:
  apis: [mpiio]
  layouts: [shared]
  alignments: [1]
  transfer_sizes: [whole]
  hints: {striping_factor: [4], h5perf_made_up: [x]}
"""
STRIPING = ("hints left out: striping_factor: the directory is on neither Lustre nor GPFS, "
            "where striping hints act")
OMPIO = ("hints left out: romio_cb_write, romio_cb_read: Open MPI's ompio, this launch's MPI-IO "
         "component, does not read ROMIO's hints (OMPI_MCA_io=romio321 selects ROMIO)")
UNREPORTED = ("hints left out: h5perf_made_up: this MPI-IO did not report it back for a scratch "
              "file (MPI_File_get_info)")


@case
def advise_hints_left_out():
    """The search's hints that cannot act in this launch are not
    candidates, one line per reason: striping hints off Lustre and GPFS
    (the test's directory is not on either); ROMIO's hints under Open MPI's
    ompio (its default component), kept under ROMIO (OMPI_MCA_io=romio321);
    under MPICH's ROMIO, which reports back only the hints it knows, a key
    it did not report for the scratch file. Open MPI reports back every
    key, so there a made-up key stays. No scratch file is left."""
    hydra = launcher_is_hydra()
    ios = [None] if hydra else [None, "romio321"]
    for io in ios:
        with TempDir() as d:
            path = os.path.join(d, "w.yaml")
            with open(path, "w") as fh:
                fh.write(HINTS)
            env = dict({"OMPI_MCA_io": io} if io else {}, HDF5_PARAPREFIX=d)
            r = run(2, "--advise " + path, env=env)
            expect_eq(r.rc, 0, "exit status (%s)" % io, r)
            left = [l for l in r.lines if l.startswith("hints left out: ")]
            search = [l for l in r.lines if l.startswith("search: ")]
            expect_eq(len(search), 1, "the search line", r)
            kept = search[0].split("; hints")[1].strip()
            if hydra:
                expect_eq(left, [STRIPING, UNREPORTED], "left out, MPICH", r)
                expect_eq(kept, "romio_cb_write=enable,disable,unset "
                          "romio_cb_read=enable,disable,unset", "kept, MPICH", r)
            elif io is None:
                expect_eq(left, [OMPIO, STRIPING], "left out, ompio", r)
                expect_eq(kept, "h5perf_made_up=x,unset", "kept, ompio", r)
            else:
                expect_eq(left, [STRIPING], "left out, romio321", r)
                expect_eq(kept, "romio_cb_write=enable,disable,unset "
                          "romio_cb_read=enable,disable,unset h5perf_made_up=x,unset",
                          "kept, romio321", r)
            expect_eq(listing(d), ["w.yaml"], "files left", r)


# Three tiers of POSIX candidates made by the fault shim (tests/tools/faults.c):
# each call on the shared file ("#pio_tmp_1.posix", suffix "_1.posix") waits
# 30 ms, so the baseline (1 KiB calls: 16 per process and phase, 1 s a
# sample) is slowest and the shared file in whole parts (one call, 0.06 s)
# next, 0.9 s apart: more than a sample stalls on a loaded machine (0.3 s
# seen with three of these cases at once). The files per process
# ("#pio_tmp_1.0.posix", "#pio_tmp_1.1.posix") wait nothing and are
# fastest, but the first byte process 1's file returns to a read is
# flipped, so their data never verifies, while their throughput is
# untouched: they stay the best. With two candidates besides the baseline
# the race ends after its first round; its budget lets that round give
# each the 6 samples of an interval at the baseline's cost
# (docs/advisor.md, "The race": 30 of its samples) even when a loaded
# machine makes a sample take twice as long or more.
UNVERIFIABLE = """arrays:
  - name: field
    global: [64, 64]
    decomposition: {grid: [2, 1]}
    read_back: true
baseline: {api: posix, layout: shared, transfer_size: 1K}
search:
  apis: [posix]
  layouts: [shared, fpp]
  align_data: [packed]
  transfer_sizes: [whole]
"""
SLOW_SHARED_CORRUPT_FPP = {"H5PERF_FAULT_SUFFIX": "_1.posix", "H5PERF_FAULT_DELAY_US": "30000",
                           "H5PERF_FAULT_READ_DELAY_US": "30000",
                           "H5PERF_CORRUPT_SUFFIX": ".1.posix", "H5PERF_CORRUPT_OFFSET": "0",
                           "H5PERF_CORRUPT_COUNT": "1"}


def states(rows):
    """[(candidate's options, state)] of the table's rows, best first."""
    out = []
    for x in rows:
        m = ROW.search(x)
        expect(m, "a row with a state: %r" % x)
        out.append((x[m.end():].strip(), m.group(2)))
    return out


@case
def advise_never_recommends_unverified_data():
    """The fastest candidate (a file per process) reads back corrupted
    bytes: it is tried with -D v, fails and is marked 'failed' in the
    table, still ranked first by its throughput; the recommendation is the
    next candidate, the shared file written in whole parts, whose data
    verified."""
    with TempDir() as d:
        env = dict(SLOW_SHARED_CORRUPT_FPP, LD_PRELOAD=os.environ["FAULTS"])
        r = advise(d, UNVERIFIABLE, "80", env=env)
        expect_eq(r.rc, 0, "exit status", r)
        (n, measured, spent, budget), rows, rec = answer(r)
        expect_eq((n, measured), (3, 3), "candidates measured", r)
        expect_eq(states(rows), [("-A posix --layout fpp", "failed"),
                                 ("-A posix --layout shared", "verified"),
                                 ("-A posix --layout shared --transfer-size 1K", "in race")],
                  "the table's rows and states", r)
        expect(rec[0].startswith("recommendation: ") and rec[0].endswith("its data verified"),
               "a recommendation", r)
        expect_eq(rec[1].strip(), "command: mpiexec -n 2 h5perf --pattern block --global 64x64 "
                  "--grid 2x1 --element-size 8 --vars 1 -A posix --layout shared",
                  "the recommended command", r)


@case
def advise_keeps_the_baseline_when_no_better_data_verifies():
    """The only candidate better than the baseline (a file per process) reads
    back corrupted bytes: it is marked 'failed' and the baseline is kept,
    with the line that says the better candidate did not verify."""
    with TempDir() as d:
        env = dict(SLOW_SHARED_CORRUPT_FPP, LD_PRELOAD=os.environ["FAULTS"])
        text = UNVERIFIABLE.replace("layouts: [shared, fpp]", "layouts: [fpp]")
        r = advise(d, text, "80", env=env)
        expect_eq(r.rc, 0, "exit status", r)
        (n, measured, spent, budget), rows, rec = answer(r)
        expect_eq(states(rows), [("-A posix --layout fpp", "failed"),
                                 ("-A posix --layout shared --transfer-size 1K", "in race")],
                  "the table's rows and states", r)
        expect_eq(rec[0], "recommendation: keep the baseline: the 1 candidate better than it did "
                  "not verify their data (-D v)", "recommendation", r)


EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                        "workloads")
TRACE_SPENT = re.compile(r"^traces\[0\] 'ior': (\d+) candidates, (\d+) measured"
                         r"(?: in \d+ rounds?|, the first round unfinished), "
                         r"([0-9.]+) s of the ([0-9.]+) s budget")


def recorded_figures(path):
    """{direction: (calls, bytes, seconds)} of a trace, read here."""
    out = {"write": [0, 0, 0.0], "read": [0, 0, 0.0]}
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if len(f) == 7 and f[2] in out:
                out[f[2]][0] += 1
                out[f[2]][1] += int(f[4])
                out[f[2]][2] += float(f[6])
    return out


@case
def advise_trace_example():
    """The advisor on examples/workloads/trace-ior.yaml (a trace of IOR's
    POSIX run, 4 processes; docs/advisor.md, "Traces") with a 20 s budget:
    exit 0, the race within the budget (10%), a recommendation (or the
    baseline kept) whose command replays the trace, and beside it the
    application's recorded throughput, exactly: each direction's bytes
    over the sum of its calls' seconds (MB/s, 10^6), computed here from the
    trace; the JSON answer valid, its set's recorded figures the same.
    Then a workload whose trace file is missing is refused with one line
    naming its key, exit 2."""
    workload = os.path.join(EXAMPLES, "trace-ior.yaml")
    trace = os.path.join(EXAMPLES, "..", "..", "tests", "data", "traces",
                         "ior-posix-contig.trace")
    fig = recorded_figures(trace)
    with TempDir() as d:
        advice = os.path.join(d, "advice.json")
        r = run(4, "--advise %s --budget 20 --results %s" % (workload, advice),
                env={"HDF5_PARAPREFIX": d}, timeout=240)
        expect_eq(r.rc, 0, "exit status", r)
        head = [m for m in (TRACE_SPENT.match(x) for x in r.lines) if m]
        expect_eq(len(head), 1, "one answer", r)
        spent, budget = float(head[0].group(3)), float(head[0].group(4))
        expect(spent <= 1.1 * budget, "spent %.2f s of the %.2f s budget" % (spent, budget), r)
        line = ("  recorded: the application's own throughput of a process, write %.2f MB/s, "
                "read %.2f MB/s (a direction's bytes over the sum of its calls' seconds, "
                "docs/trace.md)" % (fig["write"][1] / fig["write"][2] / 1e6,
                                    fig["read"][1] / fig["read"][2] / 1e6))
        expect(line in r.lines, "the line %r" % line, r)
        rec = [x for x in r.lines if x.startswith("recommendation")]
        expect_eq(len(rec), 1, "one recommendation", r)
        at = r.lines.index(rec[0])
        expect(r.lines.index(line) > at, "the recorded line after the recommendation", r)
        cmd = [x for x in r.lines[at:] if x.strip().startswith("command: ")]
        expect(cmd and "--pattern trace --trace " in cmd[0], "the command replays the trace", r)
        with open(advice) as fh:
            adv = json.load(fh)
        validate(adv, r)
        s = adv["sets"][0]
        expect_eq(s["key"], "traces[0]", "the set's key", r)
        for k in ("write", "read"):
            got = s["recorded"][k]
            expect_eq((got["calls"], got["bytes"]), tuple(fig[k][:2]), "recorded " + k, r)
            expect(near(got["mbs"], fig[k][1] / fig[k][2] / 1e6), "recorded %s MB/s" % k, r)
        with open(os.path.join(d, "w.yaml"), "w") as fh:
            fh.write("traces:\n  - name: app\n    trace: none.trace\n")
        r = run(4, "--advise %s" % os.path.join(d, "w.yaml"), env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err),
                  (2, ["h5perf: workload '%s', line 3, traces[0].trace: '%s' cannot be read: "
                       "No such file or directory" % (os.path.join(d, "w.yaml"),
                                                      os.path.join(d, "none.trace"))]),
                  "the missing trace refused", r)
