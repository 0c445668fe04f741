# Spack recipe of h5perf (docs/install.md). packaging/spack is a Spack
# repository: `spack repo add packaging/spack`, then in a Spack environment
# `spack develop --path <clone of h5perf> h5perf@main` and `spack install`.
# The repository has no public address yet: once it has one, a homepage
# and a git attribute let `spack install h5perf` fetch it.
# Each optional API of CMakeLists.txt (H5PERF_<API>: AUTO, ON or OFF) is a
# variant that turns it ON or OFF; tests/install/spack.py checks that they
# match.
from spack.package import *


class H5perf(CMakePackage):
    """A parallel I/O benchmark: one MPI program writes and reads the same
    data through POSIX, MPI-IO, parallel HDF5 and optionally PnetCDF, over
    ranges of process counts and transfer sizes, and reports each one's
    throughput side by side. A drop-in re-implementation of the HDF Group's
    h5perf (same options, report and file layouts), with h5perf-plot and
    h5perf-compare for its JSON results."""

    version("main", branch="main")

    variant("pnetcdf", default=False, description="Build the PnetCDF API (-A pnetcdf)")
    # A benchmark measured unoptimised measures its own overhead.
    variant(
        "build_type",
        default="Release",
        values=("Release", "RelWithDebInfo", "Debug", "MinSizeRel"),
        description="CMake build type",
    )

    depends_on("c", type="build")
    depends_on("cmake@3.18:", type="build")
    depends_on("pkgconfig", type="build", when="+pnetcdf")
    depends_on("mpi")
    depends_on("hdf5@1.10: +mpi")
    # The workload files of --advise (docs/advisor.md).
    depends_on("libyaml")
    depends_on("parallel-netcdf", when="+pnetcdf")
    # The companion (h5perf-plot, h5perf-compare), installed in share/h5perf.
    depends_on("python@3.6:", type="run")
    depends_on("py-jsonschema", type="run")
    depends_on("py-matplotlib", type="run")
    depends_on("py-numpy", type="run")

    def cmake_args(self):
        return [
            self.define_from_variant("H5PERF_PNETCDF", "pnetcdf"),
            self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc),
            self.define("HDF5_ROOT", self.spec["hdf5"].prefix),
            # The tests need numpy, matplotlib and jsonschema in the build's Python.
            self.define("BUILD_TESTING", self.run_tests),
        ]
