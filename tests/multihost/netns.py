"""Several hosts on one machine, for tests: Linux network namespaces with
hostnames of their own, joined by a bridge on a private subnet, and h5perf
launched across them by Open MPI's mpiexec (docs/multihost.md).

A cluster of N hosts, named TAG-h1..TAG-hN (TAG = h5mh<pid>x<n>, unique per
cluster), is made of:
- a hub namespace TAG-hub holding the bridge br0 (10.213.0.1/24); mpiexec runs
  in it, so that the orteds can connect back to it, and the machine's own
  network (the root namespace) is never touched;
- per host a network namespace named as the host, with a veth pair (v<i> on
  the bridge, eth0 = 10.213.0.<10+i> in the host);
- a state directory: hosts/<host>/ per host, data/ the data directory
  (HDF5_PARAPREFIX), and with node-local storage a tmpfs per host at
  hosts/<host>/node, which the launch agent (tests/multihost/agent) binds
  over data/ in that host's mount namespace; with shared storage every host
  sees data/ itself, as a parallel file system.
The agent gives each host its hostname in a UTS namespace of its own, so that
MPI_Get_processor_name differs between hosts. Open MPI is held to TCP
(btl tcp,self, pml ob1) on the private subnet: no shared memory between hosts.

Everything is removed on exit, on failure too; what a killed test left (its
pid is gone) is removed by the next cluster made on the machine.
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import Run, base_env, launcher_is_hydra  # noqa: E402

AGENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "agent")
SUBNET = "10.213.0.0/24"
HUB_ADDRESS = "10.213.0.1/24"
TAG_RE = re.compile(r"^h5mh(\d+)x\d+-")
STATE_PREFIX = "h5perf-"  # state directories: <tmp>/h5perf-<tag>-XXXXXX

# Variables the processes get when set here (sanitizer builds need theirs).
FORWARDED = ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")

_count = [0]


def _quiet(*argv):
    return subprocess.run(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, timeout=60)


def _must(*argv):
    p = _quiet(*argv)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(argv), p.stdout.decode(errors="replace").strip()))


def why_not():
    """None when clusters can be made here, else why not (one line)."""
    if launcher_is_hydra():
        return ("MPICH's hydra launches the processes; the multihost harness uses Open MPI's "
                "plm_rsh_agent")
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool, package in (("ip", "iproute2"), ("unshare", "util-linux"), ("mount", "mount"),
                          ("umount", "mount")):
        if not shutil.which(tool):
            return "'%s' not found (Debian package %s)" % (tool, package)
    probe = "h5mh%dx0-probe" % os.getpid()
    p = _quiet("ip", "netns", "add", probe)
    if p.returncode != 0:
        return "cannot make a network namespace: " + p.stdout.decode(errors="replace").strip()
    try:
        steps = (("a UTS namespace", ["ip", "netns", "exec", probe, "unshare", "--uts", "--",
                                      "hostname", "probe"]),
                 ("a bridge", ["ip", "-n", probe, "link", "add", "br0", "type", "bridge"]),
                 ("a veth pair", ["ip", "-n", probe, "link", "add", "v1", "type", "veth", "peer",
                                  "name", "v2"]),
                 ("a tmpfs", ["ip", "netns", "exec", probe, "mount", "-t", "tmpfs", "tmpfs",
                              tempfile.gettempdir()]))
        for what, argv in steps:
            p = _quiet(*argv)
            if p.returncode != 0:
                return "cannot make %s: %s" % (what, p.stdout.decode(errors="replace").strip())
    finally:
        _quiet("ip", "netns", "del", probe)
    return None


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _mount_points():
    with open("/proc/self/mountinfo") as fh:
        return [line.split()[4].replace("\\040", " ") for line in fh]


def sweep_stale():
    """Removes what clusters of dead processes left: their namespaces (after
    ending the processes inside), their tmpfs mounts, their state directories."""
    p = _quiet("ip", "netns", "list")
    stale = []
    for line in p.stdout.decode(errors="replace").splitlines():
        name = line.split()[0] if line.split() else ""
        m = TAG_RE.match(name)
        if m and not _alive(int(m.group(1))):
            stale.append(name)
    _end_processes(stale)
    for name in stale:
        _quiet("ip", "netns", "del", name)
    tmp = tempfile.gettempdir()
    stale = re.compile(re.escape(os.path.join(tmp, STATE_PREFIX)) + r"h5mh(\d+)x\d+-[^/]*(/|$)")
    for mnt in reversed(_mount_points()):
        m = stale.match(mnt)
        if m and not _alive(int(m.group(1))):
            _quiet("umount", "-l", mnt)
    for entry in os.listdir(tmp):
        m = re.match(re.escape(STATE_PREFIX) + r"h5mh(\d+)x\d+-", entry)
        if m and not _alive(int(m.group(1))):
            shutil.rmtree(os.path.join(tmp, entry), ignore_errors=True)


def _end_processes(names):
    """Kills, by pid, the processes left in our namespaces `names` (orteds
    and ranks of a run that was cut short), until one pass over all of them
    finds none (an agent may be entering one while another is emptied);
    gives up after 10 s."""
    deadline = time.time() + 10
    while time.time() < deadline:
        pids = []
        for name in names:
            p = _quiet("ip", "netns", "pids", name)
            pids += [int(x) for x in p.stdout.split()] if p.returncode == 0 else []
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.1)


class Cluster:
    """`with Cluster(3, "shared") as c:` a cluster of 3 hosts; storage is
    "shared" (one data directory) or "local" (a tmpfs per host)."""

    def __init__(self, hosts, storage="shared", tmpfs_size="64m"):
        if hosts < 1 or hosts > 9 or storage not in ("shared", "local"):
            raise ValueError("Cluster(%r, %r)" % (hosts, storage))
        _count[0] += 1
        self.tag = "h5mh%dx%d" % (os.getpid(), _count[0])
        self.hub = self.tag + "-hub"
        self.names = ["%s-h%d" % (self.tag, i + 1) for i in range(hosts)]
        self.storage = storage
        self.tmpfs_size = tmpfs_size
        self.made = []  # namespaces made, for the cleanup
        self.mounts = []
        self.state = None

    # --- making and removing -------------------------------------------------
    def __enter__(self):
        sweep_stale()
        self.state = tempfile.mkdtemp(prefix="%s%s-" % (STATE_PREFIX, self.tag))
        try:
            self._make()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, kind, value, tb):
        self.close()
        return False

    def _netns(self, name):
        _must("ip", "netns", "add", name)
        self.made.append(name)
        _must("ip", "-n", name, "link", "set", "lo", "up")

    def _make(self):
        os.makedirs(self.data)
        os.makedirs(os.path.join(self.state, "tmp"))
        self._netns(self.hub)
        _must("ip", "-n", self.hub, "link", "add", "br0", "type", "bridge")
        _must("ip", "-n", self.hub, "addr", "add", HUB_ADDRESS, "dev", "br0")
        _must("ip", "-n", self.hub, "link", "set", "br0", "up")
        for i, host in enumerate(self.names, 1):
            self._netns(host)
            # Made inside the namespaces: no veth ever appears in the root one.
            _must("ip", "-n", self.hub, "link", "add", "v%d" % i, "type", "veth", "peer", "name",
                  "eth0", "netns", host)
            _must("ip", "-n", self.hub, "link", "set", "v%d" % i, "master", "br0")
            _must("ip", "-n", self.hub, "link", "set", "v%d" % i, "up")
            _must("ip", "-n", host, "addr", "add", "10.213.0.%d/24" % (10 + i), "dev", "eth0")
            _must("ip", "-n", host, "link", "set", "eth0", "up")
            os.makedirs(os.path.join(self.state, "hosts", host))
            if self.storage == "local":
                node = self.host_dir(host)
                os.makedirs(node)
                _must("mount", "-t", "tmpfs", "-o", "size=%s,mode=0755" % self.tmpfs_size,
                      "tmpfs", node)
                self.mounts.append(node)
        with open(self.hostfile, "w") as fh:
            for host in self.names:
                fh.write("%s slots=1\n" % host)

    def close(self):
        """Ends what runs in the namespaces, removes them (their veths and the
        bridge go with them), unmounts the tmpfs and removes the state."""
        _end_processes(self.made)
        for name in reversed(self.made):
            _quiet("ip", "netns", "del", name)
        self.made = []
        for mnt in reversed(self.mounts):
            if _quiet("umount", mnt).returncode != 0:
                _quiet("umount", "-l", mnt)
        self.mounts = []
        if self.state:
            shutil.rmtree(self.state, ignore_errors=True)
            self.state = None

    # --- where things are ------------------------------------------------------
    @property
    def data(self):
        """The data directory, the same path on every host (HDF5_PARAPREFIX)."""
        return os.path.join(self.state, "data")

    @property
    def hostfile(self):
        return os.path.join(self.state, "hostfile")

    def host_dir(self, host):
        """Where, seen from here, host's data directory's files are: its own
        tmpfs (node-local storage) or the one shared directory."""
        if self.storage == "local":
            return os.path.join(self.state, "hosts", host, "node")
        return self.data

    def processes(self):
        """{host: pids} of the hosts where processes run (orteds, ranks,
        h5perf's cleanup processes), empty when none does."""
        out = {}
        for host in self.names:
            p = _quiet("ip", "netns", "pids", host)
            pids = sorted(int(x) for x in p.stdout.split()) if p.returncode == 0 else []
            if pids:
                out[host] = pids
        return out

    # --- running ---------------------------------------------------------------
    def command(self, np, argv, forward, slots=1):
        """The mpiexec command line (run in the hub) that starts argv on np
        processes, `slots` per host in host order, with the variables of
        `forward` (a dict) given to the processes by -x."""
        with open(self.hostfile, "w") as fh:
            for host in self.names:
                fh.write("%s slots=%d\n" % (host, slots))
        cmd = ["ip", "netns", "exec", self.hub, os.environ.get("MPIEXEC", "mpiexec"),
               "--hostfile", self.hostfile, "-n", str(np)]
        for k in FORWARDED:
            if k in os.environ:
                cmd += ["-x", "%s=%s" % (k, os.environ[k])]
        for k, v in sorted(forward.items()):
            cmd += ["-x", "%s=%s" % (k, v)]
        return cmd + list(argv)

    def environment(self):
        """mpiexec's environment: the agent, TCP only on the private subnet."""
        return base_env({
            "H5PERF_MH_STATE": self.state,
            "OMPI_MCA_plm_rsh_agent": AGENT,
            # mpiexec starts every orted itself (no orted starts another).
            "OMPI_MCA_plm_rsh_no_tree_spawn": "1",
            "OMPI_MCA_pml": "ob1",
            "OMPI_MCA_btl": "tcp,self",
            "OMPI_MCA_btl_tcp_if_include": SUBNET,
            "OMPI_MCA_oob_tcp_if_include": SUBNET,
            "OMPI_MCA_odls_base_sigkill_timeout": "0",
            # Session directories in the state: a run cut short leaves none
            # in the machine's /tmp.
            "OMPI_MCA_orte_tmpdir_base": os.path.join(self.state, "tmp"),
        })

    def run(self, np, args, env=None, slots=1, timeout=150):
        """Runs h5perf with args (a list or a shell-quoted string) on np
        processes across the hosts; env (a dict) is forwarded to the processes,
        HDF5_PARAPREFIX defaulting to the data directory."""
        forward = {"HDF5_PARAPREFIX": self.data}
        forward.update(env or {})
        if isinstance(args, str):
            args = shlex.split(args)
        argv = [os.environ.get("H5PERF", "h5perf")] + list(args)
        cmd = self.command(np, argv, forward, slots)
        try:
            p = subprocess.run(cmd, env=self.environment(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise AssertionError("timed out after %ds: %s" % (timeout, " ".join(cmd))) from e
        return Run(p.returncode, p.stdout.decode(errors="replace"),
                   p.stderr.decode(errors="replace"))
