#!/usr/bin/env python3
"""companion_plot_python: h5perf-plot started by a Python without matplotlib.

As with a pyenv or venv python3 first on PATH (here a venv made without the
system's packages), h5perf-plot runs itself again with the first interpreter
that has matplotlib ($H5PERF_PYTHON, a python3 on PATH, /usr/bin/python3)
and draws the charts; when none has it, one line names every interpreter
tried, exit 2, nothing written; and a chosen interpreter never searches again.
The interpreter that has matplotlib is this one (CMake's choice), reached
through a small python3 script, wherever it is installed.
"""
import os
import subprocess
import sys
import tempfile
import unittest

import checks
import common

NO_MPL = ("matplotlib and jsonschema are not installed for any Python 3 tried (%s): set "
          "H5PERF_PYTHON to one that has them (Debian: apt-get install python3-matplotlib "
          "python3-jsonschema)")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("H5PERF_PYTHON", "H5PERF_PLOT_TRIED", "PYTHONPATH", "VIRTUAL_ENV")}
    env.update(extra)
    return env


class FindsMatplotlib(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-plot-python-")
        cls.tmp = cls._tmp.name
        cls.venv = common.venv_without_matplotlib(cls.tmp)
        cls.with_mpl = common.bin_with_matplotlib(cls.tmp)
        # The premise: the venv's python3 cannot import matplotlib.
        p = subprocess.run([os.path.join(cls.venv, "python3"), "-c", "import matplotlib"],
                           env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
        assert "No module named 'matplotlib'" in p.stderr, p.stderr
        # Two process counts of the sweep: fewer charts, the same code.
        cls.input = common.save(common.only_processes(common.load(common.SWEEP), 2), cls.tmp,
                                "p2.json")

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def setUp(self):
        self.out = os.path.join(self.tmp, self.id().rsplit(".", 1)[-1])

    def assert_charts(self, r):
        self.assertEqual(r.rc, 0, r)
        self.assertRegex(r.out, r"^h5perf-plot: \d+ charts and report.html in '%s'\n$" %
                         self.out)
        with open(os.path.join(self.out, "report.html"), encoding="utf-8") as f:
            page = checks.Page(f.read())
        self.assertEqual(page.errors, [])
        self.assertGreater(len(page.svg_images()), 0)

    def test_a_venv_first_on_path(self):
        # tools/h5perf-plot typed in a shell whose python3 is the venv's.
        env = clean_env(PATH=os.pathsep.join((self.venv, self.with_mpl, os.environ["PATH"])))
        self.assert_charts(common.run_tool("h5perf-plot", ["-o", self.out, self.input],
                                           cwd=self.tmp, python="shebang", env=env))

    def test_h5perf_python_is_tried_first(self):
        log = os.path.join(self.tmp, "h5perf-python.log")
        chosen = common.shell_script(os.path.join(self.tmp, "logged-python"),
                                     'echo "$1" >> "%s"\nexec "%s" "$@"\n' % (
                                         log, sys.executable))
        env = clean_env(H5PERF_PYTHON=chosen,
                        PATH=os.pathsep.join((self.venv, self.with_mpl, os.environ["PATH"])))
        self.assert_charts(common.run_tool("h5perf-plot", ["-o", self.out, self.input],
                                           python=os.path.join(self.venv, "python3"), env=env))
        # Asked first (-c import matplotlib), then run with the script.
        with open(log) as f:
            self.assertEqual(f.read().splitlines(),
                             ["-c", os.path.join(common.TOOLS, "h5perf-plot")])

    def test_no_interpreter_has_matplotlib(self):
        # /usr/bin/python3 is always tried and may have matplotlib: a
        # package of that name that cannot be imported, first on every
        # interpreter's path, stands for "not installed" everywhere.
        shadow = os.path.join(self.tmp, "shadow", "matplotlib")
        os.makedirs(shadow, exist_ok=True)
        with open(os.path.join(shadow, "__init__.py"), "w") as f:
            f.write("raise ImportError('no matplotlib in this test')\n")
        empty = os.path.join(self.tmp, "empty-bin")
        os.makedirs(empty, exist_ok=True)
        venv_python = os.path.join(self.venv, "python3")
        system = ["/usr/bin/python3"] if os.access("/usr/bin/python3", os.X_OK) else []
        for h5perf_python, tried in (
                (None, [venv_python, self.with_mpl + "/python3"] + system),
                ("/nonexistent/python3", [venv_python, "/nonexistent/python3",
                                          self.with_mpl + "/python3"] + system)):
            with self.subTest(H5PERF_PYTHON=h5perf_python):
                env = clean_env(PATH=os.pathsep.join((self.venv, empty, self.with_mpl)),
                                PYTHONPATH=os.path.dirname(shadow))
                if h5perf_python:
                    env["H5PERF_PYTHON"] = h5perf_python
                before = sorted(os.listdir(self.tmp))
                r = common.run_tool("h5perf-plot", ["-o", self.out, self.input], cwd=self.tmp,
                                    python="shebang", env=env)
                self.assertEqual((r.rc, r.out), (2, ""), r)
                self.assertEqual(r.err_lines, ["h5perf-plot: " + NO_MPL % ", ".join(tried)], r)
                self.assertEqual(sorted(os.listdir(self.tmp)), before, "something was written")

    def test_a_chosen_interpreter_does_not_search_again(self):
        # Run as if chosen by another h5perf-plot, yet without matplotlib:
        # an error, although a python3 on PATH has it.
        env = clean_env(H5PERF_PLOT_TRIED="/first/python3",
                        PATH=os.pathsep.join((self.venv, self.with_mpl, os.environ["PATH"])))
        venv_python = os.path.join(self.venv, "python3")
        r = common.run_tool("h5perf-plot", ["-o", self.out, self.input], python=venv_python,
                            env=env)
        self.assertEqual((r.rc, r.out), (2, ""), r)
        self.assertEqual(r.err_lines, ["h5perf-plot: " + NO_MPL % ", ".join(
            ["/first/python3", venv_python])], r)
        self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main(verbosity=2)
