#!/usr/bin/env python3
"""Without pkg-config, configuring leaves PnetCDF out and says that
pkg-config is what is missing, not PnetCDF (a fresh Debian root has
libpnetcdf-dev installed without recommends, hence without pkg-config):
CMake's own PkgConfig module is pointed at a pkg-config that does not exist,
and the one status line names the package to install.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import TempDir, expect, expect_eq  # noqa: E402

SRC = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
WANT = ("-- PnetCDF: left out: pkg-config, which finds PnetCDF, is not installed "
        "(Debian: apt-get install pkg-config)")


def main():
    with TempDir() as d:
        p = subprocess.run(["cmake", "-S", SRC, "-B", os.path.join(d, "b"), "-DBUILD_TESTING=OFF",
                            "-DPKG_CONFIG_EXECUTABLE=" + os.path.join(d, "no", "pkg-config")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
        expect_eq(p.returncode, 0, "configure's exit status\n" + p.stdout[-3000:])
        lines = [l for l in p.stdout.splitlines() if l.startswith("-- PnetCDF")]
        expect_eq(lines, [WANT], "PnetCDF's status line")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
