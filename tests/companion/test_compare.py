#!/usr/bin/env python3
"""companion_compare: h5perf-compare's verdicts and exit statuses.

Identical inputs, a 2x slowdown, a slowdown within the iterations' spread,
ok -> failed, failed in A, the threshold's boundary and the workload notes.
Standard library only, like the tool.
"""
import re
import tempfile
import unittest

import common

KIB, MIB = 1 << 10, 1 << 20
CONFIGS = 108  # sweep.json: 3 process counts x 3 sizes x 3 APIs x 4 data measures
WIDE = (1, MIB, "posix", "write")  # the configuration given a wide spread
FAILED = (2, 512 * KIB, "mpiio", "read")
SIZE = {256 * KIB: "256KiB", 512 * KIB: "512KiB", MIB: "1MiB"}


def row_key(key):
    p, x, api, m = key
    return (str(p), SIZE[x], api, m)


class Table:
    """h5perf-compare's stdout: rows by (procs, xfer, api, measure)."""

    def __init__(self, out):
        lines = out.splitlines()
        assert lines[0].startswith("A: ") and lines[1].startswith("B: ") and lines[2] == "", out
        self.header = lines[3]
        assert self.header.split() == ["procs", "xfer", "api", "measure", "A", "MiB/s", "B",
                                       "MiB/s", "B/A", "allowed", "verdict"], self.header
        self.lines = lines[4:-2]
        assert lines[-2] == "", out
        self.summary = lines[-1]
        self.rows = {}
        for line in self.lines:
            # Columns are joined by two spaces and no cell holds two in a
            # row; failed rows have empty B/A and allowed cells.
            f = re.split(" {2,}", line.strip())
            if len(f) == 7:
                f[6:6] = ["", ""]
            assert len(f) == 9, line
            self.rows[tuple(f[:4])] = f[4:]

    def verdict(self, key):
        return self.rows[row_key(key)][-1]

    def verdicts(self):
        return {r[-1].split(":")[0] for r in self.rows.values()}


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-compare-test-")
        cls.sweep = common.load(common.SWEEP)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def save(self, doc, name):
        return common.save(doc, self._tmp.name, name)

    def compare(self, a, b, *extra, rc, notes=()):
        r = common.run_tool("h5perf-compare", [a, b] + list(extra))
        self.assertEqual(r.rc, rc, r)
        self.assertEqual(r.err_lines, ["h5perf-compare: note: " + n for n in notes], r)
        return Table(r.out)

    def test_identical(self):
        t = self.compare(common.SWEEP, common.SWEEP, rc=0)
        self.assertEqual(len(t.rows), CONFIGS)
        self.assertEqual(t.summary, "0 regressions in %d configurations (threshold 10%%)" % CONFIGS)
        self.assertEqual(t.verdicts(), {"same"})
        self.assertTrue(all(r[2] == "1.00" for r in t.rows.values()))

    def test_two_times_slower_is_flagged_everywhere(self):
        b = self.save(common.slowed(self.sweep, 2.0), "slow2.json")
        t = self.compare(common.SWEEP, b, rc=1)
        self.assertEqual(t.summary, "%d regressions in %d configurations (threshold 10%%)" % (
            CONFIGS, CONFIGS))
        self.assertEqual(t.verdicts(), {"REGRESSION"})
        self.assertTrue(all(r[2] == "0.50" for r in t.rows.values()))
        # The reverse is an improvement, not a regression.
        t = self.compare(b, common.SWEEP, rc=0)
        self.assertEqual(t.verdicts(), {"faster"})

    def test_threshold_boundary(self):
        b = self.save(common.slowed(self.sweep, 2.0), "slow2b.json")
        # Half the throughput is a 50% drop: flagged at 49.5%, not at 50.5%.
        self.compare(common.SWEEP, b, "--threshold", "49.5%", rc=1)
        t = self.compare(common.SWEEP, b, "--threshold=50.5%", rc=0)
        self.assertEqual(t.summary, "0 regressions in %d configurations (threshold 50.5%%)" %
                         CONFIGS)

    def test_slowdown_within_the_spread_is_not_flagged(self):
        # Iterations of 1, 1.5 and 2 ms: the throughputs spread over 75% of
        # the median. 20% slower everywhere: only that configuration passes.
        a_doc = common.with_times(self.sweep, WIDE, [0.001, 0.0015, 0.002])
        a = self.save(a_doc, "wide.json")
        b = self.save(common.slowed(a_doc, 1.25), "wide-slow.json")
        t = self.compare(a, b, rc=1)
        self.assertEqual(t.verdict(WIDE), "same")
        self.assertEqual(t.rows[row_key(WIDE)][2:4], ["0.80", "75.0%"])
        others = [k for k in t.rows if k != row_key(WIDE)]
        self.assertEqual({t.rows[k][-1] for k in others}, {"REGRESSION"})
        self.assertEqual(t.summary, "%d regressions in %d configurations (threshold 10%%)" % (
            CONFIGS - 1, CONFIGS))
        # And slowed alone, it is no regression at all.
        b = self.save(common.slowed(a_doc, 1.25, only=WIDE), "wide-slow-one.json")
        self.assertEqual(self.compare(a, b, rc=0).verdict(WIDE), "same")

    def test_ok_then_failed_is_a_regression(self):
        b = self.save(common.failed_in(self.sweep, FAILED), "failed.json")
        t = self.compare(common.SWEEP, b, rc=1)
        self.assertEqual(t.verdict(FAILED), "REGRESSION: failed in B (io_error)")
        self.assertEqual(t.rows[row_key(FAILED)][:2], ["%.1f" % self.median(FAILED), "failed"])
        self.assertEqual(t.summary, "1 regression in %d configurations (threshold 10%%)" %
                         CONFIGS)

    def test_failed_in_a_is_skipped(self):
        a = self.save(common.failed_in(self.sweep, FAILED, "verify_failed"), "failed-a.json")
        t = self.compare(a, common.SWEEP, rc=0)
        self.assertEqual(t.verdict(FAILED), "skipped: failed in A (verify_failed)")
        self.assertEqual(t.summary, "0 regressions in %d configurations (threshold 10%%), "
                                    "1 skipped: failed in A" % CONFIGS)

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
            self.assertEqual(cells[:2], ["%.1f" % self.median((int(p), xb, api, m)),
                                         "failed" if median is None else "%.1f" % median])

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
        b = self.save(common.failed_in(self.sweep, FAILED), "aligned.json")
        r = common.run_tool("h5perf-compare", [common.SWEEP, b])
        t = Table(r.out)
        # Every verdict starts under the header's "verdict"; numbers end
        # under their column names.
        col = t.header.index("verdict")
        for line in t.lines:
            self.assertRegex(line[col:], r"^(same|faster|REGRESSION|skipped)", line)
            self.assertEqual(line[col - 1], " ", line)
        end = t.header.index("B/A") + len("B/A")
        for line in t.lines:
            self.assertTrue(re.match(r"^\d+\.\d\d$|^ *$", line[end - 4:end]), line)


if __name__ == "__main__":
    unittest.main(verbosity=2)
