#!/usr/bin/env python3
"""companion_results: tools/h5perf_results.py, the shared reading module.

Table-driven: size labels, short names, statistics of known times, and the
light check's one-line message for each kind of broken document.
"""
import copy
import json
import os
import sys
import tempfile
import unittest

import common

sys.path.insert(0, common.TOOLS)
import h5perf_results as hr  # noqa: E402


class Sizes(unittest.TestCase):
    def test_format_size(self):
        for n, text in ((1, "1B"), (1023, "1023B"), (1024, "1KiB"), (4096, "4KiB"),
                        (1536, "1.5KiB"), (1 << 20, "1MiB"), (3 << 19, "1.5MiB"),
                        (256 << 10, "256KiB"), (1 << 30, "1GiB"), (16 << 30, "16GiB"),
                        (1000, "1000B")):
            self.assertEqual(hr.format_size(n), text, n)

    def test_short_names(self):
        self.assertEqual(hr.short_names(["a/run.json", "b/ext4.json"]), ["run", "ext4"])
        self.assertEqual(hr.short_names(["x/lustre/run.json", "x/gpfs/run.json"]),
                         ["lustre/run", "gpfs/run"])
        self.assertEqual(hr.short_names(["d/run.json", "d/run.json"]), ["d/run", "d/run #2"])


class Statistics(unittest.TestCase):
    def stats(self, times, status="ok", measure="write", nbytes=8 * hr.MIB):
        run = {"bytes": nbytes}
        m = {"measure": measure, "status": status, "samples": [
            {"status": "ok", "seconds": {"slowest": t}} for t in times]}
        return hr.measure_stats(run, m)

    def test_median_min_max(self):
        s = self.stats([2.0, 1.0, 4.0])
        self.assertTrue(s.ok)
        self.assertEqual((s.median, s.max, s.min), (4.0, 8.0, 2.0))
        self.assertEqual((s.iterations, s.median_seconds), (3, 2.0))

    def test_even_iterations_use_the_median_time(self):
        # As h5perf's summary: the throughput of the median time (1.5 s).
        self.assertAlmostEqual(self.stats([1.0, 2.0]).median, 8.0 / 1.5)

    def test_failed_measure_has_no_numbers(self):
        s = self.stats([1.0], status="io_error")
        self.assertFalse(s.ok)
        self.assertEqual(s.failure, "io_error")
        self.assertIsNone(s.median)
        self.assertEqual(self.stats([]).failure, "no iterations")

    def test_open_close_times_have_no_throughput(self):
        s = self.stats([0.5], measure="write_open")
        self.assertTrue(s.ok)
        self.assertIsNone(s.median)
        self.assertEqual(s.median_seconds, 0.5)

    def test_zero_time_is_zero_throughput_as_h5perf(self):
        self.assertEqual(hr.mib_per_s(1 << 20, 0.0), 0.0)


def broken(edit):
    doc = common.load(common.FAILURE)
    edit(doc)
    return doc


def set_path(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def delete_path(doc, path):
    for k in path[:-1]:
        doc = doc[k]
    del doc[path[-1]]


# (what is broken, the edit, a fragment of the expected message)
BROKEN = [
    ("not an object", lambda d: d.clear() or d.update({"x": 1}), "not an h5perf results document"),
    ("other schema", lambda d: set_path(d, ["schema"], "fio"), "not an h5perf results document"),
    ("version 3", lambda d: set_path(d, ["schema_version"], 3), "unsupported schema_version 3"),
    ("version true", lambda d: set_path(d, ["schema_version"], True),
     "unsupported schema_version true"),
    ("no runs", lambda d: delete_path(d, ["runs"]), "missing 'runs'"),
    ("runs object", lambda d: set_path(d, ["runs"], {}),
     "runs: expected an array, found an object"),
    ("context list", lambda d: set_path(d, ["context"], []), "context: expected an object"),
    ("bad api", lambda d: set_path(d, ["runs", 1, "api"], "lustre"),
     "runs[1].api: unknown value 'lustre'"),
    ("zero processes", lambda d: set_path(d, ["runs", 0, "processes"], 0),
     "runs[0].processes: 0 is below 1"),
    ("bool bytes", lambda d: set_path(d, ["runs", 0, "bytes"], True),
     "runs[0].bytes: expected an integer, found a boolean"),
    ("string time", lambda d: set_path(d, ["runs", 0, "measures", 2, "samples", 1, "seconds",
                                           "slowest"], "1.0"),
     "runs[0].measures[2].samples[1].seconds.slowest: expected a number, found a string"),
    ("ok without time", lambda d: set_path(d, ["runs", 0, "measures", 0, "samples", 0,
                                               "seconds"], None),
     "runs[0].measures[0].samples[0]: status 'ok' but seconds is null"),
    ("unknown measure", lambda d: set_path(d, ["runs", 2, "measures", 0, "measure"], "fsync"),
     "runs[2].measures[0].measure: unknown value 'fsync'"),
    ("duplicate run", lambda d: d["runs"].append(copy.deepcopy(d["runs"][0])),
     "second run of 2 processes, transfer size 512KiB, posix"),
]


class LightCheck(unittest.TestCase):
    def test_fixtures_load(self):
        for path in common.fixture_paths():
            hr.load(path)

    def test_each_broken_document_is_one_line_naming_the_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            for what, edit, fragment in BROKEN:
                path = common.save(broken(edit), tmp, "bad.json")
                with self.assertRaises(hr.ResultsError, msg=what) as cm:
                    hr.load(path)
                msg = str(cm.exception)
                self.assertTrue(msg.startswith("'%s': " % path), (what, msg))
                self.assertIn(fragment, msg, what)
                self.assertNotIn("\n", msg, what)

    def test_unreadable_and_not_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(hr.ResultsError, "cannot read: No such file"):
                hr.load(os.path.join(tmp, "missing.json"))
            path = os.path.join(tmp, "text.json")
            with open(path, "w") as f:
                f.write("Transfer size: 1MB\n")
            with self.assertRaisesRegex(hr.ResultsError, "^'%s': not JSON: " % path):
                hr.load(path)
            with open(path, "w") as f:
                json.dump([1, 2], f)
            with self.assertRaisesRegex(hr.ResultsError, "not an h5perf results document"):
                hr.load(path)


if __name__ == "__main__":
    unittest.main(verbosity=2)
