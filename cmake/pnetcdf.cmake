# Finds PnetCDF for the optional PnetCDF backend (docs/pnetcdf.md), after
# find_package(MPI). Sets H5PERF_HAVE_PNETCDF and, when true, the imported
# target PkgConfig::PNETCDF. H5PERF_PNETCDF: AUTO (use it if found and
# built with this MPI), ON (fail otherwise) or OFF.
#
# A PnetCDF library is built for one MPI: Debian's libpnetcdf-dev for Open
# MPI. Linked into an MPICH build it would bring a second MPI library into
# the process, so the C compiler pnetcdf-config reports (the MPI wrapper that
# built it) must be the MPI wrapper CMake found, both symbolic links
# resolved; and, since a wrapper's name can be switched to another MPI
# (Debian's alternatives make /usr/bin/mpicc either), the MPI library the
# shared libpnetcdf needs (its ELF NEEDED libmpi.so.N or libmpich.so.N) must
# be one of this build's MPI libraries (their SONAMEs), where readelf can
# tell.
set(H5PERF_HAVE_PNETCDF FALSE)
string(TOUPPER "${H5PERF_PNETCDF}" _pnc_mode)
if(NOT _pnc_mode MATCHES "^(AUTO|ON|OFF|TRUE|FALSE|YES|NO|1|0)$")
  message(FATAL_ERROR "H5PERF_PNETCDF is '${H5PERF_PNETCDF}'; use AUTO, ON or OFF")
endif()
if(_pnc_mode MATCHES "^(OFF|FALSE|NO|0)$")
  message(STATUS "PnetCDF: left out (H5PERF_PNETCDF=${H5PERF_PNETCDF})")
  return()
endif()
set(_pnc_required FALSE)
if(NOT _pnc_mode STREQUAL "AUTO")
  set(_pnc_required TRUE)
endif()

set(_pnc_why "")
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PNETCDF QUIET IMPORTED_TARGET pnetcdf)
endif()
if(NOT PkgConfig_FOUND)
  set(_pnc_why "pkg-config, which finds PnetCDF, is not installed (Debian: apt-get install \
pkg-config)")
elseif(NOT PNETCDF_FOUND)
  set(_pnc_why "pkg-config finds no 'pnetcdf' (Debian: apt-get install libpnetcdf-dev; \
elsewhere add PnetCDF's lib/pkgconfig to PKG_CONFIG_PATH)")
else()
  find_program(H5PERF_PNETCDF_CONFIG pnetcdf-config HINTS ${PNETCDF_PREFIX}/bin)
  if(H5PERF_PNETCDF_CONFIG AND MPI_C_COMPILER)
    execute_process(COMMAND ${H5PERF_PNETCDF_CONFIG} --cc OUTPUT_VARIABLE _pnc_cc
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    separate_arguments(_pnc_cc UNIX_COMMAND "${_pnc_cc}")
    list(GET _pnc_cc 0 _pnc_cc)
    if(NOT IS_ABSOLUTE "${_pnc_cc}")
      find_program(H5PERF_PNETCDF_CC ${_pnc_cc})
      set(_pnc_cc "${H5PERF_PNETCDF_CC}")
    endif()
    get_filename_component(_pnc_cc_real "${_pnc_cc}" REALPATH)
    get_filename_component(_pnc_mpicc_real "${MPI_C_COMPILER}" REALPATH)
    if(NOT _pnc_cc_real STREQUAL _pnc_mpicc_real)
      set(_pnc_why "PnetCDF ${PNETCDF_VERSION} was built with ${_pnc_cc} (${_pnc_cc_real}), \
another MPI than this build's ${MPI_C_COMPILER} (${_pnc_mpicc_real})")
    endif()
  else()
    message(STATUS "PnetCDF: cannot tell which MPI it was built with (no pnetcdf-config or \
no MPI wrapper); assuming this build's")
  endif()
endif()

if(PNETCDF_FOUND AND _pnc_why STREQUAL "")
  find_program(H5PERF_READELF readelf)
  set(_pnc_so "")
  foreach(_l ${PNETCDF_LINK_LIBRARIES})
    if(_l MATCHES "pnetcdf[^/]*\\.so")
      set(_pnc_so "${_l}")
    endif()
  endforeach()
  if(H5PERF_READELF AND _pnc_so)
    execute_process(COMMAND ${H5PERF_READELF} -d "${_pnc_so}" OUTPUT_VARIABLE _pnc_dyn ERROR_QUIET)
    string(REGEX MATCHALL "\\[libmpi(ch)?\\.so[^]]*\\]" _pnc_needed "${_pnc_dyn}")
    set(_pnc_ours "")
    foreach(_l ${MPI_C_LIBRARIES})
      execute_process(COMMAND ${H5PERF_READELF} -d "${_l}" OUTPUT_VARIABLE _pnc_dyn ERROR_QUIET)
      if(_pnc_dyn MATCHES "SONAME[^[]*\\[([^]]*)\\]")
        list(APPEND _pnc_ours "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    foreach(_n ${_pnc_needed})
      string(REGEX REPLACE "^\\[(.*)\\]$" "\\1" _n "${_n}")
      if(_pnc_ours AND NOT _n IN_LIST _pnc_ours)
        set(_pnc_why "PnetCDF ${PNETCDF_VERSION} (${_pnc_so}) needs ${_n}, another MPI \
library than this build's (${_pnc_ours})")
      endif()
    endforeach()
  endif()
endif()

if(_pnc_why STREQUAL "")
  set(H5PERF_HAVE_PNETCDF TRUE)
  message(STATUS "PnetCDF: ${PNETCDF_VERSION} (the pnetcdf API is built)")
elseif(_pnc_required)
  message(FATAL_ERROR "H5PERF_PNETCDF=${H5PERF_PNETCDF}, but ${_pnc_why}")
else()
  message(STATUS "PnetCDF: left out: ${_pnc_why}")
endif()
