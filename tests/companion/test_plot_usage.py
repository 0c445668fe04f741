#!/usr/bin/env python3
"""companion_plot_usage: h5perf-plot's usage errors.

Each bad command line or input must exit 2 with exactly one stderr line
"h5perf-plot: ..." (no traceback), print nothing on stdout and write
nothing: not even the output directory.
"""
import json
import os
import tempfile
import unittest

import common

ONE_LINE = "h5perf-plot: "


class UsageErrors(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="h5perf-plot-usage-")
        self.tmp = self._tmp.name
        self.out = os.path.join(self.tmp, "out")

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def assert_usage_error(self, args, fragment):
        before = sorted(os.listdir(self.tmp))
        r = common.run_tool("h5perf-plot", args, cwd=self.tmp)
        self.assertEqual(r.rc, 2, r)
        self.assertEqual(len(r.err_lines), 1, r)
        self.assertTrue(r.err_lines[0].startswith(ONE_LINE), r)
        self.assertIn(fragment, r.err_lines[0], r)
        self.assertEqual(r.out, "", r)
        self.assertEqual(sorted(os.listdir(self.tmp)), before, "something was written")

    def doc(self, name, edit):
        doc = common.load(common.SWEEP)
        edit(doc)
        return self.write(name, json.dumps(doc))

    def cause_not_text(self):
        doc = common.load(common.HEADLINE)
        doc["runs"][2]["actual_io_mode"]["write"].update(
            cause=12, mode="no_collective", modes=["no_collective"], collective=False)
        return self.write("cause.json", json.dumps(doc))

    def test_command_line(self):
        for args, fragment in (
                ([], "the following arguments are required: RESULTS.json"),
                (["-o"], "argument -o: expected one argument"),
                (["--bogus", common.SWEEP], "unrecognized arguments: --bogus"),
                (["--tit", "x", common.SWEEP], "unrecognized arguments: --tit"),
                (["-o", "", common.SWEEP], "-o: empty directory name"),
                (["--measures", "write,open", common.SWEEP],
                 "--measures 'open': not a measure that moves data (write, write_open_close, "
                 "write_raw, read, read_open_close, read_raw, or a phase's)"),
                (["--measures", "write_raw", common.SWEEP],
                 "'%s': none of the measures write_raw (it has " % common.SWEEP)):
            with self.subTest(args=args):
                self.assert_usage_error(args, fragment)

    def test_inputs(self):
        missing = os.path.join(self.tmp, "missing.json")
        text = self.write("report.txt", "HDF5 Library: Version 1.10.8\n")
        cases = [
            ([missing], "'%s': cannot read: No such file or directory" % missing),
            ([self.tmp], "'%s': cannot read: Is a directory" % self.tmp),
            ([text], "'%s': not JSON: " % text),
            ([self.write("list.json", "[1, 2]")], "not an h5perf results document"),
            ([self.doc("v4.json", lambda d: d.update(schema_version=4))],
             "unsupported schema_version 4 (supported: 1, 2, 3)"),
            ([self.doc("hdf4.json", lambda d: d["runs"][3].update(api="hdf4"))],
             "runs[3].api: 'hdf4' is not one of ['posix', 'mpiio', 'phdf5', 'pnetcdf']"),
            # Each ended in a traceback, charts half written (schema validation).
            ([self.doc("huge.json", lambda d: d["runs"][0].update(bytes=10 ** 400))],
             "the integer 10000000000000000000... is beyond 64 bits"),
            ([self.doc("info.json", lambda d: d["config"].update(mpi_info=["a=b"]))],
             "config.mpi_info: ['a=b'] is not of type 'object'"),
            ([self.doc("apis.json", lambda d: d["config"].update(apis=3))],
             "config.apis: 3 is not of type 'array'"),
            ([self.doc("warnings.json", lambda d: d["config"].update(warnings=7))],
             "config.warnings: 7 is not of type 'array'"),
            ([self.cause_not_text()],
             "runs[2].actual_io_mode.write.cause: 12 is not of type 'string', 'null'"),
            # A control character in a name is escaped: still one line.
            ([os.path.join(self.tmp, "new\nline.json")], "new\\nline.json': cannot read"),
            # One bad input among good ones: still nothing at all is written.
            ([common.SWEEP, missing, common.FAILURE], "'%s': cannot read" % missing),
        ]
        for args, fragment in cases:
            with self.subTest(args=args):
                self.assert_usage_error(["-o", self.out] + args, fragment)

    def test_guide_and_block_are_not_plotted_together(self):
        # Lines over transfer sizes and bars by layout have nothing to put
        # side by side: one exact line, nothing written.
        line = ("'%s' has the block pattern's results and '%s' the guide pattern's: they "
                "measure different things and are not plotted together" % (
                    common.BLOCK, common.SWEEP))
        args = ["-o", self.out, common.BLOCK, common.BLOCK, common.SWEEP]
        self.assert_usage_error(args, line)
        r = common.run_tool("h5perf-plot", args, cwd=self.tmp)
        self.assertEqual(r.err_lines, [ONE_LINE + line], r)

    def test_particles_and_block_are_not_plotted_together(self):
        for inputs, pa, pb in (((common.PARTICLES, common.BLOCK), "particles", "block"),
                               ((common.SWEEP, common.PARTICLES), "guide", "particles")):
            with self.subTest(inputs=inputs):
                line = ("'%s' has the %s pattern's results and '%s' the %s pattern's: they "
                        "measure different things and are not plotted together" % (
                            inputs[0], pa, inputs[1], pb))
                self.assert_usage_error(["-o", self.out] + list(inputs), line)
                r = common.run_tool("h5perf-plot", ["-o", self.out] + list(inputs), cwd=self.tmp)
                self.assertEqual(r.err_lines, [ONE_LINE + line], r)

    def test_output_directory_cannot_be_made(self):
        blocker = self.write("file", "")
        self.assert_usage_error(["-o", os.path.join(blocker, "out"), common.SWEEP],
                                "'%s/out': cannot create directory: Not a directory" % blocker)

    def test_help(self):
        r = common.run_tool("h5perf-plot", ["-h"], cwd=self.tmp)
        self.assertEqual((r.rc, r.err), (0, ""), r)
        self.assertTrue(r.out.startswith(
            "usage: h5perf-plot [-o OUTDIR] [--title T] [--html PAGE] [--measures LIST] "
            "RESULTS.json [MORE.json ...]\n"), r)
        self.assertEqual(os.listdir(self.tmp), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
