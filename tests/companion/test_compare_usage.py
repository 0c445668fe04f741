#!/usr/bin/env python3
"""companion_compare_usage: h5perf-compare's usage errors.

Every case exits 2 with exactly one stderr line "h5perf-compare: ..." and
nothing on stdout: bad options, bad thresholds (only "N%" is accepted), bad
minimum times (only plain decimal seconds), unreadable, non-JSON (NaN
included) and non-h5perf inputs, a wrong schema_version, two results
with no configuration in common, and documents of two patterns (guide,
block, particles).
"""
import json
import os
import tempfile
import unittest

import common

THRESHOLD_RULE = "expected a percentage from 0% to below 100% written with a % sign, e.g. 10%"
MIN_TIME_RULE = "expected a number of seconds, 0 or more, in decimal digits, e.g. 0.1"
USAGE = "h5perf-compare A.json B.json [--threshold PCT] [--min-time SECONDS]"


class UsageErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-compare-usage-")
        cls.tmp = cls._tmp.name

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def assert_usage_error(self, args, fragment):
        r = common.run_tool("h5perf-compare", args)
        self.assertEqual(r.rc, 2, r)
        self.assertEqual(len(r.err_lines), 1, r)
        self.assertTrue(r.err_lines[0].startswith("h5perf-compare: "), r)
        self.assertIn(fragment, r.err_lines[0], r)
        self.assertEqual(r.out, "", r)

    def test_command_line(self):
        s = common.SWEEP
        for args, fragment in (
                ([], "the following arguments are required: A.json, B.json"),
                ([s], "the following arguments are required: B.json"),
                ([s, s, s], "unrecognized arguments: "),
                ([s, s, "--bogus"], "unrecognized arguments: --bogus"),
                ([s, s, "--thr", "10%"], "unrecognized arguments: --thr"),
                ([s, s, "--threshold"], "argument --threshold: expected one argument"),
                ([s, s, "--min-time"], "argument --min-time: expected one argument"),
                ([s, s, "--min", "1"], "unrecognized arguments: --min"),
                ([s], "(usage: %s)" % USAGE)):
            with self.subTest(args=args):
                self.assert_usage_error(args, fragment)

    def test_thresholds(self):
        for value in ("10", "0.1", "10 %", "%", "", "abc", "-5%", "100%", "150%", "1e1%",
                      "10%%", ".5%", "5.%", "nan%", "10%x", "10%\n", "١٠%"):
            with self.subTest(threshold=value):
                # Control characters are shown escaped, keeping one line.
                shown = value.replace("\n", "\\n")
                self.assert_usage_error([common.SWEEP, common.SWEEP, "--threshold=" + value],
                                        "--threshold '%s': %s" % (shown, THRESHOLD_RULE))

    def test_min_times(self):
        for value in ("", "-1", "-0.1", "abc", "1e-1", "1E3", ".5", "5.", "0.1s", "0.1 ", " 0.1",
                      "nan", "inf", "1,5", "10%", "+1", "0x10", "0.1\n", "٠.١"):
            with self.subTest(min_time=value):
                shown = value.replace("\n", "\\n")
                self.assert_usage_error([common.SWEEP, common.SWEEP, "--min-time=" + value],
                                        "--min-time '%s': %s" % (shown, MIN_TIME_RULE))

    def test_accepted_min_times(self):
        for value in ("0", "0.1", "00.25", "2", "3600"):
            with self.subTest(min_time=value):
                r = common.run_tool("h5perf-compare",
                                    [common.SWEEP, common.SWEEP, "--min-time", value])
                self.assertEqual((r.rc, r.err), (0, ""), r)
                self.assertIn("(threshold 10%%, minimum time %s s)" % value, r.out, r)

    def test_help(self):
        r = common.run_tool("h5perf-compare", ["--help"])
        self.assertEqual((r.rc, r.err), (0, ""), r)
        self.assertTrue(r.out.startswith("usage: %s\n" % USAGE), r)
        self.assertIn("(default: 10%)", r.out)
        self.assertIn("(default: 0.1)", r.out)
        self.assertNotIn("%%", r.out)

    def test_accepted_thresholds(self):
        for value in ("0%", "5%", "12.5%", "99.9%"):
            with self.subTest(threshold=value):
                r = common.run_tool("h5perf-compare",
                                    [common.SWEEP, common.SWEEP, "--threshold", value])
                self.assertEqual((r.rc, r.err), (0, ""), r)
                self.assertIn("(threshold %s, minimum time 0.1 s)" % value, r.out, r)

    def edited(self, name, edit):
        doc = common.load(common.SWEEP)
        edit(doc)
        return self.write(name, json.dumps(doc))

    def test_inputs(self):
        s = common.SWEEP
        missing = os.path.join(self.tmp, "missing.json")
        text = self.write("report.txt", "HDF5 Library: Version 1.10.8\n")
        doc = common.load(s)
        doc["schema_version"] = 4
        v4 = self.write("v4.json", json.dumps(doc))
        other = self.write("other.json", json.dumps({"schema": "ior", "tests": []}))
        with open(s) as f:
            truncated = self.write("truncated.json", f.read()[:5000])
        with open(s) as f:
            nan = self.write("nan.json", f.read().replace('"slowest": ', '"slowest": NaN, "x": ', 1))
        one = self.write("p1.json", json.dumps(common.only_processes(common.load(s), 1)))
        four = self.write("p4.json", json.dumps(common.only_processes(common.load(s), 4)))
        for args, fragment in (
                ([s, missing], "'%s': cannot read: No such file or directory" % missing),
                ([missing, s], "'%s': cannot read: No such file or directory" % missing),
                ([text, s], "'%s': not JSON: Expecting value: line 1 column 1" % text),
                ([s, truncated], "'%s': not JSON: " % truncated),
                ([s, nan], "'%s': not JSON: NaN is not a JSON value" % nan),
                ([s, v4], "'%s': unsupported schema_version 4 (supported: 1, 2, 3)" % v4),
                ([other, s], "'%s': not an h5perf results document" % other),
                # Each ended in a traceback (schema validation).
                ([s, self.edited("huge.json", lambda d: d["runs"][0].update(bytes=10 ** 400))],
                 "huge.json': the integer 10000000000000000000... is beyond 64 bits"),
                ([self.edited("info.json", lambda d: d["config"].update(mpi_info=["a"])), s],
                 "info.json': config.mpi_info: ['a'] is not of type 'object'"),
                ([s, self.edited("apis.json", lambda d: d["config"].update(apis=3))],
                 "apis.json': config.apis: 3 is not of type 'array'"),
                ([s, self.edited("w.json", lambda d: d["config"].update(warnings=7))],
                 "w.json': config.warnings: 7 is not of type 'array'"),
                ([one, four], "'%s' and '%s': no configuration (processes, transfer size, API, "
                              "data measure) in common" % (one, four))):
            with self.subTest(args=args):
                self.assert_usage_error(args, fragment)

    def test_different_patterns_are_not_compared(self):
        # They measure different things: one exact line, either way round.
        for a, b, pa, pb in ((common.SWEEP, common.BLOCK, "guide", "block"),
                             (common.BLOCK, common.FAILURE, "block", "guide"),
                             (common.PARTICLES, common.BLOCK, "particles", "block"),
                             (common.BLOCK, common.PARTICLES, "block", "particles"),
                             (common.SWEEP, common.PARTICLES, "guide", "particles"),
                             (common.PARTICLES, common.FAILURE, "particles", "guide")):
            with self.subTest(a=a, b=b):
                r = common.run_tool("h5perf-compare", [a, b])
                self.assertEqual((r.rc, r.out), (2, ""), r)
                self.assertEqual(r.err_lines, [
                    "h5perf-compare: '%s' has the %s pattern's results and '%s' the %s "
                    "pattern's: they measure different things and are not compared" % (
                        a, pa, b, pb)], r)

    def test_particles_documents_without_a_configuration_in_common(self):
        doc = common.load(common.PARTICLES)
        one = self.write("pa1.json", json.dumps(common.only_processes(doc, 1)))
        four = self.write("pa4.json", json.dumps(common.only_processes(doc, 4)))
        self.assert_usage_error([one, four], "'%s' and '%s': no configuration (processes, API, "
                                             "layout, data measure) in common" % (one, four))

    def test_block_documents_without_a_configuration_in_common(self):
        block = common.load(common.BLOCK)
        one = self.write("b1.json", json.dumps(common.only_processes(block, 1)))
        two = self.write("b2.json", json.dumps(common.only_processes(block, 2)))
        self.assert_usage_error([one, two], "'%s' and '%s': no configuration (processes, API, "
                                            "layout, data measure) in common" % (one, two))


if __name__ == "__main__":
    unittest.main(verbosity=2)
