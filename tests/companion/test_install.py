#!/usr/bin/env python3
"""companion_install: `cmake --install` puts h5perf and the companion in a
prefix, and the installed commands work from there: bin/h5perf-compare and
bin/h5perf-plot are links into share/h5perf, which holds their modules, and
h5perf-plot started by a python3 without matplotlib finds one with it.
"""
import os
import subprocess
import tempfile
import unittest

import checks
import common

TOOLS = ("h5perf-plot", "h5perf-compare")
# docs/trace.md's converter: installed the same way; PyDarshan only when it reads a log.
TRACE = "h5perf-trace"
MODULES = ("h5perf_results.py", "h5perf_charts.py", "h5perf_html.py", "h5perf_headline.py",
           "h5perf_warnings.py", "h5perf_python.py", "h5perf_advice.py", "results.schema.json",
           "advice.schema.json")


def run(cmd, **kw):
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=100, **kw)


class Install(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-install-test-")
        cls.prefix = os.path.join(cls._tmp.name, "prefix")
        cls.result = run([os.environ["CMAKE_COMMAND"], "--install", os.environ["H5PERF_BUILD_DIR"],
                          "--prefix", cls.prefix])

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def test_layout(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(sorted(os.listdir(os.path.join(self.prefix, "bin"))),
                         sorted(("h5perf", TRACE) + TOOLS))
        share = os.path.join(self.prefix, "share", "h5perf")
        self.assertEqual(sorted(os.listdir(share)), sorted((TRACE,) + TOOLS + MODULES))
        for tool in TOOLS + (TRACE,):
            link = os.path.join(self.prefix, "bin", tool)
            self.assertEqual(os.readlink(link), os.path.join("..", "share", "h5perf", tool))
            self.assertTrue(os.access(os.path.join(share, tool), os.X_OK), tool)

    def test_installed_compare_runs_by_its_shebang(self):
        r = run([os.path.join(self.prefix, "bin", "h5perf-compare"), common.SWEEP, common.SWEEP],
                cwd=self._tmp.name)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines()[-1], "0 regressions in 108 configurations "
                         "(threshold 10%, minimum time 0.1 s), 108 too short to judge")

    def test_installed_trace_runs_by_its_shebang(self):
        r = run([os.path.join(self.prefix, "bin", TRACE), "--help"], cwd=self._tmp.name)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("docs/trace.md", r.stdout)

    def test_installed_plot_finds_its_modules(self):
        # Run by its #! line from a shell whose python3 has no matplotlib (a
        # venv): it runs itself again, through the link, with one that has.
        out = os.path.join(self._tmp.name, "plots")
        path = os.pathsep.join((common.venv_without_matplotlib(self._tmp.name),
                                common.bin_with_matplotlib(self._tmp.name), os.environ["PATH"]))
        r = run([os.path.join(self.prefix, "bin", "h5perf-plot"), "-o", out, common.SWEEP],
                cwd=self._tmp.name, env=dict(os.environ, PATH=path))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
            page = checks.Page(f.read())
        self.assertEqual(page.errors, [])
        self.assertGreater(len(page.svg_images()), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
