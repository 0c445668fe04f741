"""Launching h5perf under mpiexec for tests.

Every run gets its own temporary directory as HDF5_PARAPREFIX (USER and LOGIN
unset, so data files land directly in it), a timeout so that a hang fails the
test, and stderr split into h5perf's own lines (starting "h5perf:") and
mpiexec's notices, which tests ignore.
"""
import glob
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


PAGE_CACHE = "h5perf: warning: the read throughputs of "


class Run:
    def __init__(self, rc, out, err):
        self.rc = rc
        self.out = out
        self.err = err
        self.lines = out.splitlines()
        # The page-cache warning comes with most runs on one host; cases that
        # are about it read page_cache, the others see h5perf's other lines.
        lines = [l for l in err.splitlines() if l.startswith("h5perf:")]
        self.page_cache = [l for l in lines if l.startswith(PAGE_CACHE)]
        self.h5perf_err = [l for l in lines if not l.startswith(PAGE_CACHE)]

    def __repr__(self):
        return "rc=%d\n--- stdout\n%s--- stderr\n%s" % (self.rc, self.out, self.err)


def mpiexec_command(np, argv):
    cmd = [os.environ.get("MPIEXEC", "mpiexec"), os.environ.get("MPIEXEC_NUMPROC_FLAG", "-n"),
           str(np)]
    cmd += shlex.split(os.environ.get("MPIEXEC_FLAGS", ""))
    return cmd + argv


def launcher_is_hydra():
    """True under MPICH's launcher (hydra), whose handling of signals and of a
    dead process differs from Open MPI's."""
    p = subprocess.run([os.environ.get("MPIEXEC", "mpiexec"), "--version"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
    return b"HYDRA" in p.stdout


def h5perf():
    return os.environ.get("H5PERF", "h5perf")


def base_env(extra=None):
    """os.environ without what would change a run: h5perf's variables, and
    a batch job's (the suite may itself run in one: Open MPI's mpiexec would
    take its allocation, and the JSON would record the job)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SLURM_", "SBATCH_", "SALLOC_", "SRUN_", "PBS_"))}
    for k in ("USER", "LOGIN", "HDF5_NOCLEANUP", "HDF5_MPI_INFO", "HDF5_PARAPREFIX"):
        env.pop(k, None)
    env.update(extra or {})
    return env


def run(np, args, env=None, cwd=None, timeout=150, wrap=None, exe=None):
    """Runs h5perf with args (a list or a shell-quoted string) on np processes.

    wrap, if given, is a shell snippet run by each rank before exec'ing
    h5perf (e.g. "ulimit -f 8"), applied to the ranks, not to mpiexec.

    Open MPI's mpiexec waits odls_base_sigkill_timeout (1 s) after a
    process exits non-zero before it ends the job, a grace for SIGTERM
    handlers; h5perf's processes end together after their agreement, so
    these runs set it to 0. Runs that signal processes (tests/mpi/faults.py)
    launch mpiexec themselves and keep the default.
    """
    env = dict(env or {})
    env.setdefault("OMPI_MCA_odls_base_sigkill_timeout", "0")
    if isinstance(args, str):
        args = shlex.split(args)
    argv = [exe or h5perf()] + list(args)
    if wrap:
        argv = ["sh", "-c", wrap + '; exec "$0" "$@"'] + argv
    try:
        p = subprocess.run(mpiexec_command(np, argv), env=base_env(env), cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        raise AssertionError("timed out after %ds: %s" % (timeout, " ".join(argv))) from e
    return Run(p.returncode, p.stdout.decode(errors="replace"),
               p.stderr.decode(errors="replace"))


_BUILT = []


def built_apis():
    """The APIs this build of h5perf includes, from its --help line "APIs in
    this build: posix mpiio phdf5 [pnetcdf]" (PnetCDF is optional)."""
    if not _BUILT:
        r = run(1, "--help")
        lines = [l for l in r.lines if l.startswith("APIs in this build:")]
        if r.rc != 0 or len(lines) != 1:
            raise AssertionError("h5perf --help names no APIs of this build\n" + repr(r))
        _BUILT.extend(lines[0].split(":", 1)[1].split())
    return list(_BUILT)


_HDF5 = []


def hdf5_version():
    """The version of the HDF5 library h5perf runs with, as a tuple (1, 10, 8),
    from its --version line "hdf5: 1.10.8". What HDF5 writes and decides
    differs between versions (docs/install.md, "HDF5 versions")."""
    if not _HDF5:
        r = run(1, "--version")
        lines = [l for l in r.lines if l.startswith("hdf5: ")]
        if r.rc != 0 or len(lines) != 1:
            raise AssertionError("h5perf --version names no HDF5\n" + repr(r))
        _HDF5.append(tuple(int(x) for x in lines[0].split()[1].split(".")))
    return _HDF5[0]


class TempDir:
    """A temporary directory, removed on exit unless the test failed."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="h5perf-test-")
        return self.path

    def __exit__(self, kind, value, tb):
        if kind is None:
            shutil.rmtree(self.path, ignore_errors=True)
        else:
            print("kept for inspection: " + self.path, file=sys.stderr)
        return False


def listing(path):
    """Every file below path, relative, sorted."""
    out = []
    for root, _, files in os.walk(path):
        for f in files:
            out.append(os.path.relpath(os.path.join(root, f), path))
    return sorted(out)


def run_counted(np, args, d, shim, env=None, timeout=150):
    """A run of h5perf under a call-counting shim (tests/tools/calls_log.h;
    shim names the environment variable of its library: NCCALLS, H5CALLS,
    MPICALLS), its data files in d: exit 0 and nothing on stderr are
    asserted. Returns the run and each process's lines, sorted, of the
    processes that logged any (mpiexec runs under the shim too and makes no
    call); the logs are removed."""
    log = os.path.join(d, "calls")
    e = {"HDF5_PARAPREFIX": d, "LD_PRELOAD": os.environ[shim], "H5PERF_CALLS_LOG": log}
    e.update(env or {})
    r = run(np, args, env=e, timeout=timeout)
    expect_eq((r.rc, r.h5perf_err), (0, []), "exit status and stderr (%s)" % args, r)
    out = []
    for path in sorted(glob.glob(log + ".*")):
        with open(path) as fh:
            lines = sorted(fh.read().splitlines())
        os.unlink(path)
        if lines:
            out.append(lines)
    return r, out


def h5read(path, dataset):
    """(layout, dims, data bytes) of a dataset, read by the independent reader."""
    p = subprocess.run([os.environ.get("H5READ", "h5read"), path, dataset],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if p.returncode != 0:
        raise AssertionError("h5read %s %s failed: %s" % (path, dataset, p.stderr.decode()))
    lines = p.stdout.decode().splitlines()
    layout = lines[0].split()[1:]
    dims = [int(x) for x in lines[1].split()[1:]]
    data = bytes(int(x) for x in lines[2].split()[1:])
    return layout, dims, data


def expect(cond, what, run=None):
    if not cond:
        raise AssertionError(what + ("\n" + repr(run) if run is not None else ""))


def expect_eq(got, want, what, run=None):
    if got != want:
        raise AssertionError("%s:\n  got:      %r\n  expected: %r%s" % (
            what, got, want, ("\n" + repr(run)) if run is not None else ""))
