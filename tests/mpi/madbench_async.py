"""MPI cases of the madbench pattern's asynchronous mode (docs/madbench.md,
"Asynchronous I/O"): MADbench2's IOMODE=ASYNC, each read and write started
(MPI-IO's MPI_File_iread_at or iwrite_at, PnetCDF's ncmpi_iget_vara or
iput_vara) and completed (MPI_Wait, ncmpi_wait) after the busy work that
follows, counted per process by the mpicalls and nccalls shims; its files
byte for byte those of the blocking mode and read back by numpy and
cdf5.py against the content rule; its times on the synthetic clock
(a read's or write's time adds its start and its wait); the APIs and -C it
refuses, each with one line, exit 2 and no file.
"""
import filecmp
import os

import madbench
from common import Skip, case
from harness import TempDir, built_apis, expect_eq, listing, run, run_counted

ARGS = "--pattern madbench --pixels 100 --bins 3 --scalapack-block 16 --file-block 4096 " \
       "--read-mod 2 --write-mod 4 -A %s -D v"
# Per process, both layouts: S and W start 6 writes, W and C 6 reads.
CALLS = {"mpiio": ("MPICALLS", ["MPI_File_iread_at 12", "MPI_File_iwrite_at 12", "MPI_Wait 24"]),
         "pnetcdf": ("NCCALLS", ["ncmpi_iget_vara 12", "ncmpi_iput_vara 12", "ncmpi_wait 24 24"])}


def calls_and_files(api):
    """4 processes, 3 bins, shared and fpp, through api: each process
    starts 6 writes (S and W) and 6 reads (W and C) per layout,
    nonblocking, and completes each with one wait of one request; no
    blocking transfer. -D v checks every read at its wait; the kept files
    are byte for byte those of the blocking mode, and hold the content
    rule."""
    g = madbench.Geom(4, 100, 3, 16, 4096)
    shim, want = CALLS[api]
    with TempDir() as d, TempDir() as s:
        r, got = run_counted(4, ARGS % api + " --io-mode async", d, shim,
                             {"HDF5_NOCLEANUP": "1"}, timeout=170)
        expect_eq(got, [want] * 4, "%s's calls of each process" % api, r)
        madbench.check_files(d, g, [api])
        r = run(4, ARGS % api + " --io-mode sync",
                env={"HDF5_PARAPREFIX": s, "HDF5_NOCLEANUP": "1"}, timeout=170)
        expect_eq((r.rc, r.h5perf_err), (0, []), "the blocking run", r)
        names = sorted(n for n in listing(d) if not n.startswith("calls"))
        expect_eq(names, sorted(listing(s)), "the same files")
        for n in names:
            expect_eq(filecmp.cmp(os.path.join(d, n), os.path.join(s, n), shallow=False), True,
                      "%s byte for byte the blocking mode's" % n)


@case
def madbench_async_calls_and_files_mpiio():
    calls_and_files("mpiio")


@case
def madbench_async_calls_and_files_pnetcdf():
    if "pnetcdf" not in built_apis():
        raise Skip("this build of h5perf does not include PnetCDF")
    calls_and_files("pnetcdf")


@case
def madbench_async_timers_on_the_synthetic_clock():
    """Each start and each wait takes 1 ms, then 2 ms, in turn
    (engine_null), in MADbench2's asynchronous order: S: W0 (busy) w0 W1
    (busy) w1 W2 w2; W: R0 r0 R1 (busy) W0 r1 R2 (busy) w0 W1 r2 (busy)
    w1 W2 w2; C: R0 r0 R1 (busy) r1 R2 (busy) r2 (busy), capitals the
    starts. A read's or write's time is its starts' and its waits', as
    MADbench2's io_distmatrix and io_resync count them; busy work takes
    none on this clock."""
    got = madbench.null_report("mpiio", "--io-mode async --busy-exponent 1")
    want = {"S_busy": 0, "S_write": 9, "W_busy": 0, "W_read": 8, "W_write": 10, "C_busy": 0,
            "C_read": 9}
    expect_eq(got, {k: ("%.4f" % (v / 1000.0),) * 3 for k, v in want.items()},
              "the times of starts and waits")


@case
def madbench_async_refusals():
    """What the asynchronous mode cannot run: POSIX (MADbench2 does no I/O
    then), HDF5 (no asynchronous calls without the async VOL connector),
    -C (MPI 3.1's collective nonblocking calls), the variants that move
    every bin in one call, an unknown mode; each one line, exit 2, no
    file."""
    remedy = "give -A mpiio" + (" or -A pnetcdf" if "pnetcdf" in built_apis() else "")
    cases = [("-A posix", "MADbench2 does no I/O through POSIX in its ASYNC mode, and POSIX has "
              "no nonblocking call h5perf uses; " + remedy),
             ("-A mpiio -C", "MADbench2's asynchronous calls are independent, and the collective "
              "nonblocking ones (MPI_File_iwrite_at_all) need MPI 3.1, which h5perf does not "
              "require; leave out -C")]
    joined = "%s's %s variant moves every bin in one call, not MADbench2's call per bin; leave " \
             "out its option"
    cases.append(("-A mpiio --mpiio.joined=only", joined % ("mpiio", "joined")))
    if "pnetcdf" in built_apis():
        cases.append(("-A pnetcdf --pnetcdf.nonblocking", joined % ("pnetcdf", "nonblocking")))
    if "phdf5" in built_apis():
        cases.append(("-A mpiio,phdf5", "HDF5 has no asynchronous reads or writes without the "
                      "async VOL connector, which h5perf does not use; " + remedy))
    lines = [(extra + " --io-mode async", "h5perf: --io-mode 'async': " + why)
             for extra, why in cases]
    lines.append(("-A mpiio --io-mode none",
                  "h5perf: --io-mode 'none': expected sync or async (MADbench2's IOMODE)"))
    for extra, line in lines:
        with TempDir() as d:
            r = run(4, "--pattern madbench --pixels 100 " + extra, env={"HDF5_PARAPREFIX": d})
            expect_eq((r.rc, r.h5perf_err), (2, [line]), extra, r)
            expect_eq(listing(d), [], "no file (%s)" % extra, r)
