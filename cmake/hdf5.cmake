# Finds a parallel HDF5, 1.10 or newer, after find_package(MPI): the target
# HDF5::HDF5 and HDF5_VERSION. A serial HDF5 is refused. Tested against
# Debian's 1.10.8 (Open MPI and MPICH) and 1.14.5 and 2.0.0 built from
# release source (scripts/build-hdf5, docs/install.md).
set(HDF5_PREFER_PARALLEL TRUE)
find_package(HDF5 REQUIRED COMPONENTS C)

# FindHDF5 takes "parallel" from h5pcc or H5pubconf.h (Debian's 1.10), or
# from the HDF5_ENABLE_PARALLEL of the hdf5-config.cmake that HDF5 1.12 and
# 1.14 install with CMake; HDF5 2.0's names it HDF5_PROVIDES_PARALLEL, which
# CMake's FindHDF5 (3.25 at least) does not read. So when FindHDF5 says
# serial, ask the headers h5perf compiles against: H5_HAVE_PARALLEL is what
# makes H5FDmpio.h declare the MPI-IO driver.
if(NOT HDF5_IS_PARALLEL)
  foreach(_dir ${HDF5_INCLUDE_DIRS})
    if(EXISTS "${_dir}/H5pubconf.h")
      file(STRINGS "${_dir}/H5pubconf.h" _h5_parallel REGEX "^#define H5_HAVE_PARALLEL 1")
      if(_h5_parallel)
        set(HDF5_IS_PARALLEL TRUE)
      endif()
    endif()
  endforeach()
endif()
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR
    "h5perf needs a parallel HDF5 (built with MPI), but the HDF5 found "
    "(${HDF5_INCLUDE_DIRS}) is serial. On Debian/Ubuntu install libhdf5-openmpi-dev "
    "(or libhdf5-mpich-dev); elsewhere load a parallel HDF5 module (e.g. "
    "'module load cray-hdf5-parallel', 'spack load hdf5+mpi') and set HDF5_ROOT.")
endif()
if(HDF5_VERSION VERSION_LESS 1.10)
  message(FATAL_ERROR "h5perf needs HDF5 1.10 or newer; found ${HDF5_VERSION}")
endif()

# The targets HDF5 1.12+ exports with CMake carry the feature-test macros
# HDF5 was compiled with (_POSIX_C_SOURCE, _GNU_SOURCE, _LARGEFILE_SOURCE,
# _FILE_OFFSET_BITS) to every file that uses them. Which system interfaces
# h5perf's files see is theirs to say (a few define _GNU_SOURCE, the rest
# are POSIX), the same with every HDF5: they would otherwise redefine
# _GNU_SOURCE (an error under -Werror) and call pwrite64 where a build
# against Debian's HDF5 calls pwrite. h5perf passes no off_t to HDF5.
get_target_property(_h5_libs HDF5::HDF5 INTERFACE_LINK_LIBRARIES)
foreach(_lib ${_h5_libs})
  if(TARGET "${_lib}")
    get_target_property(_h5_defs "${_lib}" INTERFACE_COMPILE_DEFINITIONS)
    if(_h5_defs)
      list(FILTER _h5_defs EXCLUDE REGEX "^_[A-Z0-9_]*_SOURCE(=.*)?$|^_FILE_OFFSET_BITS(=.*)?$")
      set_target_properties("${_lib}" PROPERTIES INTERFACE_COMPILE_DEFINITIONS "${_h5_defs}")
    endif()
  endif()
endforeach()

# What this HDF5 has of what HDF5's own options ask for (docs/hdf5.md):
# the subfiling driver (H5_HAVE_SUBFILING_VFD, a build option of HDF5 1.14
# and newer) and multi-dataset I/O (H5Dwrite_multi, 1.14). The option
# parser refuses them in a build whose HDF5 lacks them.
set(H5PERF_HDF5_SUBFILING OFF)
foreach(_dir ${HDF5_INCLUDE_DIRS})
  if(EXISTS "${_dir}/H5pubconf.h")
    file(STRINGS "${_dir}/H5pubconf.h" _h5_subfiling REGEX "^#define H5_HAVE_SUBFILING_VFD 1")
    if(_h5_subfiling)
      set(H5PERF_HDF5_SUBFILING ON)
    endif()
  endif()
endforeach()
set(H5PERF_HDF5_MULTI_DATASET OFF)
if(HDF5_VERSION VERSION_GREATER_EQUAL 1.14)
  set(H5PERF_HDF5_MULTI_DATASET ON)
endif()
message(STATUS "HDF5 ${HDF5_VERSION}: subfiling driver ${H5PERF_HDF5_SUBFILING}, "
  "multi-dataset I/O ${H5PERF_HDF5_MULTI_DATASET}")
