"""MPI cases where a run fails without special mounts: I/O errors on one or
every process, verification mismatches, the watchdog over a hung process or
a stuck library call, files beyond the file system's largest file, and a
report that cannot be written. Each fails cleanly: its lines, its exit
status, no data file left.
"""
import glob
import itertools
import json
import os
import re
import subprocess

from common import SUFFIX, Skip, case, data_file
from harness import (TempDir, built_apis, expect, expect_eq, hdf5_version, launcher_is_hydra,
                     listing, run)


@case
def io_failure_full_disk_mid_run():
    """A write that fails mid-run (a full disk: ENOSPC from rank 1's first
    write on, faults shim) stops the run everywhere: one line per failing
    process, this run's files removed, exit 1. (This case used a file-size
    limit, ulimit -f; such a limit is now refused before any file exists,
    refusals.py refusal_file_size_limit.)"""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".posix", "H5PERF_FAULT_KIND": "enospc",
               "H5PERF_FAULT_RANK": "1", "H5PERF_FAULT_CALL": "1"}
        r = run(2, "-e 8M -B 1M -x 4M -X 4M -p 2 -A posix,mpiio", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        name = data_file(d, 1, "posix")
        expect_eq(r.h5perf_err, [
            "h5perf: rank 1: POSIX write '%s' at offset 8388608, length 4194304: No space left "
            "on device" % name], "failure lines", r)
        expect(not any("IO API = MPIO" in l for l in r.lines), "the sweep stopped", r)
        expect_eq(listing(d), [], "files left after the failure", r)
        if "pnetcdf" not in built_apis():
            return
        # PnetCDF: ROMIO returns the failed write (MPICH); ompio's short
        # count reaches nobody, so the size check after the write phase
        # finds the file short by rank 1's 8 MiB (its header comes first).
        env["H5PERF_FAULT_SUFFIX"] = ".nc"
        r = run(2, "-e 8M -B 1M -x 4M -X 4M -p 2 -A pnetcdf", env=env)
        expect_eq(r.rc, 1, "exit status, PnetCDF", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 0: PnetCDF check size of '%s': the file holds 8389120 bytes after the "
            "write phase instead of 16777728: data was lost although every write reported "
            "success (file system full?)" % data_file(d, 1, "pnetcdf")], "failure lines, PnetCDF", r)
        expect_eq(listing(d), [], "files left after the failure, PnetCDF", r)


@case
def verify_mismatch_reported():
    """-D v: bytes corrupted on their way back (LD_PRELOAD shim on pread) are
    reported per failing process with offset, values and count; the sweep
    goes on, no read throughput is printed for the failed run, exit 1."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_CORRUPT_SUFFIX": ".posix", "H5PERF_CORRUPT_OFFSET": "13",
               "H5PERF_CORRUPT_COUNT": "3"}
        r = run(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -i 2 -A posix,mpiio -D v", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        name = data_file(d, 1, "posix")
        line = ("h5perf: rank 1: verify '%s' (POSIX, 3 processes, transfer size 4, iteration %d):"
                " 3 bytes differ, the first at offset 13: expected 2, found 253")
        expect_eq(r.h5perf_err, [line % (name, 1), line % (name, 2)], "mismatch lines", r)
        i = r.lines.index("        IO API = POSIX")
        expect_eq(r.lines[i + 9:i + 14], [
            "            Read (2 iteration(s)):",
            "                FAILED: data verification (see stderr)",
            "            Read Open-Close (2 iteration(s)):",
            "                FAILED: data verification (see stderr)",
            "        IO API = MPIO"], "report of the failed run", r)
        expect(r.lines[i + 1] == "            Write (2 iteration(s)):", "write figures kept", r)
        expect_eq(listing(d), [], "files left", r)
        # Without -D v nothing is checked: the same corruption goes unnoticed.
        r = run(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -A posix", env=env)
        expect_eq(r.rc, 0, "exit status without -D v", r)
        if "pnetcdf" not in built_apis():
            return
        # PnetCDF: the same bytes of its variable, after its 512-byte header.
        env.update({"H5PERF_CORRUPT_SUFFIX": ".nc", "H5PERF_CORRUPT_OFFSET": "525"})
        r = run(3, "-B 2 -e 8 -p 3 -P 3 -x 4 -X 4 -i 2 -A pnetcdf -D v", env=env)
        expect_eq(r.rc, 1, "exit status, PnetCDF", r)
        name = data_file(d, 1, "pnetcdf")
        line = line.replace("POSIX", "PnetCDF")
        expect_eq(r.h5perf_err, [line % (name, 1), line % (name, 2)], "mismatch lines, PnetCDF", r)
        i = r.lines.index("        IO API = PnetCDF")
        expect_eq(r.lines[i + 9:i + 13], [
            "            Read (2 iteration(s)):",
            "                FAILED: data verification (see stderr)",
            "            Read Open-Close (2 iteration(s)):",
            "                FAILED: data verification (see stderr)"], "PnetCDF report", r)
        expect_eq(listing(d), [], "files left, PnetCDF", r)


@case
def io_error_on_one_process():
    """An I/O error on one process only: every process stops, one line for the
    failing process, files removed, exit 1, no hang."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".posix", "H5PERF_FAULT_EIO_RANK": "2"}
        r = run(3, "-e 64K -B 16K -x 32K -X 32K -p 3 -A posix,mpiio", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 2: POSIX write '%s' at offset 131072, length 32768: "
            "Input/output error" % data_file(d, 1, "posix")], "failure lines", r)
        expect_eq(listing(d), [], "files left", r)


@case
def hdf5_close_failure_aborts_with_status_1():
    """A write that fails inside HDF5's close (EIO on the 7th write of a
    1-process collective run, faults shim): the file cannot be closed, so
    the process aborts instead of finalizing, and the job still ends with
    exit 1 and the file removed. Under MPICH, whose MPI_Abort calls exit(),
    HDF5's exit handler used to close that file again and die of signal 11."""
    if "phdf5" not in built_apis():
        raise Skip("built without parallel HDF5")
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".h5", "H5PERF_FAULT_KIND": "eio",
               "H5PERF_FAULT_RANK": "0", "H5PERF_FAULT_CALL": "7"}
        r = run(1, "-A phdf5 -e 4K -B 2K -x 4K -X 4K -p 1 -P 1 -d 2 -i 2 -I -C -D v", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        name = data_file(d, 1, "phdf5")
        errs = r.h5perf_err
        expect_eq(len(errs), 2, "failure lines", r)
        expect(re.fullmatch(r"h5perf: rank 0: HDF5 close '%s': .+ \(H5FD__mpio_write\)"
                            % re.escape(name), errs[0]) is not None, "the failed close", r)
        expect_eq(errs[1], "h5perf: rank 0: HDF5 could not close a data file after the "
                  "failure: aborting instead of finalizing", "the abort", r)
        expect_eq(listing(d), [], "files left", r)


@case
def watchdog_aborts_a_hung_run():
    """A process that failed waits --watchdog seconds for the others (one is
    stuck in a write that never returns), then prints its error, removes this
    run's files and aborts the job instead of hanging."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".posix", "H5PERF_FAULT_EIO_RANK": "1",
               "H5PERF_FAULT_HANG_RANK": "0"}
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2 -A posix --watchdog 3", env=env,
                timeout=60)
        expect(r.rc != 0, "non-zero exit status", r)
        name = data_file(d, 1, "posix")
        expect_eq(r.h5perf_err, [
            "h5perf: rank 1: POSIX write '%s' at offset 65536, length 32768: "
            "Input/output error" % name,
            "h5perf: rank 1: the processes did not agree on this failure within 3 s "
            "(--watchdog): aborting the job"], "watchdog lines", r)
        expect_eq(listing(d), [], "files left", r)


@case
def watchdog_failed_process_still_in_a_call():
    """A process that failed and is still inside a library call when
    --watchdog passes (its data write fails with EIO, then its HDF5 close
    is slow: every write waits 3 s, faults shim) says so in the watchdog's
    line: it did not wait in h5perf's agreement but in the library, as when
    HDF5 1.10.8's close diverges among processes after one's metadata write
    failed (docs/design.md, "A failed phase's close"). The fault campaign
    tells that library defect from a failed agreement of h5perf's by it."""
    if "phdf5" not in built_apis():
        raise Skip("built without parallel HDF5")
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".h5", "H5PERF_FAULT_KIND": "eio",
               "H5PERF_FAULT_RANK": "0", "H5PERF_FAULT_CALL": "1",
               "H5PERF_FAULT_FROM_OFFSET": "2048", "H5PERF_FAULT_DELAY_US": "3000000"}
        r = run(1, "-A phdf5 -e 4K -B 1K -x 1K -X 1K -p 1 -P 1 --watchdog 2", env=env,
                timeout=60)
        expect(r.rc != 0, "non-zero exit status", r)
        name = data_file(d, 1, "phdf5")
        errs = [l for l in r.h5perf_err if not l.startswith("h5perf: warning: ")]
        # The library's words for the failed write: ompio's "file write
        # failed", ROMIO's (MPICH) MPI error string.
        expect(len(errs) == 2 and re.match(
            r"h5perf: rank 0: HDF5 write '%s': transfer 0 of 'Dataset_1', 1024 bytes from "
            r"element \(0\): (file write failed|MPI_File_write_at failed: .*Input/output error.*) "
            r"\(H5FD__mpio_write\)$" % re.escape(name), errs[0]), "the write's line", r)
        expect_eq(errs[1:], [
            "h5perf: rank 0: the processes did not agree on this failure within 2 s "
            "(--watchdog); this process is still in HDF5 close of '%s': aborting the job"
            % name], "watchdog line", r)
        expect_eq(listing(d), [], "files left", r)


STALL = ("h5perf: rank %d: %s write of '%s' has not returned within 4 s (twice --watchdog, "
         "plus 1 s per MiB it may move): the library or the file system is stuck; aborting "
         "the job")


@case
def watchdog_ends_a_stuck_call():
    """No process has failed, but one is stuck in a write that never returns
    (a hung server): after twice --watchdog (plus 1 s per MiB the call may
    move) the process names the call, removes this run's files and aborts
    the job. In a collective HDF5 write the others are stuck too and may
    say so as well."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".posix", "H5PERF_FAULT_HANG_RANK": "0"}
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2 -A posix --watchdog 2", env=env,
                timeout=60)
        expect(r.rc != 0, "non-zero exit status", r)
        expect_eq(r.h5perf_err, [STALL % (0, "POSIX", data_file(d, 1, "posix"))],
                  "watchdog line", r)
        expect_eq(listing(d), [], "files left", r)
        env["H5PERF_FAULT_SUFFIX"] = ".h5"
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2 -A phdf5 -C --watchdog 2", env=env,
                timeout=60)
        expect(r.rc != 0, "non-zero exit status, HDF5", r)
        lines = [STALL % (rank, "HDF5", data_file(d, 1, "phdf5")) for rank in (0, 1)]
        expect(r.h5perf_err and all(l in lines for l in r.h5perf_err),
               "only watchdog lines, HDF5", r)
        expect_eq(listing(d), [], "files left, HDF5", r)
        if "pnetcdf" not in built_apis():
            return
        # PnetCDF: process 0 writes the header when the first dataset begins
        # (ncmpi_enddef), and is stuck there; the other waits inside it.
        env["H5PERF_FAULT_SUFFIX"] = ".nc"
        r = run(2, "-e 64K -B 16K -x 32K -X 32K -p 2 -A pnetcdf -C --watchdog 2", env=env,
                timeout=60)
        expect(r.rc != 0, "non-zero exit status, PnetCDF", r)
        lines = [STALL.replace(" write of", " begin dataset of") %
                 (rank, "PnetCDF", data_file(d, 1, "pnetcdf")) for rank in (0, 1)]
        expect(r.h5perf_err and all(l in lines for l in r.h5perf_err),
               "only watchdog lines, PnetCDF", r)
        expect_eq(listing(d), [], "files left, PnetCDF", r)


@case
def files_beyond_the_file_system_refused():
    """A data file larger than the file system's largest file is refused up
    front (exit 2, one line, nothing created): the flat files by their size,
    the HDF5 file by the end its aligned data and metadata could reach. The
    shim makes ftruncate() beyond 6 GiB fail as such a file system would."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_MAX_FILE": str(6 << 30)}
        r = run(2, "-e 4G -x 1M -X 1M -B 1M -w -A posix,mpiio", env=env)
        expect_eq(r.rc, 2, "exit status, -e", r)
        expect_eq(r.h5perf_err, [
            "h5perf: -e '4G': data files of 8 GiB (1 dataset of 8 GiB, 2 processes) do not fit in '%s': "
            "its file system refuses a file of that size (File too large)" % d], "-e line", r)
        r = run(2, "-e 8K -w -A phdf5 -a 1G -T 1", env=env)
        expect_eq(r.rc, 2, "exit status, -a", r)
        expect_eq(r.h5perf_err, [
            "h5perf: -a '1G': HDF5 places data and metadata at multiples of the alignment, so "
            "its file could reach 7 GiB (2 processes), more than the file system of '%s' can "
            "hold (File too large); use a smaller -a" % d], "-a line", r)
        expect_eq(listing(d), [], "files created", r)
        # Aligning the data alone (-T above HDF5's metadata blocks) fits.
        r = run(2, "-e 8K -w -A phdf5 -a 1G -T 4K", env=env)
        expect_eq(r.rc, 0, "exit status, -a with -T", r)
        expect_eq(listing(d), [], "files left", r)


@case
def report_write_failure():
    """A report that cannot be written is a failed run, not a silent success."""
    with TempDir() as d:
        r = run(2, "-e 8K -A posix -o /dev/full", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 1, "exit status", r)
        expect_eq(r.h5perf_err, ["h5perf: cannot write the report to '/dev/full': "
                                 "No space left on device"], "message", r)
        expect_eq(listing(d), [], "files left", r)


@case
def io_failure_read_the_library_did_not_report():
    """A read that fails with EIO inside ompio: Open MPI passes a short count
    on as success, PnetCDF hides counts and HDF5 takes one for the end of
    the file (and fills zeros): the run ended with exit 0 and wrong data
    read. Reads through those APIs are probed (their buffer poisoned first,
    64 bytes per call checked after): exit 1, the line of the process.
    MPICH's ROMIO returns the failed read itself: exit 1, its error."""
    with TempDir() as d:
        apis = [a for a in ("phdf5", "pnetcdf") if a in built_apis()]
        hydra = launcher_is_hydra()
        base = "--pattern block --global 64x64 --layout shared -A %s"
        r = run(2, base % ",".join(apis) + " -w", env={"HDF5_PARAPREFIX": d,
                                                      "HDF5_NOCLEANUP": "1"})
        expect_eq((r.rc, r.h5perf_err), (0, []), "the kept files", r)
        for api in apis:
            for extra in ("", " -C"):
                env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
                       "H5PERF_FAULT_SUFFIX": SUFFIX[api], "H5PERF_FAULT_KIND": "eio",
                       "H5PERF_FAULT_RANK": "1", "H5PERF_FAULT_CALL": "1",
                       "H5PERF_FAULT_FROM_OFFSET": str(os.path.getsize(data_file(d, 1, api)) -
                                                       16384)}
                wd = " --watchdog 5" if hydra else ""
                r = run(2, base % api + " --read-only" + extra + wd, env=env)
                what = "%s%s" % (api, extra)
                expect_eq(r.rc, 1, "exit status (%s)" % what, r)
                if hydra:
                    # MPICH's ROMIO returns the failed read: the library's
                    # own error is the line. With -C, HDF5 1.10's error path
                    # then skips the collective MPI_File_set_view that the
                    # other process makes, so the watchdog ends the job.
                    lines = r.h5perf_err
                    # The watchdog's line names the HDF5 call the failed
                    # process is still in, if it is in one.
                    watchdog = (r"h5perf: rank 1: the processes did not agree on this failure "
                                r"within 5 s \(--watchdog\)(; this process is still in HDF5 "
                                r"\w+ of '%s')?: aborting the job$" %
                                re.escape(data_file(d, 1, api)))
                    if extra and len(lines) == 2 and re.match(watchdog, lines[1]):
                        lines = lines[:1]
                    expect(len(lines) == 1 and re.match(
                        r"h5perf: rank 1: (HDF5|PnetCDF) read '%s'.*(Input/output|I/O) error" %
                        re.escape(data_file(d, 1, api)), lines[0]),
                        "the line (%s, MPICH)" % what, r)
                    continue
                expect(len(r.h5perf_err) == 1 and re.match(
                    r"h5perf: rank 1: (HDF5|PnetCDF) read '%s': the call reported success, but "
                    r"byte \d+ of the data holds 0x[0-9a-f]{2}, not the file's 0x[0-9a-f]{2} \(a "
                    r"short read the library did not report\?\)$" % re.escape(
                        data_file(d, 1, api)), r.h5perf_err[0]), "the line (%s)" % what, r)


@case
def io_failure_collective_write_the_library_did_not_report():
    """A collective MPI-IO write whose aggregator (rank 0) fails with EIO:
    ompio prints its own error and reports success on every process, the
    data of ranks 1 and 2 never reaches the file, and the size check passes
    (the file's end was written). The fault campaign found it (seed
    1840198060): exit 0 with holes in the file. Reads through MPI-IO are
    probed like HDF5's and PnetCDF's: each process whose data is missing
    fails with its line, at the probe's offset in the file; exit 1, no file
    left. MPICH's ROMIO returns the failed write to rank 0: its line."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".mpio", "H5PERF_FAULT_KIND": "eio",
               "H5PERF_FAULT_RANK": "0", "H5PERF_FAULT_CALL": "2"}
        r = run(3, "-e 8192 -B 4096 -x 4096 -X 4096 -p 3 -P 3 -A mpiio -C -i 1", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        name = data_file(d, 1, "mpiio")
        if launcher_is_hydra():
            # MPICH's ROMIO returns the aggregator's failed write.
            expect(len(r.h5perf_err) == 1 and re.match(
                r"h5perf: rank 0: MPI-IO write '%s' at offset 4096, length 4096: .*"
                r"Input/output error$" % re.escape(name), r.h5perf_err[0]),
                "failure line, MPICH", r)
            expect_eq(listing(d), [], "files left, MPICH", r)
            return
        line = ("h5perf: rank %d: MPI-IO read '%s' at offset %d: the call reported success, but "
                "byte %d of the data holds 0x00, not the file's 0x%02x (a short read the "
                "library did not report?)")
        expect_eq(r.h5perf_err, [line % (1, name, 12287, 12287, 2),
                                 line % (2, name, 20479, 20479, 3)], "failure lines", r)
        expect_eq(listing(d), [], "files left", r)


PROBE_LINE = (r"h5perf: rank %d: %s read '%s'%s: the call reported success, but byte \d+ of the "
              r"data holds 0x[0-9a-f]{2}, not the file's 0x[0-9a-f]{2} \(a short read the "
              r"library did not report\?\)$")


def lost_data_run(d, nprocs, args, fault, what):
    """A run under the faults shim (fault: its H5PERF_FAULT_* settings but
    the file suffix, from args' API); returns it, exit 1 and no file left
    asserted."""
    api = args.split("-A ")[1].split()[0]
    env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
           "H5PERF_FAULT_SUFFIX": SUFFIX[api]}
    env.update({"H5PERF_FAULT_" + k: v for k, v in fault.items()})
    r = run(nprocs, args + " --watchdog 10", env=env)
    expect_eq(r.rc, 1, "exit status (%s)" % what, r)
    expect_eq(listing(d), [], "files left (%s)" % what, r)
    return r


@case
def io_failure_lost_data_probed_in_every_kind_of_read():
    """Data a library loses while reporting success is caught by the probes
    of every kind of read, not only the one-call-per-step reads of a phase
    that only reads (the fault campaign found the first, seed 1613912177):
    - a read in a phase that also writes: the madbench pattern's W reads
      what S wrote; a collective MPI-IO write of S whose aggregator (rank
      0) failed (EIO) was reported done by ompio on every process, and W,
      reading the hole, then overwrote it: exit 0 before;
    - a nonblocking read completed at its wait (--io-mode async), and a
      joined read of every variable's step in one call
      (--pnetcdf.nonblocking=only): PnetCDF passes on ompio's short count
      (the first read of rank 1 moves half) as success: exit 0 before.
    Each ends with exit 1, the probe's line of each process whose data is
    missing, no file left. MPICH's ROMIO reports the failed write and the
    short read itself: exit 1 with its line."""
    with TempDir() as d:
        hydra = launcher_is_hydra()
        name = re.escape(data_file(d, 1, "mpiio"))
        r = lost_data_run(d, 4, "-A mpiio --pattern madbench --pixels 64 --bins 3 "
                          "--scalapack-block 8 --layout shared -C",
                          {"KIND": "eio", "RANK": "0", "CALL": "2"}, "madbench W, MPI-IO")
        if hydra:
            expect(len(r.h5perf_err) == 1 and re.match(
                r"h5perf: rank 0: MPI-IO write '%s' at offset \d+, length \d+: .*Input/output "
                r"error$" % name, r.h5perf_err[0]), "the line (madbench W, MPI-IO, MPICH)", r)
        else:
            expect_eq(len(r.h5perf_err), 3, "a line per process whose data is lost", r)
            for rank, line in zip((1, 2, 3), r.h5perf_err):
                expect(re.match(PROBE_LINE % (rank, "MPI-IO", name, r" at offset \d+"), line),
                       "the line of rank %d (madbench W, MPI-IO)" % rank, r)
        if "pnetcdf" not in built_apis():
            return
        name = re.escape(data_file(d, 1, "pnetcdf"))
        short = {"KIND": "short", "RANK": "1", "CALL": "1", "OPS": "reads"}
        for args, what in (("--pattern madbench --pixels 64 --bins 3 --scalapack-block 8 "
                            "--io-mode async", "a nonblocking read"),
                           ("--pnetcdf.nonblocking=only -e 16K -B 2K -x 4K -X 4K -p 4 -P 4 -d 3 "
                            "-i 1", "a joined read")):
            r = lost_data_run(d, 4, "-A pnetcdf " + args, short, what)
            line = (r"h5perf: rank 1: PnetCDF read '%s'(: .*(error|Error).*)?$" % name if hydra
                    else PROBE_LINE % (1, "PnetCDF", name, ""))
            expect(len(r.h5perf_err) == 1 and re.match(line, r.h5perf_err[0]),
                   "the line (%s)" % what, r)


@case
def mpiio_joined_failure_agreed_without_collective_transfers():
    """MPI-IO's joined calls set a file view at every step, collectively,
    also without -C. A write that fails on rank 1 (EIO at its second call)
    no longer stops it making them: the others, in the next step's view,
    waited for it while it waited in the close, until the watchdog ended
    the job (the fault campaign, seed 1346080764). Now it goes on with
    every step as under -C, and the failure is agreed at the end of the
    phase: exit 1, rank 1's line alone, no file left."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".mpio", "H5PERF_FAULT_KIND": "eio",
               "H5PERF_FAULT_RANK": "1", "H5PERF_FAULT_CALL": "2",
               "H5PERF_FAULT_OPS": "writes"}
        if launcher_is_hydra():
            # ROMIO's data sieving keeps its fcntl lock when the write
            # fails, and the others wait for it inside their writes
            # (faults.py, romio_diverges): without it, as h5perf's line.
            env["HDF5_MPI_INFO"] = "romio_ds_write=disable"
        r = run(3, "-A mpiio --mpiio.joined=only --watchdog 10 -e 16K -B 2K -x 4K -X 4K -p 3 "
                "-P 3 -d 3 -i 1", env=env)
        expect_eq(r.rc, 1, "exit status", r)
        expect(len(r.h5perf_err) == 1 and r.h5perf_err[0].startswith(
            "h5perf: rank 1: MPI-IO write '%s' at offset " % data_file(d, 1, "mpiio")),
            "rank 1's line alone", r)
        expect_eq(listing(d), [], "files left", r)


@case
def hdf5_failed_transfer_agreed_before_a_filled_creation():
    """The guide's -c datasets are chunked and filled by HDF5 as each is
    created, on every process. A transfer of Dataset_1 that failed on rank 1
    (EIO at its first write) is agreed before Dataset_2 is created: no
    process creates it (the h5calls shim logs each H5Dcreate2), exit
    1, rank 1's line. Before, the failed process went on to create
    Dataset_2; on a full disk its fill failed too and HDF5 1.10.8 let it
    leave the creation without the others, whom only the watchdog freed
    (the fault campaign under MPICH, seed 414469174; docs/design.md, "A
    failed phase's close")."""
    if "phdf5" not in built_apis():
        raise Skip("built without parallel HDF5")
    with TempDir() as d:
        log = os.path.join(d, "calls")
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"] + " " +
               os.environ["H5CALLS"], "H5PERF_CALLS_LOG": log, "H5PERF_CALLS_CREATE": "1",
               "H5PERF_FAULT_SUFFIX": ".h5", "H5PERF_FAULT_KIND": "eio",
               "H5PERF_FAULT_RANK": "1", "H5PERF_FAULT_CALL": "2", "H5PERF_FAULT_OPS": "writes"}
        # Writes only: ROMIO reads before it writes (data sieving).
        r = run(2, "-A phdf5 --watchdog 10 -e 16K -B 2K -x 4K -X 4K -p 2 -P 2 -d 3 -i 1 -c -w",
                env=env)
        expect_eq(r.rc, 1, "exit status", r)
        expect(len(r.h5perf_err) == 1 and re.match(
            r"h5perf: rank 1: HDF5 write '%s': transfer 0 of 'Dataset_1', 4096 bytes from "
            r"element \(16384\): " % re.escape(data_file(d, 1, "phdf5")), r.h5perf_err[0]),
            "rank 1's line", r)
        creates = []
        for path in sorted(glob.glob(log + ".*")):
            if path.endswith(".create"):
                with open(path) as fh:
                    creates.append(fh.read().splitlines())
            os.unlink(path)
        expect_eq(creates, [["H5Dcreate2 Dataset_1"]] * 2, "datasets each process created", r)
        expect_eq(listing(d), [], "files left", r)


@case
def watchdog_size_check_pnetcdf():
    """After a PnetCDF write phase process 0 reads the file's header back
    through PnetCDF (the size check): a read that hangs there was not
    watched, and the run waited for it (40 s here). It is a call of the
    watchdog's like the others: the line names it, the job is aborted, no
    file is left."""
    if "pnetcdf" not in built_apis():
        raise Skip("this build has no PnetCDF")
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ["FAULTS"],
               "H5PERF_FAULT_SUFFIX": ".nc", "H5PERF_FAULT_KIND": "delay",
               "H5PERF_FAULT_DELAY_S": "40", "H5PERF_FAULT_RANK": "0",
               "H5PERF_FAULT_CALL": "1", "H5PERF_FAULT_OPS": "reads"}
        r = run(2, "-A pnetcdf -e 8K -x 4K -X 4K -B 4K -p 2 -w --watchdog 3", env=env, timeout=35)
        expect_eq(r.rc, 1, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: rank 0: PnetCDF size check of '%s' has not returned within 6 s (twice "
            "--watchdog, plus 1 s per MiB it may move): the library or the file system is "
            "stuck; aborting the job" % data_file(d, 1, "pnetcdf")], "the watchdog's line", r)
        expect_eq(listing(d), [], "files left")


def record_sizes():
    """The sizes of h5perf's per-run records (tests/tools/record_sizes.c)."""
    out = subprocess.run([os.environ["RECORD_SIZES"]], stdout=subprocess.PIPE, check=True,
                         timeout=60).stdout.decode()
    return {k: int(v) for k, v in (l.split() for l in out.splitlines())}


@case
def io_failure_results_out_of_memory():
    """A run point's results that process 0 cannot hold fail the run, with a
    line and exit 1, instead of a run that succeeds without them: its
    record grown past 32 iterations (--max-iterations 40 on noise that
    never narrows to 5%: the record has room for 8, 16, 32, then 40; the
    allocs shim fails the allocation of 40), and its merged latency
    histogram. The iterations recorded before stay in the results, with
    the line (docs/measuring.md, "--confidence")."""
    sizes = record_sizes()
    cases = (
        (40 * sizes["iter_result"], "h5perf: rank 0: h5perf record results: out of memory for "
         "the results of iteration 33", 32),
        (sizes["latency_hist"], "h5perf: rank 0: h5perf merge latency histograms: out of "
         "memory", 40))
    for size, line, iterations in cases:
        with TempDir() as d, TempDir() as logs:
            results = os.path.join(logs, "r.json")
            log = os.path.join(logs, "allocs.log")
            r = run(2, "-e 1K -B 1K -x 1K -X 1K -A posix -p 2 --confidence 5 "
                    "--max-iterations 40 --results %s" % results,
                    env={"HDF5_PARAPREFIX": d, "H5PERF_NULL_SECONDS": "0.01,0.03,0.02",
                         "LD_PRELOAD": os.environ["ALLOCS"], "H5PERF_ALLOC_FAIL_SIZE": str(size),
                         "H5PERF_ALLOC_LOG": log},
                    exe=os.environ["ENGINE_NULL"])
            with open(log) as fh:
                expect_eq(fh.read(), "alloc rank 0 size %d\n" % size, "the shim's failure", r)
            expect_eq(r.rc, 1, "exit status", r)
            expect_eq([l for l in r.h5perf_err if "warning" not in l], [line], "the line", r)
            with open(results) as fh:
                runs = json.load(fh)["runs"]
            expect_eq([(x["stop"], x["errors"], x["measures"][0]["summary"]["iterations"])
                       for x in runs], [("error", [line], iterations)], "the results' run", r)
            expect_eq(listing(d), [], "files left", r)


def lib_fault_run(shim, fault, args, d, rank=1, call=1):
    """h5perf on 2 processes whose rank has its call-th call of fault fail
    (tests/tools/lib_fault.h, through shim), the default watchdog (120 s):
    a run left with its processes in different calls times out."""
    return run(2, args, env={"HDF5_PARAPREFIX": d}, timeout=60,
               wrap="export LD_PRELOAD=%s H5PERF_LIB_FAULT=%s H5PERF_LIB_FAULT_RANK=%d "
               "H5PERF_LIB_FAULT_CALL=%d" % (os.environ[shim], fault, rank, call))


def expect_lib_fault_line(shim, fault, args, rank, api, line, what, call=1):
    """lib_fault_run() in a fresh directory, then: exit 1, the failing
    rank's line alone (line % the data file's path), no data file left."""
    with TempDir() as d:
        r = lib_fault_run(shim, fault, args, d, rank, call=call)
        expect_eq((r.rc, r.h5perf_err), (1, [line % data_file(d, 1, api)]),
                  "exit status and lines, " + what, r)
        expect_eq(listing(d), [], "files left, " + what, r)


@case
def hdf5_local_failure_before_collective_call():
    """A local HDF5 call that fails on one process only (the shim
    tests/tools/h5faults.c) before the collective call that needs it: the
    file access properties before H5Fcreate, the dataspace and the dataset
    creation properties before H5Dcreate2, a hyperslab before a collective
    H5Dwrite. The failing process stays in step with the other (they agree
    before H5Fcreate and H5Dcreate2; it joins H5Dwrite selecting nothing):
    exit 1, its line alone, no data file left, within seconds (the run
    waited for the watchdog, 120 s, with the other process alone in the
    collective call)."""
    if "phdf5" not in built_apis():
        raise Skip("built without parallel HDF5")
    block = "--pattern block --global 16x16 -A phdf5 -w"
    for rank, (fault, args, op) in itertools.product((1, 0), (
            ("H5Pset_alignment", block, "file access properties"),
            ("H5Screate_simple", block, "dataspace"),
            ("H5Pset_fill_time", block, "dataset creation properties"),
            ("H5Pset_chunk", block + " --layout chunked", "dataset creation properties"),
            ("H5Sselect_hyperslab", block + " -C", "select hyperslab"))):
        expect_lib_fault_line("H5FAULTS", fault, args, rank, "phdf5",
                              "h5perf: rank %d: HDF5 %s '%%s': injected fault (%s)"
                              % (rank, op, fault),
                              "rank %d's %s failing: %s" % (rank, fault, args))


@case
def hdf5_multi_dataset_selection_failure():
    """--hdf5.multi-dataset -C: a hyperslab that fails on one process only
    (H5Sselect_hyperslab, the shim tests/tools/h5faults.c) in the first
    step of the multi-dataset run (the 4th call: the run with one call per
    variable makes 3 before it). The process joins the collective
    H5Dwrite_multi selecting nothing in every dataset: exit 1, its line
    alone, no data file left, within seconds."""
    if "phdf5" not in built_apis() or hdf5_version() < (1, 14):
        raise Skip("HDF5 without multi-dataset I/O (1.14 and newer)")
    args = "--pattern block --global 16x16 --vars 3 -A phdf5 -w -C --hdf5.multi-dataset"
    for rank in (1, 0):
        expect_lib_fault_line("H5FAULTS", "H5Sselect_hyperslab", args, rank, "phdf5",
                              "h5perf: rank %d: HDF5 select hyperslab '%%s': injected fault "
                              "(H5Sselect_hyperslab)" % rank, "rank %d failing" % rank, call=4)


@case
def pnetcdf_local_failure_before_collective_call():
    """A local call of the PnetCDF backend that fails on one process only
    (the shim tests/tools/ncfaults.c) before the collective call that
    follows: the hints (MPI_Info_set, -a) before ncmpi_create, a definition
    (ncmpi_def_dim, ncmpi_def_var) before ncmpi_enddef. The processes agree
    before the collective call and none makes it; a file whose definitions
    failed is abandoned (ncmpi_abort): exit 1, the failing process's line
    alone, no data file left, within seconds. A failed hint left the
    others alone in ncmpi_create until the watchdog (120 s). A failed
    definition ended the run here only because this PnetCDF's ncmpi_enddef
    did not wait for the process that skipped it (whose ncmpi_close then
    ended define mode with a header of its own); not in PnetCDF's safe
    mode, whose definitions are collective themselves."""
    if "pnetcdf" not in built_apis():
        raise Skip("built without PnetCDF")
    block = "--pattern block --global 16x16 -A pnetcdf -w"
    for rank, (fault, args, head, text) in itertools.product((0, 1), (
            ("MPI_Info_set", block + " -a 4K", "MPI-IO hints", MPI_ERR_INFO_TEXT),
            ("ncmpi_def_dim", block, "PnetCDF define variables", NC_ENOMEM_TEXT),
            ("ncmpi_def_var", block + " -C", "PnetCDF define variables", NC_ENOMEM_TEXT))):
        expect_lib_fault_line("NCFAULTS", fault, args, rank, "pnetcdf",
                              "h5perf: rank %d: %s '%%s': %s" % (rank, head, text),
                              "rank %d's %s failing: %s" % (rank, fault, args))


@case
def pnetcdf_subarrays_failure_joins_collective_call():
    """-C: a step whose subarrays cannot be allocated on rank 1 only (a map
    of 1021 single-element runs per process: 1021 subarrays, whose starts
    are one allocation of 24,504 bytes, made to fail by the shim
    tests/tools/allocs.c) joins the others' collective ncmpi_put_varn_all
    with a subarray of no element: exit 1, rank 1's line alone, no data
    file left, within seconds (rank 0 waited alone in the call for the
    watchdog, 120 s)."""
    if "pnetcdf" not in built_apis():
        raise Skip("built without PnetCDF")
    runs = 1021
    with TempDir() as m, TempDir() as d:
        path = os.path.join(m, "runs.map")
        with open(path, "w") as fh:
            fh.write("processes 2\narray %d\n" % (4 * runs))
            for p in (0, 1):
                fh.write("%d: %s\n" % (p, " ".join("%d:1" % (4 * k + 2 * p)
                                                   for k in range(runs))))
        log = os.path.join(m, "alloc.log")
        r = run(2, "--pattern map --map %s -A pnetcdf --layout shared -C -w" % path,
                env={"HDF5_PARAPREFIX": d}, timeout=60,
                wrap="export LD_PRELOAD=%s H5PERF_ALLOC_RANK=1 H5PERF_ALLOC_FAIL_SIZE=%d "
                "H5PERF_ALLOC_LOG=%s" % (os.environ["ALLOCS"], runs * 3 * 8, log))
        with open(log) as fh:
            expect_eq(fh.read(), "alloc rank 1 size %d\n" % (runs * 3 * 8), "the shim's failure",
                      r)
        expect_eq((r.rc, r.h5perf_err),
                  (1, ["h5perf: rank 1: PnetCDF begin variable '%s': out of memory"
                       % data_file(d, 1, "pnetcdf")]), "exit status and lines", r)
        expect_eq(listing(d), [], "files left", r)


# Open MPI's MPI_Error_string(MPI_ERR_INFO).
MPI_ERR_INFO_TEXT = "MPI_ERR_INFO: invalid info object"
# PnetCDF's ncmpi_strerror(NC_ENOMEM).
NC_ENOMEM_TEXT = "NetCDF: Memory allocation (malloc) failure"
