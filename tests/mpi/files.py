"""MPI cases about the data files themselves: kept only with HDF5_NOCLEANUP,
existing files, symbolic and hard links, other users' files and mounts left
alone, the report and results never a data file, HDF5_PARAPREFIX with $USER,
and --read-only runs over the files a write-only run left.
"""
import os
import subprocess

from common import FIG2_ARGS, Skip, case, data_file
from harness import TempDir, built_apis, expect, expect_eq, listing, run


@case
def files_kept_only_with_nocleanup():
    with TempDir() as d:
        r = run(2, "-e 8K -B 1K -i 2", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(listing(d), [], "files left without HDF5_NOCLEANUP", r)
        # Defined but empty still means keep (docs/original.md §2); the last run is P=1.
        r = run(2, "-e 8K -B 1K -i 2 -D v", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": ""})
        expect_eq(r.rc, 0, "exit status", r)
        expect_eq(listing(d), ["#pio_tmp_1.h5", "#pio_tmp_1.mpio", "#pio_tmp_1.posix"],
                  "files kept with HDF5_NOCLEANUP", r)
        with open(data_file(d, 1, "posix"), "rb") as fh:
            expect_eq(fh.read(), bytes([1] * 8192), "last run (1 process) left its data")


@case
def existing_file_untouched():
    with TempDir() as d:
        victim = data_file(d, 1, "mpiio")
        with open(victim, "wb") as fh:
            fh.write(b"precious")
        os.utime(victim, (1000000000, 1000000000))
        r = run(2, "-e 8K", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 2, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: data file '%s' already exists and was not created by this run (an "
            "earlier run with HDF5_NOCLEANUP may have left it); remove it or give --overwrite"
            % victim], "message", r)
        expect_eq(r.out, "", "stdout", r)
        with open(victim, "rb") as fh:
            expect_eq(fh.read(), b"precious", "content of the existing file")
        expect_eq(os.stat(victim).st_mtime, 1000000000, "mtime of the existing file")
        expect_eq(listing(d), ["#pio_tmp_1.mpio"], "files in the directory", r)
        # Another API's run does not care about the .mpio file.
        r = run(2, "-e 8K -A posix,phdf5", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status without MPI-IO", r)
        expect_eq(listing(d), ["#pio_tmp_1.mpio"], "files after a run without MPI-IO", r)
        # --overwrite takes the file over: written, verified, and (no NOCLEANUP) removed.
        r = run(2, "-e 8K -A mpiio --overwrite -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status with --overwrite", r)
        expect_eq(listing(d), [], "files after --overwrite", r)


@case
def existing_own_file_of_another_process_untouched():
    """A file per process: each process checks its own names (not rank 0
    all of them), and a name of process 2 or 1 that exists refuses the
    run with that name, exit 2, before any file exists: neither the
    report (-o) nor any data file is made, the existing file unchanged.
    With two such names, the lowest process's is the one line."""
    for ranks in ([2], [1, 2]):
        with TempDir() as d, TempDir() as o:
            victims = [os.path.join(d, "#pio_tmp_1.%d.mpio" % q) for q in ranks]
            for v in victims:
                with open(v, "wb") as fh:
                    fh.write(b"precious")
            report = os.path.join(o, "report.txt")
            r = run(3, "--pattern block --global 48x8 --layout fpp -A posix,mpiio -o %s" % report,
                    env={"HDF5_PARAPREFIX": d})
            expect_eq(r.rc, 2, "exit status", r)
            expect_eq(r.h5perf_err, [
                "h5perf: data file '%s' already exists and was not created by this run (an "
                "earlier run with HDF5_NOCLEANUP may have left it); remove it or give "
                "--overwrite" % victims[0]], "message", r)
            expect_eq(listing(o), [], "the report is not made", r)
            expect_eq(listing(d), sorted(os.path.basename(v) for v in victims),
                      "files in the directory", r)
            for v in victims:
                with open(v, "rb") as fh:
                    expect_eq(fh.read(), b"precious", "content of %s" % v)
    # Refused by process 1 (-o names its own file), after process 0 made the
    # $USER level: the level is removed again.
    with TempDir() as d:
        name = os.path.join(d, "bob", "#pio_tmp_1.1.posix")
        r = run(2, ["--pattern", "block", "--global", "32x8", "--layout", "fpp", "-A", "posix",
                    "-o", name], env={"HDF5_PARAPREFIX": d, "USER": "bob"})
        expect_eq(r.rc, 2, "exit status, -o a file of process 1", r)
        expect_eq(r.h5perf_err, [
            "h5perf: -o '%s': is the POSIX data file '%s' of this run; give the report a file "
            "of its own" % (name, name)], "message, -o a file of process 1", r)
        expect_eq(listing(d), [], "nothing left", r)
        expect(not os.path.exists(os.path.join(d, "bob")), "no $USER directory", r)


@case
def overwrite_never_follows_symlinks():
    with TempDir() as d:
        victim = os.path.join(d, "victim")
        with open(victim, "wb") as fh:
            fh.write(b"precious")
        link = data_file(d, 1, "posix")
        os.symlink(victim, link)
        r = run(2, "-e 8K -A posix --overwrite", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 2, "exit status", r)
        expect_eq(r.h5perf_err, [
            "h5perf: data file '%s' exists and is not a regular file (a symbolic link?); "
            "h5perf never writes through it, even with --overwrite: remove it" % link],
            "message", r)
        with open(victim, "rb") as fh:
            expect_eq(fh.read(), b"precious", "the symlink's target")
        expect(os.path.islink(link), "the symlink is left alone", r)


def refused_overwrite(d, api, why, fix="remove it"):
    """Runs --overwrite over an existing name for someone else's data: exit 2,
    the one line, nothing written."""
    r = run(2, "-e 8K -A %s --overwrite" % api, env={"HDF5_PARAPREFIX": d})
    expect_eq(r.rc, 2, "exit status", r)
    expect_eq(r.h5perf_err, [
        "h5perf: data file '%s' %s; h5perf never writes through it, even with --overwrite: %s"
        % (data_file(d, 1, api), why, fix)], "message", r)
    expect_eq(r.out, "", "stdout", r)


@case
def overwrite_refuses_hard_links():
    """--overwrite replaces a regular file with one link: a hard link to
    another file in a data file's place is refused (exit 2, one line), for
    every API, and the other name keeps its content."""
    with TempDir() as d:
        victim = os.path.join(d, "victim")
        with open(victim, "wb") as fh:
            fh.write(b"precious")
        for api in built_apis():
            os.link(victim, data_file(d, 1, api))
            refused_overwrite(d, api, "has 2 hard links (other names share its data)")
            with open(victim, "rb") as fh:
                expect_eq(fh.read(), b"precious", "the other name's content (%s)" % api)
            os.unlink(data_file(d, 1, api))
        expect_eq(listing(d), ["victim"], "files in the directory")


def need_root():
    if os.geteuid() != 0:
        raise Skip("needs root (to give a file to another user, or to mount)")


@case
def overwrite_refuses_another_users_file():
    """--overwrite never replaces a file that belongs to another user."""
    need_root()
    with TempDir() as d:
        other = data_file(d, 1, "mpiio")
        with open(other, "wb") as fh:
            fh.write(b"theirs")
        os.chown(other, 4242, 4242)
        refused_overwrite(d, "mpiio", "belongs to user 4242, not to the user running h5perf (0)")
        with open(other, "rb") as fh:
            expect_eq(fh.read(), b"theirs", "another user's file")


def bind_mount(source, target):
    p = subprocess.run(["mount", "--bind", source, target], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    if p.returncode != 0:
        raise Skip("cannot bind-mount here: %s" % p.stdout.decode().strip())


@case
def overwrite_refuses_a_mount_point():
    """A file bind-mounted on a data file's name (same file system, one
    link, our own) is refused too, and left as it was."""
    need_root()
    with TempDir() as d:
        victim = os.path.join(d, "victim")
        with open(victim, "wb") as fh:
            fh.write(b"precious")
        name = data_file(d, 1, "posix")
        open(name, "wb").close()
        bind_mount(victim, name)
        try:
            refused_overwrite(d, "posix", "is a mount point (a file is mounted on the name)",
                              "unmount it")
        finally:
            subprocess.run(["umount", name], timeout=30)
        with open(victim, "rb") as fh:
            expect_eq(fh.read(), b"precious", "the file mounted on the name")


@case
def outputs_through_a_bind_mount():
    """-o naming a data file through another mount of its directory (a bind
    mount) is refused before anything is created."""
    need_root()
    with TempDir() as d, TempDir() as other:
        bind_mount(d, other)
        try:
            via = os.path.join(other, "#pio_tmp_1.posix")
            r = run(2, ["-e", "8K", "-A", "posix", "-w", "-o", via], env={"HDF5_PARAPREFIX": d})
            expect_eq(r.rc, 2, "exit status", r)
            expect_eq(r.h5perf_err, [
                "h5perf: -o '%s': is the POSIX data file '%s' of this run; give the report a "
                "file of its own" % (via, data_file(d, 1, "posix"))], "message", r)
            expect_eq(listing(d), [], "files created", r)
        finally:
            subprocess.run(["umount", other], timeout=30)


@case
def outputs_are_never_data_files():
    """-o or --results naming a data file of this run, through any path, or
    naming each other, is refused before anything is created (exit 2, one
    line naming the options), with or without --overwrite; an existing file
    of that name keeps its content."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d}
        h5 = data_file(d, 1, "phdf5")
        for extra in ("", " --overwrite"):
            r = run(2, ["-e", "8K", "-A", "phdf5", "-o", h5] + extra.split(), env=env)
            expect_eq(r.rc, 2, "exit status, -o", r)
            expect_eq(r.h5perf_err, [
                "h5perf: -o '%s': is the HDF5 data file '%s' of this run; give the report a "
                "file of its own" % (h5, h5)], "message, -o" + extra, r)
            expect_eq(listing(d), [], "files after -o" + extra, r)
        # Through a symbolic link in another directory, from the current one.
        with TempDir() as elsewhere:
            os.symlink(data_file(d, 1, "mpiio"), os.path.join(elsewhere, "r.json"))
            r = run(2, "-e 8K -A mpiio --results r.json --overwrite", env=env, cwd=elsewhere)
            expect_eq(r.rc, 2, "exit status, --results", r)
            expect_eq(r.h5perf_err, [
                "h5perf: --results 'r.json': is the MPI-IO data file '%s' of this run; give "
                "the results a file of their own" % data_file(d, 1, "mpiio")],
                "message, --results", r)
            expect_eq(listing(d), [], "files after --results", r)
        # A leftover data file named by -o keeps its content when refused.
        posix = data_file(d, 1, "posix")
        with open(posix, "wb") as fh:
            fh.write(b"leftover")
        r = run(2, "-e 8K -A posix --overwrite -o ./#pio_tmp_1.posix", env=env, cwd=d)
        expect_eq(r.rc, 2, "exit status, -o on a leftover", r)
        with open(posix, "rb") as fh:
            expect_eq(fh.read(), b"leftover", "the leftover's content")
        os.unlink(posix)
        # -o and --results: one file through a symbolic link, refused up front.
        os.symlink("out.json", os.path.join(d, "alias.json"))
        r = run(2, "-e 8K -A posix --format json -o out.json --results alias.json", env=env,
                cwd=d)
        expect_eq(r.rc, 2, "exit status, -o and --results", r)
        expect_eq(r.h5perf_err, [
            "h5perf: --results 'alias.json': is also the report (-o); give the results a file "
            "of their own"], "message, -o and --results", r)
        expect_eq(listing(d), ["alias.json"], "nothing created", r)
        # The $USER level a refused run made is removed again.
        os.unlink(os.path.join(d, "alias.json"))
        name = os.path.join(d, "alice", "#pio_tmp_1.posix")
        r = run(2, ["-e", "8K", "-A", "posix", "-o", name], env={"HDF5_PARAPREFIX": d,
                                                                  "USER": "alice"})
        expect_eq(r.rc, 2, "exit status, $USER level", r)
        expect_eq(r.h5perf_err, [
            "h5perf: -o '%s': is the POSIX data file '%s' of this run; give the report a file "
            "of its own" % (name, name)], "message, $USER level", r)
        expect_eq(listing(d), [], "nothing left, not even the $USER directory", r)
        expect(not os.path.exists(os.path.join(d, "alice")), "no $USER directory", r)


@case
def prefix_user_subdirectory():
    with TempDir() as d:
        r = run(2, "-e 8K -A posix -D 1", env={"HDF5_PARAPREFIX": d + "//", "USER": "alice",
                                               "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status", r)
        expect(("rank 0: Env HDF5_PARAPREFIX=%s//" % d) in r.lines, "prefix printed verbatim", r)
        name = "%s/alice/#pio_tmp_1.posix" % d
        expect(("rank 1: data filename=" + name) in r.lines,
               "name with $USER, slashes collapsed", r)
        expect_eq(listing(d), ["alice/#pio_tmp_1.posix"], "files", r)


def snapshot(d):
    out = {}
    for name in listing(d):
        path = os.path.join(d, name)
        with open(path, "rb") as fh:
            out[name] = (fh.read(), os.stat(path).st_mtime_ns)
    return out


@case
def read_only_round_trip():
    """A write-only run with HDF5_NOCLEANUP, then --read-only -D v: only read
    blocks are reported, every byte verifies, the files are left untouched."""
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"}
        r = run(3, FIG2_ARGS + " -d 2 -F 2 -w", env=env)
        expect_eq(r.rc, 0, "exit status of the write-only run", r)
        before = snapshot(d)
        expect_eq(len(before), 6, "files written", r)
        r = run(3, FIG2_ARGS + " -d 2 -F 2 --read-only -D v -i 2", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 0, "exit status of the read-only run", r)
        blocks = [l.strip() for l in r.lines if l.endswith("iteration(s)):")]
        expect_eq(blocks, ["Read (2 iteration(s)):", "Read Open-Close (2 iteration(s)):"] * 3,
                  "result blocks", r)
        expect_eq(snapshot(d), before, "files after the read-only run (content and mtime)", r)


@case
def read_only_detects_corruption():
    with TempDir() as d:
        r = run(3, FIG2_ARGS + " -w", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status of the write-only run", r)
        for api, off in (("posix", 13), ("mpiio", 21), ("phdf5", 2048 + 5)):
            with open(data_file(d, 1, api), "r+b") as fh:
                fh.seek(off)
                byte = fh.read(1)[0]
                fh.seek(off)
                fh.write(bytes([byte ^ 0xff]))
        r = run(3, FIG2_ARGS + " --read-only -D v", env={"HDF5_PARAPREFIX": d})
        expect_eq(r.rc, 1, "exit status", r)
        line = ("h5perf: rank %d: verify '%s' (%s, 3 processes, transfer size 4, iteration 1): "
                "1 bytes differ, the first at offset %d: expected %d, found %d")
        expect_eq(r.h5perf_err, [
            line % (1, data_file(d, 1, "posix"), "POSIX", 13, 2, 253),
            line % (2, data_file(d, 1, "mpiio"), "MPI-IO", 21, 3, 252),
            line % (0, data_file(d, 1, "phdf5"), "HDF5", 5, 1, 254)], "mismatch lines", r)
        expect_eq(len(listing(d)), 3, "files kept", r)


@case
def read_only_refuses_missing_or_short_files():
    with TempDir() as d:
        env = {"HDF5_PARAPREFIX": d}
        r = run(3, FIG2_ARGS + " --read-only -A posix", env=env)
        expect_eq(r.rc, 2, "exit status, no file", r)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' does not exist (first run the same options "
            "with -w and HDF5_NOCLEANUP set)" % data_file(d, 1, "posix")], "message", r)
        r = run(3, FIG2_ARGS + " -w", env={"HDF5_PARAPREFIX": d, "HDF5_NOCLEANUP": "1"})
        expect_eq(r.rc, 0, "exit status of the write-only run", r)
        os.truncate(data_file(d, 1, "mpiio"), 20)
        os.truncate(data_file(d, 1, "phdf5"), 1000)
        r = run(3, FIG2_ARGS + " --read-only -A mpiio -D v", env=env)
        expect_eq(r.rc, 2, "exit status, short file", r)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' holds 20 bytes, fewer than the 24 this run "
            "reads (written with other options?)" % data_file(d, 1, "mpiio")], "message", r)
        r = run(3, FIG2_ARGS + " --read-only -A phdf5 -D v", env=env)
        expect_eq(r.rc, 2, "exit status, truncated HDF5 file", r)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' is not a readable HDF5 file (written with "
            "other options?)" % data_file(d, 1, "phdf5")], "message", r)
        r = run(2, "-B 2 -e 8 -p 2 -P 2 -x 4 -X 4 --read-only -A posix -d 2", env=env)
        expect_eq(r.h5perf_err, [
            "h5perf: --read-only: data file '%s' holds 24 bytes, fewer than the 32 this run "
            "reads (written with other options?)" % data_file(d, 1, "posix")],
            "other options", r)
        expect_eq(sorted(listing(d)), ["#pio_tmp_1.h5", "#pio_tmp_1.mpio", "#pio_tmp_1.posix"],
                  "files kept", r)
