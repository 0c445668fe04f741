#!/usr/bin/env python3
"""The README's plain build on a machine whose Pythons lack matplotlib and
jsonschema: `cmake -S . -B b && cmake --build b && cmake --install b --prefix
p` with default options configures (warning that the tests need those
packages), builds Release, installs h5perf, and the installed h5perf runs
and records the optimised build in its JSON results; ctest in that tree
fails one test that names what is missing.

The Pythons are made to lack the packages for real: the commands run in a
mount namespace of their own where an empty tmpfs hides every site-packages
directory of the python3 on PATH and of /usr/bin/python3. Needs root and
unshare (util-linux); exit 77 (skipped) otherwise.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import TempDir, expect, expect_eq, run  # noqa: E402

SKIP = 77
SRC = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PYTHONS = [p for p in (shutil.which("python3"), "/usr/bin/python3") if p and os.path.exists(p)]


def site_dirs():
    """Every site-packages directory of the Pythons a configure might try."""
    dirs = set()
    for py in PYTHONS:
        p = subprocess.run([py, "-c", "import site, sys; print('\\n'.join(site.getsitepackages()"
                            " + [site.getusersitepackages()]))"], stdout=subprocess.PIPE,
                           universal_newlines=True)
        dirs.update(d for d in p.stdout.split() if os.path.isdir(d))
    return sorted(dirs)


def in_namespace(script, log):
    """Runs script (sh) in a private mount namespace where the site-packages
    directories are empty; its output goes to log."""
    hide = "".join("mount -t tmpfs none '%s'\n" % d for d in site_dirs())
    check = "".join("! %s -c 'import matplotlib' 2>/dev/null && ! %s -c 'import jsonschema' "
                    "2>/dev/null || { echo 'a Python still has the packages'; exit 3; }\n"
                    % (py, py) for py in PYTHONS)
    with open(log, "w") as fh:
        return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-ec",
                               hide + check + script], stdout=fh, stderr=subprocess.STDOUT,
                              timeout=1500).returncode


def use_own_launcher(build):
    """The plain build finds the default MPI, whatever MPI this test suite
    was built with (the MPICH pass): its h5perf runs under its own mpiexec."""
    with open(os.path.join(build, "CMakeCache.txt")) as fh:
        for line in fh:
            if line.startswith("MPIEXEC_EXECUTABLE:"):
                os.environ["MPIEXEC"] = line.split("=", 1)[1].strip()
    v = subprocess.run([os.environ["MPIEXEC"], "--version"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True).stdout
    os.environ["MPIEXEC_FLAGS"] = "--oversubscribe" if "Open MPI" in v or "OpenRTE" in v else ""
    os.environ["MPIEXEC_NUMPROC_FLAG"] = "-n"


def main():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        print("SKIP: needs root and unshare to hide the Python packages")
        return SKIP
    probe = subprocess.run(["unshare", "--mount", "true"], stderr=subprocess.DEVNULL)
    if probe.returncode != 0:
        print("SKIP: cannot make a mount namespace here")
        return SKIP
    with TempDir() as d:
        log = os.path.join(d, "log")
        b, p = os.path.join(d, "b"), os.path.join(d, "p")
        rc = in_namespace("cmake -S '%s' -B '%s'\ncmake --build '%s' -j 2\n"
                          "cmake --install '%s' --prefix '%s'\n" % (SRC, b, b, b, p), log)
        with open(log) as fh:
            out = fh.read()
        expect_eq(rc, 0, "status of configure, build and install:\n" + out[-3000:])
        # The default build is Release (-O3), which scripts/build (-O2, with
        # -Werror) does not compile: its warnings are seen here.
        warnings = [l for l in out.splitlines() if "warning:" in l]
        expect_eq(warnings, [], "compiler warnings of the default build")
        expect("h5perf's tests need a Python 3 with numpy, matplotlib and jsonschema" in out,
               "the configure warning about the tests' Python")
        with open(os.path.join(b, "CMakeCache.txt")) as fh:
            expect("CMAKE_BUILD_TYPE:STRING=Release\n" in fh.read(), "default build type")
        exe = os.path.join(p, "bin", "h5perf")
        expect(os.access(exe, os.X_OK), "installed h5perf")
        use_own_launcher(b)
        with TempDir() as data:
            r = run(2, "-e 8K -A posix -w --format json", env={"HDF5_PARAPREFIX": data}, exe=exe)
            expect_eq(r.rc, 0, "status of the installed h5perf", r)
            build = json.loads(r.out)["context"]["build"]
            expect_eq((build["type"], build["optimized"]), ("Release", True), "build", r)
            expect("-O3" in build["c_flags"].split(), "Release flags: %r" % build["c_flags"], r)
            expect(not any("without optimisation" in l for l in r.h5perf_err), "no warning", r)
        rc = in_namespace("cd '%s' && ctest -R tests_need_python --output-on-failure" % b, log)
        with open(log) as fh:
            out = fh.read()
        words = " ".join(out.split())  # CMake wraps the message
        expect(rc != 0 and "and none was found (tried:" in words,
               "ctest names what is missing:\n" + out[-2000:])
    print("PASS build_plain")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print("FAIL build_plain: %s" % e)
        sys.exit(1)
