"""What the MPI case modules share: the case registry and its decorator, the
skip protocol, data file names and the guide's figures. No h5perf runs here.
"""
import os

SKIP = 77  # ctest's SKIP_RETURN_CODE: shown as skipped, not passed


class Skip(Exception):
    pass


CASES = {}


def case(fn):
    # The topic modules share one name space: a second case of the same name
    # would silently replace the first (and its ctest test).
    if fn.__name__ in CASES:
        raise ValueError("case '%s' defined twice" % fn.__name__)
    CASES[fn.__name__] = fn
    return fn


FIG2 = bytes([1] * 8 + [2] * 8 + [3] * 8)
FIG3 = bytes([1, 1, 2, 2, 3, 3] * 4)
FIG3_HALF = bytes([1, 1, 2, 2, 3, 3] * 2)
FIG2_ARGS = "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4"
SUFFIX = {"posix": ".posix", "mpiio": ".mpio", "phdf5": ".h5", "pnetcdf": ".nc"}


def data_file(d, f, api):
    return os.path.join(d, "#pio_tmp_%d%s" % (f, SUFFIX[api]))


def iolog_data_calls(logs, suffix):
    """{rank: [the fields of each pwrite and pread line]} that the iolog
    shim (tests/bench/iolog.c, one log per process in logs) wrote for the
    data files ending in suffix, in each process's order (vector forms
    too: their op field starts with pwrite or pread)."""
    out = {}
    for name in os.listdir(logs):
        fds, calls = set(), out.setdefault(int(name.split(".")[1]), [])
        with open(os.path.join(logs, name)) as fh:
            for line in fh:
                f = line.split()
                if f[1] == "open":
                    if f[4].endswith(suffix):
                        fds.add(f[2])
                elif f[1] == "close":
                    fds.discard(f[2])
                elif f[2] in fds and f[1].startswith(("pwrite", "pread")):
                    calls.append(f)
    return out
