#!/usr/bin/env python3
"""PnetCDF built for another MPI is left out of a build (docs/pnetcdf.md,
"Building"), even when its pnetcdf-config names this build's MPI wrapper (as
it does where Debian's alternatives switched /usr/bin/mpicc to the other
MPI): configuring with MPICH and a pnetcdf-config that reports MPICH's
wrapper, the Open MPI libpnetcdf's ELF NEEDED entry (libmpi.so.40) is not
MPICH's libmpich.so.12, and CMake says so in one status line.

Needs MPICH's wrapper, Debian's Open MPI libpnetcdf (pkg-config) and
readelf; exit 77 (skipped) otherwise: the Open MPI pass of CI runs before
MPICH is installed, the MPICH pass runs it.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import TempDir, expect, expect_eq  # noqa: E402

SKIP = 77
SRC = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def tool(name):
    return shutil.which(name) or ""


def main():
    mpicc, mpiexec, h5pcc = tool("mpicc.mpich"), tool("mpiexec.mpich"), tool("h5pcc.mpich")
    if not tool("pkg-config"):
        print("skipped: needs pkg-config to find PnetCDF (Debian: apt-get install pkg-config)")
        return SKIP
    have_pnetcdf = subprocess.run(["pkg-config", "--exists", "pnetcdf"]).returncode == 0
    if not (mpicc and mpiexec and h5pcc and have_pnetcdf and tool("readelf")):
        print("skipped: needs MPICH (mpicc.mpich, h5pcc.mpich), PnetCDF (pkg-config pnetcdf) "
              "and readelf")
        return SKIP
    so = ldconfig_path("libpnetcdf.so")
    needed = subprocess.run(["readelf", "-d", so], stdout=subprocess.PIPE,
                            universal_newlines=True).stdout if so else ""
    if "[libmpi.so.40]" not in needed:
        print("skipped: the libpnetcdf.so found (%s) is not Open MPI's (no NEEDED libmpi.so.40)"
              % (so or "none"))
        return SKIP
    with TempDir() as d:
        fake = os.path.join(d, "pnetcdf-config")
        with open(fake, "w") as fh:
            fh.write("#!/bin/sh\necho %s\n" % mpicc)
        os.chmod(fake, 0o755)
        p = subprocess.run(["cmake", "-S", SRC, "-B", os.path.join(d, "b"), "-DBUILD_TESTING=OFF",
                            "-DH5PERF_PNETCDF_CONFIG=" + fake, "-DMPI_C_COMPILER=" + mpicc,
                            "-DMPIEXEC_EXECUTABLE=" + mpiexec,
                            "-DHDF5_C_COMPILER_EXECUTABLE=" + h5pcc],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
        expect_eq(p.returncode, 0, "configure's exit status\n" + p.stdout[-3000:])
        lines = [l for l in p.stdout.splitlines() if l.startswith("-- PnetCDF")]
        want = (r"-- PnetCDF: left out: PnetCDF %s \(/\S*libpnetcdf\.so\) needs libmpi\.so\.40, "
                r"another MPI library than this build's \(libmpich\.so\.12\)$"
                % re.escape(version()))
        expect(len(lines) == 1 and re.match(want, lines[0]),
               "PnetCDF's status line: %r, expected /%s/" % (lines, want))
    print("PASS")
    return 0


def ldconfig_path(name):
    """The path of the shared library name as the dynamic linker knows it."""
    out = subprocess.run(["ldconfig", "-p"], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    for line in out.splitlines():
        if line.strip().startswith(name + " ") and "=>" in line:
            return os.path.realpath(line.split("=>")[1].strip())
    return ""


def version():
    return subprocess.run(["pkg-config", "--modversion", "pnetcdf"], stdout=subprocess.PIPE,
                          universal_newlines=True).stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
