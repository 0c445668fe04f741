#!/usr/bin/env python3
"""companion_compare: h5perf-compare's verdicts and exit statuses.

The rule (docs/companion.md): B regresses where its best iteration is below
A's worst by more than the threshold; faster is the mirror image; where
neither median time reaches --min-time the configuration is too short to
judge; failed in B is a regression whatever the time, failed in A skipped.
The committed fixtures last 1 to 11 ms a figure, so every test of the range
rule on them passes --min-time 0 or stretches them (x100: 0.11 to 1.1 s).
The block pattern's configurations (processes, API, layout, measure) are
compared by the same rule, on block.json, whose figures last 0.19 to 1.3 s,
and so are the particles pattern's, on particles.json (0.14 to 0.65 s).
Standard library only, like the tool.
"""
import copy
import re
import tempfile
import unittest

import checks
import common

KIB, MIB = 1 << 10, 1 << 20
CONFIGS = 108  # sweep.json: 3 process counts x 3 sizes x 3 APIs x 4 data measures
ONE = (1, MIB, "posix", "write")  # the configuration given chosen times
FAILED = (2, 512 * KIB, "mpiio", "read")
SIZE = {256 * KIB: "256KiB", 512 * KIB: "512KiB", MIB: "1MiB"}
SHORT = "too short to judge (< 0.1 s)"


class Table(checks.CompareTable):
    def row(self, key):
        p, x, api, m = key
        return self.rows[(str(p), SIZE[x], api, m)]


def summary(regressions, extra="", threshold="10%", min_time="0.1"):
    return "%d regression%s in %d configurations (threshold %s, minimum time %s s)%s" % (
        regressions, "" if regressions == 1 else "s", CONFIGS, threshold, min_time, extra)


class Comparing:
    """Mixin: a temporary directory for the variants, and compare(), which
    checks the exit status and the notes and returns the parsed table
    (TABLE)."""
    TABLE = Table

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-compare-test-")

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def save(self, doc, name):
        return common.save(doc, self._tmp.name, name)

    def compare(self, a, b, *extra, rc, notes=()):
        r = common.run_tool("h5perf-compare", [a, b] + list(extra))
        self.assertEqual(r.rc, rc, r)
        self.assertEqual(r.err_lines, ["h5perf-compare: note: " + n for n in notes], r)
        return self.TABLE(r.out)


class Compare(Comparing, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.sweep = common.load(common.SWEEP)
        # The same runs on storage 100 times slower: every figure lasts long
        # enough to be judged with the default minimum time.
        cls.long_doc = common.slowed(cls.sweep, 100.0)
        cls.long = common.save(cls.long_doc, cls._tmp.name, "long.json")

    def one(self, a_times, b_times, *extra, rc):
        """A and B that differ from the long variant only in ONE's iteration
        times; returns ONE's row and the summary."""
        a = self.save(common.with_times(self.long_doc, ONE, a_times), "a.json")
        b = self.save(common.with_times(self.long_doc, ONE, b_times), "b.json")
        t = self.compare(a, b, *extra, rc=rc)
        return t.row(ONE), t.summary

    def assert_oracle(self, t, a_doc, b_doc, threshold, min_time):
        for (p, x, api, m), cells in t.rows.items():
            xb = {v: k for k, v in SIZE.items()}[x]
            ra = common.find_run(a_doc, int(p), xb, api)
            rb = common.find_run(b_doc, int(p), xb, api)
            want = common.expected_verdict(ra, common.find_measure(ra, m), rb,
                                           common.find_measure(rb, m), threshold, min_time)
            self.assertEqual(cells["verdict"], want, (p, x, api, m))

    # --- the minimum time ---------------------------------------------------

    def test_identical_short_figures_are_too_short(self):
        t = self.compare(common.SWEEP, common.SWEEP, rc=0)
        self.assertEqual(len(t.rows), CONFIGS)
        self.assertEqual(t.verdicts(), {SHORT})
        self.assertEqual(t.summary, summary(0, ", 108 too short to judge"))
        # The numbers are shown all the same.
        self.assertTrue(all(r["B/A"] == "1.00" for r in t.rows.values()))
        t = self.compare(common.SWEEP, common.SWEEP, "--min-time", "0", rc=0)
        self.assertEqual(t.verdicts(), {"same"})
        self.assertEqual(t.summary, summary(0, min_time="0"))

    def test_halved_short_figures_are_not_judged(self):
        # The review's case: milliseconds twice as long are noise.
        b = self.save(common.slowed(self.sweep, 2.0), "slow2-short.json")
        t = self.compare(common.SWEEP, b, rc=0)
        self.assertEqual(t.verdicts(), {SHORT})
        self.assertTrue(all(r["B/A"] == "0.50" for r in t.rows.values()))
        self.assertEqual(t.summary, summary(0, ", 108 too short to judge"))

    def test_too_short_when_neither_median_reaches_the_minimum(self):
        # Medians 21 and 41 ms, ranges far apart.
        a, b = [0.020, 0.021, 0.022], [0.040, 0.041, 0.042]
        row, s = self.one(a, b, rc=0)
        self.assertEqual((row["verdict"], row["time"]), (SHORT, "0.0410"))
        self.assertEqual(s, summary(0, ", 1 too short to judge"))
        # B's median reaching the minimum is enough: judged.
        row, s = self.one(a, b, "--min-time", "0.041", rc=1)
        self.assertEqual(row["verdict"], "REGRESSION")
        self.assertEqual(s, summary(1, min_time="0.041"))
        row, _ = self.one(a, b, "--min-time=0.0411", rc=0)
        self.assertEqual(row["verdict"], "too short to judge (< 0.0411 s)")
        # Either side: A's median reaching it is enough too (B faster).
        row, _ = self.one(b, a, "--min-time", "0.041", rc=0)
        self.assertEqual(row["verdict"], "faster")

    # --- the ranges -----------------------------------------------------------

    def test_overlapping_ranges_are_not_a_regression(self):
        # Medians 0.25 and 0.30 s (B/A 0.83, a 17% drop), but B's best
        # iteration (0.26 s) is faster than A's worst (0.30 s).
        a, b = [0.20, 0.25, 0.30], [0.26, 0.30, 0.36]
        row, s = self.one(a, b, rc=0)
        self.assertEqual((row["B/A"], row["verdict"]), ("0.83", "same"))
        self.assertEqual(s, summary(0))
        row, _ = self.one(b, a, rc=0)
        self.assertEqual(row["verdict"], "same")

    def test_ranges_apart_by_more_than_the_threshold(self):
        # B's best 0.25 s, A's worst 0.22 s: B's best throughput is 12% below
        # A's worst.
        a, b = [0.20, 0.21, 0.22], [0.26, 0.27, 0.25]
        row, s = self.one(a, b, rc=1)
        self.assertEqual(row["verdict"], "REGRESSION")
        self.assertEqual(s, summary(1))
        # ONE moves 1 MiB: its MiB/s are 1 / seconds.
        self.assertEqual((row["A"], row["A range"], row["B range"], row["time"]), (
            "%.1f" % (1 / 0.21), "%.1f..%.1f" % (1 / 0.22, 1 / 0.20),
            "%.1f..%.1f" % (1 / 0.27, 1 / 0.25), "0.2600"))
        # Mirror image: the same ranges the other way round are faster.
        row, _ = self.one(b, a, rc=0)
        self.assertEqual(row["verdict"], "faster")
        # 12% apart is within a 12.5% threshold.
        row, _ = self.one(a, b, "--threshold", "12.5%", rc=0)
        self.assertEqual(row["verdict"], "same")

    def test_ranges_apart_by_less_than_the_threshold(self):
        # Medians 0.21 and 0.245 s (a 14% drop); B's best (0.24 s) is 8.3%
        # below A's worst (0.22 s).
        row, _ = self.one([0.20, 0.21, 0.22], [0.24, 0.245, 0.25], rc=0)
        self.assertEqual(row["verdict"], "same")

    # --- the 95% intervals of the medians (6 iterations or more) -------------

    def test_intervals_apart_decide_where_ranges_overlap(self):
        # Nine iterations each, eight alike and an outlier: A's slow one
        # (0.40 s) and B's fast one (0.10 s) make the ranges overlap, but
        # the intervals of the medians, [x(2), x(8)], leave them out: A's
        # is 0.20 s exactly, B's 0.24 s, B 17% slower.
        a, b = [0.20] * 8 + [0.40], [0.24] * 8 + [0.10]
        row, s = self.one(a, b, rc=1)
        self.assertEqual(row["verdict"], "REGRESSION (95% intervals apart)")
        self.assertEqual(s, summary(1, ", 1 judged by the 95% intervals of their medians"))
        row, _ = self.one(b, a, rc=0)
        self.assertEqual(row["verdict"], "faster (95% intervals apart)")
        # 17% apart is within a 20% threshold.
        row, _ = self.one(a, b, "--threshold", "20%", rc=0)
        self.assertEqual(row["verdict"], "same")
        # Five iterations have no 95% interval: the ranges decide, and
        # they overlap.
        row, s = self.one(a[4:], b[4:], rc=0)
        self.assertEqual((row["verdict"], s), ("same", summary(0)))

    def test_overlapping_intervals_are_the_same(self):
        # Six iterations: the interval is the whole range (coverage 97%).
        row, _ = self.one([0.20, 0.21, 0.22, 0.23, 0.24, 0.25],
                          [0.22, 0.23, 0.24, 0.25, 0.26, 0.27], rc=0)
        self.assertEqual(row["verdict"], "same")

    def test_one_iteration_is_the_plain_threshold(self):
        # A point is its own range: 0.2 s against 0.25 s is a 20% drop.
        row, _ = self.one([0.2], [0.25], "--threshold", "19.5%", rc=1)
        self.assertEqual((row["B/A"], row["verdict"]), ("0.80", "REGRESSION"))
        row, _ = self.one([0.2], [0.25], "--threshold", "20.5%", rc=0)
        self.assertEqual(row["verdict"], "same")
        row, _ = self.one([0.25], [0.2], "--threshold", "19.5%", rc=0)
        self.assertEqual(row["verdict"], "faster")

    def test_two_times_slower_is_flagged_everywhere(self):
        # The iterations of each figure are within 6% of each other.
        b = self.save(common.slowed(self.long_doc, 2.0), "long-slow2.json")
        t = self.compare(self.long, b, rc=1)
        self.assertEqual(t.summary, summary(CONFIGS))
        self.assertEqual(t.verdicts(), {"REGRESSION"})
        self.assertTrue(all(r["B/A"] == "0.50" for r in t.rows.values()))
        t = self.compare(b, self.long, rc=0)
        self.assertEqual(t.verdicts(), {"faster"})
        # Short figures are judged the same way when asked to.
        b = self.save(common.slowed(self.sweep, 2.0), "slow2.json")
        t = self.compare(common.SWEEP, b, "--min-time", "0", rc=1)
        self.assertEqual(t.summary, summary(CONFIGS, min_time="0"))

    def test_every_configuration_agrees_with_the_oracle(self):
        # 15% slower everywhere: flagged only where A's own iterations are
        # within 3.5% of each other (max/min < 0.9 x 1.15), about half.
        slow = common.slowed(self.long_doc, 1.15)
        t = self.compare(self.long, self.save(slow, "long-slow115.json"), rc=1)
        self.assertEqual(t.verdicts(), {"REGRESSION", "same"})
        self.assert_oracle(t, self.long_doc, slow, 0.10, "0.1")
        # And the other way round, faster where max/min < 0.88 x 1.15.
        t = self.compare(self.save(slow, "long-slow115b.json"), self.long, "--threshold", "12%",
                         rc=0)
        self.assertEqual(t.verdicts(), {"faster", "same"})
        self.assert_oracle(t, slow, self.long_doc, 0.12, "0.1")

    # --- failures -------------------------------------------------------------

    def test_ok_then_failed_is_a_regression_however_short(self):
        b = self.save(common.failed_in(self.sweep, FAILED), "failed.json")
        t = self.compare(common.SWEEP, b, rc=1)
        row = t.row(FAILED)
        self.assertEqual(row["verdict"], "REGRESSION: failed in B (io_error)")
        self.assertEqual((row["A"], row["B"], row["B range"], row["B/A"], row["time"]),
                         ("%.1f" % self.median(FAILED), "failed", "", "", ""))
        self.assertEqual(t.summary, summary(1, ", 107 too short to judge"))

    def test_failed_in_a_is_skipped(self):
        a = self.save(common.failed_in(self.sweep, FAILED, "verify_failed"), "failed-a.json")
        t = self.compare(a, common.SWEEP, rc=0)
        self.assertEqual(t.row(FAILED)["verdict"], "skipped: failed in A (verify_failed)")
        self.assertEqual(t.summary, summary(0, ", 107 too short to judge, 1 skipped: failed in A"))
        a = self.save(common.failed_in(self.long_doc, FAILED, "verify_failed"), "failed-la.json")
        t = self.compare(a, self.long, rc=0)
        self.assertEqual(t.summary, summary(0, ", 1 skipped: failed in A"))

    # --- the table and the notes --------------------------------------------

    def test_medians_are_the_oracles(self):
        t = self.compare(common.SWEEP, common.FAILURE, rc=1, notes=[
            "bytes_per_process differs: '1MiB' in A, '2MiB' in B",
            "block_size differs: '256KiB' in A, '512KiB' in B",
            "84 configurations only in A, not compared",
            "12 configurations only in B, not compared"])
        failure = common.load(common.FAILURE)
        self.assertEqual(len(t.rows), 24)
        for (p, x, api, m), cells in t.rows.items():
            xb = {v: k for k, v in SIZE.items()}[x]
            run = common.find_run(failure, int(p), xb, api)
            median = common.expected_median(run, common.find_measure(run, m))
            self.assertEqual([cells["A"], cells["B"]],
                             ["%.1f" % self.median((int(p), xb, api, m)),
                              "failed" if median is None else "%.1f" % median])
        self.assert_oracle(t, self.sweep, failure, 0.10, "0.1")

    def median(self, key):
        run = common.find_run(self.sweep, *key[:3])
        return common.expected_median(run, common.find_measure(run, key[3]))

    def test_workload_differences_are_noted_but_compared(self):
        doc = common.slowed(self.sweep, 1.0)
        doc["config"].update(layout="interleaved", io_mode="collective", num_files=2, fsync=True)
        t = self.compare(common.SWEEP, self.save(doc, "workload.json"), rc=0, notes=[
            "layout differs: 'contiguous' in A, 'interleaved' in B",
            "io_mode differs: 'independent' in A, 'collective' in B",
            "num_files differs: '1' in A, '2' in B",
            "fsync differs: 'false' in A, 'true' in B"])
        self.assertEqual(len(t.rows), CONFIGS)

    def test_table_is_aligned(self):
        a = self.save(common.failed_in(self.long_doc, (1, MIB, "phdf5", "read")), "aligned-a.json")
        b = self.save(common.failed_in(common.slowed(self.long_doc, 2.0), FAILED), "aligned.json")
        r = common.run_tool("h5perf-compare", [a, b, "--min-time", "0.3"])
        t = Table(r.out)
        self.assertEqual(t.verdicts(), {
            "REGRESSION", "REGRESSION: failed in B (io_error)", "skipped: failed in A (io_error)",
            "too short to judge (< 0.3 s)"}, r)
        # Every verdict starts under the header's "verdict"; numbers end
        # under their column names.
        col = t.header.index("verdict")
        for line in t.lines:
            self.assertRegex(line[col:], r"^(same|faster|REGRESSION|skipped|too short)", line)
            self.assertEqual(line[col - 1], " ", line)
        for name, number in (("B/A", r"\d+\.\d\d"), ("time s", r"\d+\.\d{4}"),
                             ("A min..max", r"\d+\.\d\.\.\d+\.\d"),
                             ("B MiB/s", r"\d+\.\d|failed")):
            end = t.header.index(name) + len(name)
            for line in t.lines:
                self.assertRegex(line[:end], r"(^| )(%s)?$" % number, (name, line))


# --- the block pattern ----------------------------------------------------------
# block.json: every figure 0.19 to 1.3 s, its iterations within 6% of each
# other, so the defaults judge every configuration.

BLOCK_CONFIGS = 108  # 3 process counts x 3 layouts x 3 APIs x 4 data measures
BLOCK_FAILED = (2, 128 * MIB, "phdf5", "read", "shared")
LAYOUTS = ("shared", "chunked", "fpp")
APIS = ("posix", "mpiio", "phdf5")
DATA = ("write", "write_open_close", "read", "read_open_close")


class BlockTable(checks.CompareTable):
    def __init__(self, out):
        super().__init__(out, block=True)

    def row(self, key):
        p, _, api, m, layout = key
        return self.rows[(str(p), api, layout, m)]


def block_run(doc, p, api, layout):
    return next(r for r in doc["runs"] if (r["processes"], r["api"], r["layout"]) ==
                (p, api, layout))


def block_summary(regressions, configs=BLOCK_CONFIGS):
    return "%d regression%s in %d configurations (threshold 10%%, minimum time 0.1 s)" % (
        regressions, "" if regressions == 1 else "s", configs)


class BlockCompare(Comparing, unittest.TestCase):
    """Configurations are (processes, API, layout, measure): the table has a
    layout column and no transfer size; the rule is the guide's."""
    TABLE = BlockTable

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.doc = common.load(common.BLOCK)

    def assert_oracle(self, t, a_doc, b_doc):
        for (p, api, layout, m), cells in t.rows.items():
            ra, rb = (block_run(d, int(p), api, layout) for d in (a_doc, b_doc))
            ma, mb = common.find_measure(ra, m), common.find_measure(rb, m)
            self.assertEqual(cells["verdict"],
                             common.expected_verdict(ra, ma, rb, mb, 0.10, "0.1"), (p, api, layout))
            for side, run, measure in (("A", ra, ma), ("B", rb, mb)):
                median = common.expected_median(run, measure)
                self.assertEqual(cells[side], "failed" if median is None else "%.1f" % median)

    def test_itself_is_the_same(self):
        t = self.compare(common.BLOCK, common.BLOCK, rc=0)
        # In run order: by process count, then API, then layout, as the
        # block report's rows.
        self.assertEqual([tuple(re.split(" {2,}", line.strip())[:4]) for line in t.lines],
                         [(str(p), api, layout, m) for p in (1, 2, 4) for api in APIS
                          for layout in LAYOUTS for m in DATA])
        self.assertEqual(t.verdicts(), {"same"})
        self.assertEqual(t.summary, block_summary(0))
        self.assert_oracle(t, self.doc, self.doc)

    def test_doubled_time_is_a_regression_everywhere(self):
        slow = common.slowed(self.doc, 2.0)
        t = self.compare(common.BLOCK, self.save(slow, "slow2.json"), rc=1)
        self.assertEqual(t.summary, block_summary(BLOCK_CONFIGS))
        self.assertEqual(t.verdicts(), {"REGRESSION"})
        self.assertTrue(all(r["B/A"] == "0.50" for r in t.rows.values()))
        self.assert_oracle(t, self.doc, slow)
        t = self.compare(self.save(slow, "slow2a.json"), common.BLOCK, rc=0)
        self.assertEqual(t.verdicts(), {"faster"})

    def test_one_layout_slowed(self):
        slow = common.slowed(self.doc, 2.0, runs=lambda r: r["layout"] == "shared")
        t = self.compare(common.BLOCK, self.save(slow, "shared2.json"), rc=1)
        self.assertEqual(t.summary, block_summary(36))
        self.assertEqual({k for k, r in t.rows.items() if r["verdict"] == "REGRESSION"},
                         {k for k in t.rows if k[2] == "shared"})
        self.assertEqual({r["verdict"] for k, r in t.rows.items() if k[2] != "shared"}, {"same"})
        self.assert_oracle(t, self.doc, slow)

    def test_failed_in_b(self):
        failed = common.failed_in(self.doc, BLOCK_FAILED)
        t = self.compare(common.BLOCK, self.save(failed, "failed.json"), rc=1)
        self.assertEqual(t.row(BLOCK_FAILED)["verdict"], "REGRESSION: failed in B (io_error)")
        self.assertEqual(t.summary, block_summary(1))
        self.assert_oracle(t, self.doc, failed)

    def test_another_array_is_compared_with_a_note(self):
        # Twice the array: each run moves twice the bytes in twice the time,
        # with twice the transfer size (a process's block). The transfer
        # size is not part of a configuration: all 108 are compared.
        big = common.slowed(self.doc, 2.0)
        big["config"]["block"]["global"] = [512, 512, 512]
        for run in big["runs"]:
            run["transfer_size"] *= 2
            run["bytes"] *= 2
            for m in run["measures"]:
                for s in m["samples"]:
                    s["bytes"] *= 2
                common.resummarize(run, m)
        t = self.compare(common.BLOCK, self.save(big, "big.json"), rc=0, notes=[
            "global differs: '512x512x256' in A, '512x512x512' in B"])
        self.assertEqual(len(t.rows), BLOCK_CONFIGS)
        self.assertEqual(t.verdicts(), {"same"})
        self.assertTrue(all(r["B/A"] == "1.00" for r in t.rows.values()))

    def test_workload_differences_are_noted(self):
        doc = common.slowed(self.doc, 1.0)
        doc["config"].update(io_mode="collective", fsync=True)
        doc["config"]["block"].update(element_size=8, vars=1, grid=[4, 1, 1],
                                      read_grid=[1, 2, 2])
        t = self.compare(common.BLOCK, self.save(doc, "workload.json"), rc=0, notes=[
            "io_mode differs: 'independent' in A, 'collective' in B",
            "element_size differs: '4' in A, '8' in B",
            "vars differs: '2' in A, '1' in B",
            "grid differs: 'not given' in A, '4x1x1' in B",
            "read_grid differs: 'not given' in A, '1x2x2' in B",
            "fsync differs: 'false' in A, 'true' in B"])
        self.assertEqual(len(t.rows), BLOCK_CONFIGS)

    def test_layouts_in_one_file_only(self):
        doc = copy.deepcopy(self.doc)
        doc["runs"] = [r for r in doc["runs"] if r["layout"] != "chunked"]
        doc["config"]["block"]["layouts"] = ["shared", "fpp"]
        two = self.save(doc, "two-layouts.json")
        t = self.compare(two, common.BLOCK, rc=0,
                         notes=["36 configurations only in B, not compared"])
        self.assertEqual(len(t.rows), 72)
        self.assertEqual({k[2] for k in t.rows}, {"shared", "fpp"})
        self.assertEqual(t.summary, block_summary(0, 72))
        self.compare(common.BLOCK, two, rc=0, notes=["36 configurations only in A, not compared"])



# --- the particles pattern ------------------------------------------------------
# particles.json: keyed as the block pattern's, with two layouts; every figure
# 0.14 to 0.65 s, its iterations within 6% of each other.

PARTICLES_CONFIGS = 72  # 3 process counts x 2 layouts x 3 APIs x 4 data measures
PARTICLES_FAILED = (4, 24 * MIB, "mpiio", "write", "fpp")
PARTICLE_LAYOUTS = ("shared", "fpp")
VARS = "x,y,z,px,py,pz,id_1,id_2"


class ParticlesCompare(Comparing, unittest.TestCase):
    """Configurations are (processes, API, layout, measure), as the block
    pattern's; a difference of distribution, mean count, seed or variables
    is noted and the runs are compared all the same."""
    TABLE = BlockTable

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.doc = common.load(common.PARTICLES)

    def assert_oracle(self, t, a_doc, b_doc):
        BlockCompare.assert_oracle(self, t, a_doc, b_doc)

    def test_itself_is_the_same(self):
        t = self.compare(common.PARTICLES, common.PARTICLES, rc=0)
        self.assertEqual([tuple(re.split(" {2,}", line.strip())[:4]) for line in t.lines],
                         [(str(p), api, layout, m) for p in (1, 2, 4) for api in APIS
                          for layout in PARTICLE_LAYOUTS for m in DATA])
        self.assertEqual(t.verdicts(), {"same"})
        self.assertEqual(t.summary, block_summary(0, PARTICLES_CONFIGS))
        self.assert_oracle(t, self.doc, self.doc)

    def test_doubled_time_is_a_regression_everywhere(self):
        slow = common.slowed(self.doc, 2.0)
        t = self.compare(common.PARTICLES, self.save(slow, "slow2.json"), rc=1)
        self.assertEqual(t.summary, block_summary(PARTICLES_CONFIGS, PARTICLES_CONFIGS))
        self.assertEqual(t.verdicts(), {"REGRESSION"})
        self.assertTrue(all(r["B/A"] == "0.50" for r in t.rows.values()))
        self.assert_oracle(t, self.doc, slow)
        t = self.compare(self.save(slow, "slow2a.json"), common.PARTICLES, rc=0)
        self.assertEqual(t.verdicts(), {"faster"})

    def test_shared_file_slowed(self):
        slow = common.slowed(self.doc, 2.0, runs=lambda r: r["layout"] == "shared")
        t = self.compare(common.PARTICLES, self.save(slow, "shared2.json"), rc=1)
        self.assertEqual(t.summary, block_summary(36, PARTICLES_CONFIGS))
        self.assertEqual({k for k, r in t.rows.items() if r["verdict"] == "REGRESSION"},
                         {k for k in t.rows if k[2] == "shared"})
        self.assert_oracle(t, self.doc, slow)

    def test_failed_in_b(self):
        failed = common.failed_in(self.doc, PARTICLES_FAILED)
        t = self.compare(common.PARTICLES, self.save(failed, "failed.json"), rc=1)
        self.assertEqual(t.row(PARTICLES_FAILED)["verdict"], "REGRESSION: failed in B (io_error)")
        self.assertEqual(t.rows[("4", "mpiio", "fpp", "write")]["B"], "failed")
        self.assertEqual(t.summary, block_summary(1, PARTICLES_CONFIGS))
        self.assert_oracle(t, self.doc, failed)

    def test_another_distribution_is_compared_with_a_note(self):
        # The same times with each process holding the mean: the same
        # particles in all, so the same bytes and throughputs, but other
        # transfer sizes (the largest process holds N, not 1.5 N). The
        # transfer size is not part of a configuration: all 72 are compared.
        uniform = common.uniform_particles(self.doc)
        self.assertNotEqual({r["transfer_size"] for r in uniform["runs"]},
                            {r["transfer_size"] for r in self.doc["runs"]})
        t = self.compare(common.PARTICLES, self.save(uniform, "uniform.json"), rc=0, notes=[
            "distribution differs: 'imbalance:0.5' in A, 'uniform' in B"])
        self.assertEqual(len(t.rows), PARTICLES_CONFIGS)
        self.assertEqual({r["B/A"] for r in t.rows.values()}, {"1.00"})
        self.assertEqual(t.verdicts(), {"same"})
        self.assert_oracle(t, self.doc, uniform)

    def test_workload_differences_are_noted(self):
        doc = common.slowed(self.doc, 1.0)
        doc["config"].update(io_mode="collective", fsync=True)
        doc["config"]["particles"].update(per_process=None, distribution="list:2,0,6,8", seed=None,
                                          vars=["x", "y", "z"])
        t = self.compare(common.PARTICLES, self.save(doc, "workload.json"), rc=0, notes=[
            "io_mode differs: 'independent' in A, 'collective' in B",
            "per_process differs: '4194304' in A, 'not given' in B",
            "distribution differs: 'imbalance:0.5' in A, 'list:2,0,6,8' in B",
            "vars differs: '%s' in A, 'x,y,z' in B" % VARS,
            "fsync differs: 'false' in A, 'true' in B"])
        self.assertEqual(len(t.rows), PARTICLES_CONFIGS)
        doc["config"]["particles"].update(per_process=4194304, distribution="normal:300", seed=1,
                                          vars=["x"])
        doc["config"].update(io_mode="independent", fsync=False)
        self.compare(self.save(doc, "normal.json"), common.PARTICLES, rc=0, notes=[
            "distribution differs: 'normal:300' in A, 'imbalance:0.5' in B",
            "seed differs: '1' in A, 'none' in B",
            "vars differs: 'x' in A, '%s' in B" % VARS])

    def test_a_layout_in_one_file_only(self):
        doc = copy.deepcopy(self.doc)
        doc["runs"] = [r for r in doc["runs"] if r["layout"] != "fpp"]
        doc["config"]["particles"]["layouts"] = ["shared"]
        shared = self.save(doc, "shared-only.json")
        t = self.compare(common.PARTICLES, shared, rc=0,
                         notes=["36 configurations only in A, not compared"])
        self.assertEqual(len(t.rows), 36)
        self.assertEqual({k[2] for k in t.rows}, {"shared"})
        self.assertEqual(t.summary, block_summary(0, 36))



# --- placed runs ------------------------------------------------------------------
# particles-placed.json: --align-data 4K,1M --shift 0,512 at 1 and 2 processes;
# POSIX and MPI-IO on the shared layout ran at each of the 4 placements.

PLACED_CONFIGS = 96  # 2 process counts x (2 APIs x 4 placements + 4 packed runs) x 4
PLACEMENTS = [("4K", "0"), ("4K", "512"), ("1M", "0"), ("1M", "512")]


class PlacedTable(checks.CompareTable):
    def __init__(self, out):
        super().__init__(out, placed=True)


def placed_run(doc, p, api, layout, align, shift):
    size = {"packed": 0, "4K": 4096, "1M": 1 << 20}
    return next(r for r in doc["runs"] if (r["processes"], r["api"], r["layout"],
                                           common.placement_of(r)) ==
                (p, api, layout, (size[align], int(shift))))


class PlacedCompare(Comparing, unittest.TestCase):
    """Configurations of placed runs are (processes, API, layout, align,
    shift, measure): each placement is compared with the same placement,
    in two more columns."""
    TABLE = PlacedTable

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.doc = common.load(common.PARTICLES_PLACED)

    def test_itself_is_the_same_run_by_run(self):
        t = self.compare(common.PARTICLES_PLACED, common.PARTICLES_PLACED, rc=0)
        expected = []
        for p in (1, 2):
            for api in APIS:
                for layout in PARTICLE_LAYOUTS:
                    placed = api != "phdf5" and layout == "shared"
                    for align, shift in PLACEMENTS if placed else [("packed", "0")]:
                        expected += [(str(p), api, layout, align, shift, m) for m in DATA]
        self.assertEqual([tuple(re.split(" {2,}", line.strip())[:6]) for line in t.lines],
                         expected)
        self.assertEqual(t.summary, block_summary(0, PLACED_CONFIGS))
        for (p, api, layout, align, shift, m), cells in t.rows.items():
            run = placed_run(self.doc, int(p), api, layout, align, shift)
            median = common.expected_median(run, common.find_measure(run, m))
            self.assertEqual((cells["A"], cells["B"]), ("%.1f" % median,) * 2)

    def test_one_placement_slowed_is_flagged_alone(self):
        slow = common.slowed(self.doc, 2.0, runs=lambda r: (
            r["api"], common.placement_of(r)) == ("posix", (4096, 512)))
        t = self.compare(common.PARTICLES_PLACED, self.save(slow, "slow.json"), rc=1)
        self.assertEqual({k for k, r in t.rows.items() if r["verdict"] == "REGRESSION"},
                         {(str(p), "posix", "shared", "4K", "512", m)
                          for p in (1, 2) for m in DATA})
        self.assertEqual(t.summary, block_summary(8, PLACED_CONFIGS))

    def test_placed_against_unplaced_compares_only_the_same_runs(self):
        # particles.json ran packed: its POSIX and MPI-IO shared runs are
        # not the placed ones; HDF5 and fpp (packed in both) are compared,
        # at 2 processes (B also ran 1).
        packed = self.save(common.only_processes(common.load(common.PARTICLES), 2), "p2.json")
        t = self.compare(packed, common.PARTICLES_PLACED, rc=0, notes=[
            "align_data differs: 'not given' in A, '4K,1M' in B",
            "shift differs: 'not given' in A, '0,512' in B",
            "8 configurations only in A, not compared",
            "80 configurations only in B, not compared"])
        self.assertEqual({k[:5] for k in t.rows},
                         {("2", api, layout, "packed", "0") for api, layout in (
                             ("posix", "fpp"), ("mpiio", "fpp"), ("phdf5", "shared"),
                             ("phdf5", "fpp"))})
        self.assertEqual(len(t.rows), 16)

    def test_unplaced_outputs_are_unchanged(self):
        # A build that writes empty lists and packed runs gives the output
        # of an earlier build's file, byte for byte.
        for path in (common.PARTICLES, common.BLOCK):
            new = self.save(common.unplaced_new_build(common.load(path)), "new.json")
            old = common.run_tool("h5perf-compare", [path, path])
            r = common.run_tool("h5perf-compare", [new, new])
            self.assertEqual((r.rc, r.err), (old.rc, old.err), path)
            self.assertEqual(r.out.splitlines()[2:], old.out.splitlines()[2:], path)
            r = common.run_tool("h5perf-compare", [path, new])
            self.assertEqual((r.rc, r.err), (0, ""), path)


if __name__ == "__main__":
    unittest.main(verbosity=2)
