"""The configurations and API modes the fidelity harness measures (docs/performance.md).

Shared by bench/fidelity.py (which times them at bench size) and
tests/bench/offsets.py (which checks, at test size, that the limit program
issues the same offsets and lengths as h5perf). Plain data: no I/O here.
"""
import collections
import shlex

# Every configuration runs on NP processes, one process count, one transfer
# size (-x = -X, -p = -P = NP), so that h5perf runs exactly one configuration.
NP = 2

Config = collections.namedtuple("Config", "name what bench test")
CONFIGS = [
    Config("contig_1m", "1D contiguous, 1 MiB transfers",
           "-e 64M -x 1M -X 1M -B 1M", "-e 4M -x 1M -X 1M -B 1M"),
    # HDF5's collective cost is per H5Dwrite (docs/performance.md): at 8 MiB
    # transfers it is spread over eight times the bytes of the 1 MiB case.
    Config("contig_8m", "1D contiguous, 8 MiB transfers",
           "-e 64M -x 8M -X 8M -B 8M", "-e 8M -x 8M -X 8M -B 8M"),
    Config("inter_4k", "1D interleaved, 4 KiB blocks, 1 MiB transfers",
           "-I -e 64M -x 1M -X 1M -B 4K", "-I -e 256K -x 64K -X 64K -B 4K -d 2"),
    # 8 MiB, not 64 MiB: 131072 calls per process and phase already take
    # about as long as the 1 MiB case, seven times over for each contender.
    Config("inter_64b", "1D interleaved, 64-byte blocks, 64 KiB transfers",
           "-I -e 8M -x 64K -X 64K -B 64", "-I -e 16K -x 1K -X 1K -B 64"),
    Config("2d", "2D contiguous, 64 rows x 4 KiB per transfer",
           "-g -e 4K -x 4K -X 4K -B 64", "-g -e 256 -x 256 -X 256 -B 16"),
    # The block pattern (docs/block.md): a 256^3 array of 8-byte elements
    # (128 MiB) split across its second dimension, so that a shared block is
    # 256 runs of 256 KiB (one per plane); its last dimension split, runs of
    # 1 KiB; the chunked and fpp layouts, one run per block.
    Config("block_shared", "3D block, shared array, grid 1x2x1 (256 KiB runs)",
           "--pattern block --global 256x256x256 --grid 1x2x1 --layout shared",
           "--pattern block --global 8x8x8 --grid 1x2x1 --layout shared --vars 2"),
    Config("block_shared_rows", "3D block, shared array, grid 1x1x2 (1 KiB runs)",
           "--pattern block --global 256x256x256 --grid 1x1x2 --layout shared",
           "--pattern block --global 8x8x8 --grid 1x1x2 --layout shared --element-size 2"),
    Config("block_chunked", "3D block, chunked (blocks in rank order)",
           "--pattern block --global 256x256x256 --grid 1x2x1 --layout chunked",
           "--pattern block --global 8x8x8 --grid 1x2x1 --layout chunked --vars 2"),
    Config("block_fpp", "3D block, a file per process",
           "--pattern block --global 256x256x256 --grid 1x2x1 --layout fpp",
           "--pattern block --global 8x8x8 --grid 1x2x1 --layout fpp --vars 2"),
]
BLOCK = ("block_shared", "block_shared_rows", "block_chunked", "block_fpp")

# h5perf's API options against the limit program's. HDF5 has no bare loop of
# its own: it is held to bare MPI-IO (docs/performance.md: within 10% at 1 MiB contiguous).
Mode = collections.namedtuple("Mode", "name what h5perf limit configs")
MODES = [
    Mode("posix", "POSIX", "-A posix", "-A posix", None),
    Mode("mpiio", "MPI-IO independent", "-A mpiio", "-A mpiio", None),
    Mode("mpiio_coll", "MPI-IO collective", "-A mpiio -C", "-A mpiio -C", None),
    Mode("phdf5", "HDF5 independent vs bare MPI-IO", "-A phdf5", "-A mpiio",
         ("contig_1m", "contig_8m") + BLOCK),
    Mode("phdf5_coll", "HDF5 collective vs bare MPI-IO", "-A phdf5 -C", "-A mpiio -C",
         ("contig_1m", "contig_8m") + BLOCK),
    # PnetCDF, like HDF5, against bare MPI-IO on the same bytes (only where
    # the h5perf build includes it: fidelity.py leaves these modes out).
    Mode("pnetcdf", "PnetCDF independent vs bare MPI-IO", "-A pnetcdf", "-A mpiio",
         ("contig_1m", "contig_8m") + BLOCK),
    Mode("pnetcdf_coll", "PnetCDF collective vs bare MPI-IO", "-A pnetcdf -C", "-A mpiio -C",
         ("contig_1m", "contig_8m") + BLOCK),
]
LIBRARY_MODES = ("phdf5", "phdf5_coll", "pnetcdf", "pnetcdf_coll")


def applies(mode, config):
    return mode.configs is None or config.name in mode.configs


def one_run(np=NP):
    """The options that pin the process count."""
    return ["-p", str(np), "-P", str(np)]


def is_block(config):
    return "--pattern" in shlex.split(config.bench)


def h5perf_args(config, mode, size="bench", np=NP, iterations=1):
    return (shlex.split(mode.h5perf) + shlex.split(getattr(config, size)) + one_run(np)
            + ["-i", str(iterations)])


def limit_args(config, mode, size="bench", np=NP, iterations=1):
    return (shlex.split(mode.limit) + shlex.split(getattr(config, size)) + one_run(np)
            + ["-i", str(iterations)])


def size_value(text):
    """h5perf's sizes: digits, an optional K/M/G (binary) and an optional B."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.upper()
    if t.endswith("B"):
        t = t[:-1]
    unit = t[-1] if t and t[-1] in "KMG" else ""
    return int(t[:len(t) - len(unit)]) * units[unit]


def bytes_per_phase(config, size="bench", np=NP):
    """Bytes all processes move in one phase (h5perf's F x D x N)."""
    opts = shlex.split(getattr(config, size))
    value = {o: opts[i + 1] for i, o in enumerate(opts[:-1])
             if o in ("-e", "-d", "-F", "--global", "--element-size", "--vars")}
    if "--global" in value:
        n = 1
        for d in value["--global"].split("x"):
            n *= int(d)
        return n * int(value.get("--element-size", 8)) * int(value.get("--vars", 1))
    e = size_value(value["-e"])
    side = e * np
    n = side * side if "-g" in opts else side
    return int(value.get("-d", 1)) * int(value.get("-F", 1)) * n
