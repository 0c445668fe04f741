# cpack -G DEB (docs/install.md): a Debian package of what cmake --install
# installs (h5perf, the companion in share/h5perf, the man pages). Its
# library dependencies come from dpkg-shlibdeps (dpkg-dev); the package of
# the mpiexec of the MPI built with (openmpi-bin, mpich) and the companion's
# Python are added by name. Configure with -DCMAKE_INSTALL_PREFIX=/usr or
# leave it: the package installs under /usr either way.
set(CPACK_PACKAGE_NAME h5perf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "h5perf developers <h5perf@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "parallel I/O benchmark of POSIX, MPI-IO, parallel HDF5 and PnetCDF")
set(CPACK_PACKAGE_DESCRIPTION
  "Measures the write and read throughput of the same data through POSIX, MPI-IO, parallel HDF5 and PnetCDF under MPI, with h5perf-plot and h5perf-compare for its results.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(_deb_depends python3 python3-jsonschema python3-matplotlib python3-numpy)
# The package holding the mpiexec CMake found, e.g. openmpi-bin.
get_filename_component(_mpiexec "${MPIEXEC_EXECUTABLE}" REALPATH)
execute_process(COMMAND dpkg-query -S "${_mpiexec}" OUTPUT_VARIABLE _owner
  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(_owner MATCHES "^([^:, ]+)[:,]")
  list(PREPEND _deb_depends ${CMAKE_MATCH_1})
endif()
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${_deb_depends}")
include(CPack)
