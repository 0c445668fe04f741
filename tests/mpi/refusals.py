"""MPI cases of refusals that a bad-input row cannot make: a file-size
limit (ulimit -f) on some processes, kept files read over several process
counts and cut short, and a geometry whose calls hold a billion runs.
Each refusal is one line and exit 2 before any data file exists (no file
left in the directory, not even the size probe).
"""
import os

from common import case, data_file
from harness import TempDir, built_apis, expect_eq, listing, run

# The rank of the process a wrap runs in, under Open MPI or MPICH.
RANK = '${OMPI_COMM_WORLD_RANK:-$PMI_RANK}'


def limit_on(rank, blocks):
    """A shell wrap setting ulimit -f (in the shell's 512-byte or 1 KiB
    blocks; dash counts 512) on one process, or on all (rank None)."""
    if rank is None:
        return "ulimit -f %d" % blocks
    return 'if [ "%s" = %d ]; then ulimit -f %d; fi' % (RANK, rank, blocks)


@case
def refusal_file_size_limit():
    """A file-size limit below the largest file, on one process only: that
    process's line, exit 2, nothing created (a file under 4 GiB was not
    probed and failed mid-run with "File too large"). Under a limit on
    every process, a file of the sweep past it and the probe of a file of
    more than 4 GiB: the probe extends its file with SIGXFSZ ignored, so no
    process is killed (status 153) and no probe file stays behind; a
    placement to blame is named."""
    with TempDir() as d:
        r = run(2, "-e 16M -x 8M -X 8M -B 8M -A posix -w", env={"HDF5_PARAPREFIX": d},
                wrap=limit_on(1, 16384))
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: -e '16M': data files of 32 MiB (1 dataset of 32 MiB, 2 processes) do not "
            "fit under the file-size limit (ulimit -f) of process 1 (8 MiB)"]),
            "a limit on process 1", r)
        expect_eq(listing(d), [], "files left")
        r = run(2, "--pattern block --global 8x8 --vars 2 --align-data 8G -A posix -w",
                env={"HDF5_PARAPREFIX": d}, wrap=limit_on(None, 16384))
        expect_eq((r.rc, r.h5perf_err), (2, [
            "h5perf: --align-data '8G': at multiples of 8589934592 bytes, the chunked file of 2 "
            "variables (2 processes) would reach 24.0 GiB and does not fit under the file-size "
            "limit (ulimit -f) of process 0 (8 MiB); give smaller values"]),
            "a placement past the limit", r)
        expect_eq(listing(d), [], "files left (the size probe)")


@case
def refusal_read_only_every_count():
    """A read-only sweep over two process counts reads the kept file at
    both: the particles' arrays differ per count, so the file written with
    2 processes is refused for the run with 1, for every API, before
    anything is read (it was checked against the largest count only and
    read at the other, exit 0)."""
    with TempDir() as d:
        apis = [a for a in ("posix", "phdf5", "pnetcdf") if a in built_apis()]
        base = "--pattern particles --particles 64 --layout shared -A %s" % ",".join(apis)
        r = run(2, base + " -p 2 -w", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "the kept files", r)
        why = {"posix": "holds 4096 bytes, not the 2048 of the array this run reads",
               "phdf5": "has a dataset 'Timestep_0/x' that is not the 64 array this run reads",
               "pnetcdf": "has a variable 'x' that is not the 64 elements this run reads"}
        for api in apis:
            r = run(2, "--pattern particles --particles 64 --layout shared -A %s --read-only "
                    "-p 1 -P 2" % api, env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.h5perf_err), (2, [
                "h5perf: --read-only: data file '%s' %s with 1 process (written with other "
                "options?)" % (data_file(d, 1, api), why[api])]), "read-only, %s" % api, r)
            expect_eq(r.out, "", "nothing reported (%s)" % api, r)
        r = run(2, base + " --read-only -p 2 -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq((r.rc, r.h5perf_err), (0, []), "the count that wrote them", r)


@case
def refusal_read_only_cut_short():
    """A kept file cut short is refused before anything is read, for every
    API: POSIX and MPI-IO by their size, HDF5 by its own check on opening,
    PnetCDF by the end of its last variable (its header is whole, and it
    read zeros with exit 0 where -D v was not given)."""
    with TempDir() as d:
        apis = [a for a in ("posix", "mpiio", "phdf5", "pnetcdf") if a in built_apis()]
        args = "-e 8K -B 4K -x 4K -X 4K -p 2 -d 2 -A %s"
        r = run(2, args % ",".join(apis) + " -w",
                env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "the kept files", r)
        for api in apis:
            path = data_file(d, 1, api)
            size = os.path.getsize(path)
            os.truncate(path, size - 100)
            why = {"posix": "holds %d bytes, fewer than the 32768 this run reads" % (size - 100),
                   "mpiio": "holds %d bytes, fewer than the 32768 this run reads" % (size - 100),
                   "phdf5": "is not a readable HDF5 file",
                   "pnetcdf": "holds %d bytes, fewer than the %d its variables end at"
                              % (size - 100, size)}[api]
            r = run(2, args % api + " --read-only", env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.h5perf_err), (2, [
                "h5perf: --read-only: data file '%s' %s (written with other options?)"
                % (path, why)]), "a file cut short (%s)" % api, r)


@case
def refusal_runs_of_a_large_dimension():
    """A dimension of 2^31 elements, split so that every element of a
    process's block is a run of its own: MPI-IO refuses the dimension (its
    subarray takes int); PnetCDF carries it with MPI_Aint strides, but each
    call of 2^30 runs holds a 40 GiB MPI-IO view, which the memory check
    now counts (on a host with 64 GiB it went through and the view grew
    until the process died). Before, the run's 2^31 runs per process are
    announced as taking more than half an hour; with HDF5, independent (no
    view), the warning comes before the run, here refused for its buffers
    on a host with 1 MiB."""
    with TempDir() as d:
        host = os.uname().nodename
        meminfo = os.path.join(d, "..", os.path.basename(d) + ".meminfo")
        with open(meminfo, "w") as fh:
            fh.write("MemTotal: 70000000 kB\nMemFree: 1 kB\nMemAvailable: 67108864 kB\n")
        geometry = "--pattern block --global 2147483648x2 --grid 1x2 --element-size 1 " \
                   "--layout shared -w"
        warn = ("h5perf: warning: --global '2147483648x2' with 2 processes, layout shared: each "
                "process moves its data in %d contiguous runs (%d per phase here); at 1 us per "
                "run at the least, this run takes more than 36 minutes")
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_MEMINFO": meminfo}
        try:
            r = run(2, geometry + " --transfer-size 1G -A mpiio", env=env)
            expect_eq((r.rc, r.h5perf_err), (2, [
                "h5perf: --global '2147483648x2' with 2 processes, layout shared: MPI-IO: "
                "dimension 1 of 2147483648 elements is above the 2147483647 elements of an MPI "
                "subarray; use --layout chunked or fpp, or leave mpiio out of -A"]), "MPI-IO", r)
            if "pnetcdf" in built_apis():
                r = run(2, geometry + " --transfer-size 1G -A pnetcdf", env=env)
                expect_eq((r.rc, r.h5perf_err), (2, [
                    warn % (2147483649, 2147483649),
                    "h5perf: --global '2147483648x2' over 2 processes: the largest block is 2 GiB "
                    "and its calls' MPI-IO file views up to 40.0 GiB (40 bytes per contiguous "
                    "run) per process; the 2 processes on host '%s' need 84.0 GiB, and it has "
                    "64 GiB available; use more processes, on more hosts, or give "
                    "--no-memory-check" % host]), "PnetCDF", r)
            with open(meminfo, "w") as fh:
                fh.write("MemTotal: 70000000 kB\nMemFree: 1 kB\nMemAvailable: 1024 kB\n")
            r = run(2, geometry + " -A phdf5", env=env)
            expect_eq((r.rc, r.h5perf_err), (2, [
                warn % (2147483648, 2147483648),
                "h5perf: --global '2147483648x2' over 2 processes: the largest block is 2 GiB per "
                "process; the 2 processes on host '%s' need 4 GiB, and it has 1 MiB available; "
                "use more processes, on more hosts, or give --no-memory-check" % host]),
                "HDF5, independent", r)
        finally:
            os.unlink(meminfo)
        expect_eq(listing(d), [], "files left")
