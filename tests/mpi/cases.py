#!/usr/bin/env python3
"""MPI test cases: h5perf under mpiexec with several processes, checked by an
independent reader (raw bytes for POSIX and MPI-IO, the HDF5 API for HDF5).

Usage: cases.py --list | cases.py NAME

The cases live in topic modules next to this file (layouts_1d, layouts_2d,
files, report, failures, faults, results, caches, memory, block, particles, map, madbench,
madbench_async, madbench_gangs, madbench_opens, trace,
iomode, pnetcdf, plots, load, examples, conformance, measuring, hdf5_drivers, hdf5_choices,
file_system,
refusals, mpiio_views, mpiio_joined, mpiio_atomic, agreements), each registering its cases with common.case; this file only imports
them and runs one by name.
"""
import inspect
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# Importing a topic module registers its cases in CASES, in this order.
import layouts_1d  # noqa: E402,F401
import layouts_2d  # noqa: E402,F401
import files  # noqa: E402,F401
import report  # noqa: E402,F401
import failures  # noqa: E402,F401
import faults  # noqa: E402,F401
import results  # noqa: E402,F401
import caches  # noqa: E402,F401
import memory  # noqa: E402,F401
import block  # noqa: E402,F401
import particles  # noqa: E402,F401
import map  # noqa: E402,F401
import iomode  # noqa: E402,F401
import pnetcdf  # noqa: E402,F401
import plots  # noqa: E402,F401
import load  # noqa: E402,F401
import examples  # noqa: E402,F401
import conformance  # noqa: E402,F401
import measuring  # noqa: E402,F401
import hdf5_drivers  # noqa: E402,F401
import hdf5_choices  # noqa: E402,F401
import file_system  # noqa: E402,F401
import madbench  # noqa: E402,F401
import madbench_async  # noqa: E402,F401
import madbench_gangs  # noqa: E402,F401
import madbench_opens  # noqa: E402,F401
import refusals  # noqa: E402,F401
import buffers  # noqa: E402,F401
import advise  # noqa: E402,F401
import mpiio_views  # noqa: E402,F401
import mpiio_joined  # noqa: E402,F401
import mpiio_atomic  # noqa: E402,F401
import agreements  # noqa: E402,F401
import trace  # noqa: E402,F401
from common import CASES, SKIP, Skip  # noqa: E402

# The ctest labels of a case beside "mpi": its module's pattern or API, and
# every API or pattern its name or its code names (`-A mpiio`, a loop over
# ("posix", "mpiio", "phdf5")), so that ctest -L api_mpiio runs every case
# that drives MPI-IO by name.
MODULE_LABELS = {"layouts_1d": ["pattern_guide"], "layouts_2d": ["pattern_guide"],
                 "block": ["pattern_block"], "particles": ["pattern_particles"],
                 "map": ["pattern_map"],
                 "madbench": ["pattern_madbench"], "madbench_async": ["pattern_madbench"],
                 "madbench_gangs": ["pattern_madbench"], "madbench_opens": ["pattern_madbench"],
                 "trace": ["pattern_trace"],
                 "pnetcdf": ["api_pnetcdf"], "iomode": ["api_phdf5"],
                 "hdf5_drivers": ["api_phdf5"], "hdf5_choices": ["api_phdf5"],
                 "conformance": ["conformance"],
                 "mpiio_views": ["api_mpiio", "pattern_map"],
                 "mpiio_joined": ["api_mpiio"], "mpiio_atomic": ["api_mpiio"]}
NAME_LABELS = {"posix": "api_posix", "mpiio": "api_mpiio", "hdf5": "api_phdf5",
               "pnetcdf": "api_pnetcdf", "guide": "pattern_guide", "block": "pattern_block",
               "particles": "pattern_particles", "map": "pattern_map",
               "madbench": "pattern_madbench", "trace": "pattern_trace"}
CODE_LABELS = {"posix": "api_posix", "mpiio": "api_mpiio", "phdf5": "api_phdf5",
               "pnetcdf": "api_pnetcdf"}
# Options whose cases a CI pass selects (docs/ci.md): a case whose code
# gives one of HDF5's own options (--hdf5.driver, ...) runs against each HDF5
# release; one that gives --watchdog runs against MPICH too.
OPTION_LABELS = {r"--hdf5\.": "hdf5_options", r"--watchdog\b": "watchdog"}


def labels(name):
    fn = CASES[name]
    out = set(MODULE_LABELS.get(fn.__module__, []))
    out.update(label for word, label in NAME_LABELS.items() if word in name)
    code = inspect.getsource(fn)
    out.update(label for word, label in CODE_LABELS.items()
               if re.search(r"\b%s\b" % word, code))
    out.update(label for pattern, label in OPTION_LABELS.items() if re.search(pattern, code))
    return sorted(out)


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        sys.exit(0)
    if sys.argv[1:] == ["--labels"]:
        print("\n".join("%s=%s" % (n, ",".join(labels(n))) for n in CASES))
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print("usage: cases.py --list | cases.py NAME", file=sys.stderr)
        sys.exit(2)
    try:
        CASES[sys.argv[1]]()
    except Skip as e:
        print("SKIP %s: %s" % (sys.argv[1], e))
        sys.exit(SKIP)
    except AssertionError as e:
        print("FAIL %s: %s" % (sys.argv[1], e))
        sys.exit(1)
    print("PASS " + sys.argv[1])
