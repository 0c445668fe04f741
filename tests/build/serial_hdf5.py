#!/usr/bin/env python3
"""A serial HDF5 is refused at configure time, with the README's one message,
also when it is HDF5 2.0 installed with CMake, whose hdf5-config.cmake says
"parallel" in a variable CMake's FindHDF5 does not read (cmake/hdf5.cmake
then asks H5pubconf.h). The serial HDF5 2.0.0 is built from release source
by scripts/build-hdf5 --serial (cached; the first time takes minutes).
Exit 77 (skipped) without cargo, which fetches that source.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import TempDir, expect, expect_eq  # noqa: E402

SKIP = 77
SRC = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
VERSION = "2.0.0"


def main():
    if not shutil.which("cargo"):
        print("SKIP: no cargo, which fetches HDF5's source (scripts/build-hdf5)")
        return SKIP
    p = subprocess.run([os.path.join(SRC, "scripts", "build-hdf5"), "--serial", VERSION],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=1500)
    expect_eq(p.returncode, 0, "scripts/build-hdf5 --serial %s\n%s" % (VERSION, p.stderr[-3000:]))
    prefix = p.stdout.strip()
    with open(os.path.join(prefix, "include", "H5pubconf.h")) as fh:
        expect("#define H5_HAVE_PARALLEL 1" not in fh.read(), "the HDF5 built is serial")
    with TempDir() as d:
        p = subprocess.run(["cmake", "-S", SRC, "-B", os.path.join(d, "b"), "-DBUILD_TESTING=OFF",
                            "-DHDF5_ROOT=" + prefix], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
        words = " ".join(p.stdout.split())  # CMake wraps the message
        expect('Found HDF5: hdf5-shared (found version "%s")' % VERSION in words,
               "FindHDF5 found HDF5 %s's CMake package:\n%s" % (VERSION, p.stdout[-3000:]))
        expect(p.returncode != 0 and
               "h5perf needs a parallel HDF5 (built with MPI), but the HDF5 found (%s/include) "
               "is serial." % prefix in words,
               "configure refuses the serial HDF5:\n" + p.stdout[-3000:])
    print("PASS build_serial_hdf5_refused")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print("FAIL build_serial_hdf5_refused: %s" % e)
        sys.exit(1)
