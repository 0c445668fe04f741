# Finds libyaml, which parses the workload files of --advise
# (docs/advisor.md): its header yaml.h and library, as Debian's libyaml-dev
# and Spack's libyaml install them (YAML_ROOT or CMAKE_PREFIX_PATH point
# elsewhere). Defines the imported target h5perf::yaml; a build without
# libyaml stops here with what to install.
find_path(YAML_INCLUDE_DIR yaml.h)
find_library(YAML_LIBRARY NAMES yaml)
if(NOT YAML_INCLUDE_DIR OR NOT YAML_LIBRARY)
  message(FATAL_ERROR "h5perf needs libyaml (the workload files of --advise, docs/advisor.md), "
    "and yaml.h or libyaml was not found. Debian/Ubuntu: apt-get install libyaml-dev "
    "(scripts/setup does); Spack: spack load libyaml; elsewhere give its prefix with "
    "-DYAML_ROOT=/path or CMAKE_PREFIX_PATH.")
endif()
add_library(h5perf::yaml UNKNOWN IMPORTED)
set_target_properties(h5perf::yaml PROPERTIES IMPORTED_LOCATION "${YAML_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${YAML_INCLUDE_DIR}")
message(STATUS "libyaml: ${YAML_LIBRARY}")
