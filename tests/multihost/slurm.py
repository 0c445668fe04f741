"""A real Slurm on the hosts of netns.py, for tests (docs/slurm.md): Debian's
slurm-wlm daemons started by the test, with everything they read and write in
the cluster's state directory.

On a cluster of N hosts (netns.Cluster, shared storage):
- munged in the hub namespace, with a key, socket, log and seed of its own in
  <state>/slurm/munge (never the machine's /etc/munge or /run/munge);
- slurmctld in the hub namespace, whose hostname (UTS namespace of its own)
  is the hub's name, listening on the hub's address 10.213.0.1;
- one slurmd per host, in the host's network namespace and a UTS namespace of
  its own named as the host, so that the tasks it starts see the host's name;
- slurm.conf, its plugstack.conf, the controller's state, the spool and log
  of every daemon under <state>/slurm; clients (srun, sbatch, scancel,
  scontrol) run in the hub with SLURM_CONF pointing there.
No cgroup is made or joined (proctrack/linuxproc, task/none, and the cgroup
plugin slurmd loads pointed at an empty directory): the machine's cgroups
are left alone. Everything runs in the cluster's namespaces, so the
cluster's cleanup (netns.Cluster.close) kills every daemon, step and task.
"""
import os
import re
import shutil
import subprocess
import time

from harness import Run, base_env, launcher_is_hydra
from netns import HUB_ADDRESS, SUBNET, Cluster, why_not as netns_why_not

# What the daemons and clients are, and where Debian has them.
TOOLS = (("munged", "munge"), ("slurmctld", "slurmctld"), ("slurmd", "slurmd"),
         ("srun", "slurm-client"), ("sbatch", "slurm-client"), ("scancel", "slurm-client"),
         ("scontrol", "slurm-client"), ("sinfo", "slurm-client"))
# Slurm's plugin for PMIx (Debian's slurm-wlm-basic-plugins, a dependency of
# slurmd), through which srun gives Open MPI's processes their ranks.
PLUGIN_DIRS = ("/usr/lib/x86_64-linux-gnu/slurm-wlm", "/usr/lib/aarch64-linux-gnu/slurm-wlm",
               "/usr/lib/slurm", "/usr/lib64/slurm")
CPUS = 2  # per host, whatever the machine has (SlurmdParameters=config_overrides)
FINISHED = ("COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
            "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE")


def why_not():
    """None when a Slurm cluster can be made here, else why not (one line)."""
    if launcher_is_hydra():
        return ("this h5perf is built with MPICH; the Slurm tests start Open MPI's processes "
                "(srun --mpi=pmix, and mpirun)")
    why = netns_why_not()
    if why:
        return why
    for tool, package in TOOLS:
        if not shutil.which(tool):
            return "'%s' not found (Debian package %s)" % (tool, package)
    if not any(os.path.exists(os.path.join(d, "mpi_pmix.so")) for d in PLUGIN_DIRS):
        return "Slurm's mpi/pmix plugin not found (Debian package slurm-wlm-basic-plugins)"
    return None


class SlurmCluster(Cluster):
    """`with SlurmCluster(3) as c:` 3 hosts with shared storage, each a Slurm
    node of CPUS CPUs in the one partition `hosts`, idle and ready."""

    def __init__(self, hosts):
        super().__init__(hosts, "shared")
        self.daemons = []  # subprocess.Popen of munged, slurmctld, the slurmds

    # --- making and removing -------------------------------------------------
    def _make(self):
        super()._make()
        for d in ("munge", "ctld", "spool", "log"):
            os.makedirs(os.path.join(self.slurm, d))
            os.chmod(os.path.join(self.slurm, d), 0o700)
        self._write_config()
        # --force: munged wants its socket's directory open to every user,
        # and the state directory is root's alone.
        self._start("munged", self.hub, None,
                    ["munged", "--foreground", "--force", "--socket", self.munge_socket,
                     "--key-file", os.path.join(self.slurm, "munge", "key"),
                     "--log-file", os.path.join(self.slurm, "log", "munged.log"),
                     "--pid-file", os.path.join(self.slurm, "munge", "pid"),
                     "--seed-file", os.path.join(self.slurm, "munge", "seed")])
        self.wait_until("munged's socket", lambda: os.path.exists(self.munge_socket))
        self._start("slurmctld", self.hub, self.hub, ["slurmctld", "-D"])
        self.wait_until("slurmctld to answer", lambda: self.client(["scontrol", "ping"]).rc == 0)
        for host in self.names:
            # A node's temporary directory is its own (PMIx's and Open MPI's
            # session directories take the same names on every node).
            tmp = os.path.join(self.state, "hosts", host, "tmp")
            os.makedirs(tmp)
            self._start("slurmd-" + host, host, host, ["slurmd", "-D", "-N", host],
                        binds=[(tmp, os.path.join(self.state, "tmp"))])
        self.wait_until("every node to be idle", self._all_idle)

    def _write_config(self):
        key = os.path.join(self.slurm, "munge", "key")
        with open(key, "wb") as fh:
            fh.write(os.urandom(1024))
        os.chmod(key, 0o400)
        s = self.slurm
        lines = [
            "ClusterName=h5perf",
            "SlurmctldHost=%s(%s)" % (self.hub, HUB_ADDRESS.split("/")[0]),
            "SlurmUser=root", "SlurmdUser=root",
            "AuthType=auth/munge", "CredType=cred/munge",
            "AuthInfo=socket=%s" % self.munge_socket,
            "StateSaveLocation=%s/ctld" % s,
            "SlurmdSpoolDir=%s/spool/%%n" % s,
            "SlurmctldPidFile=%s/ctld/slurmctld.pid" % s,
            "SlurmdPidFile=%s/spool/slurmd-%%n.pid" % s,
            "SlurmctldLogFile=%s/log/slurmctld.log" % s,
            "SlurmdLogFile=%s/log/slurmd-%%n.log" % s,
            "PlugStackConfig=%s/plugstack.conf" % s,
            "TmpFS=%s/tmp" % self.state,
            # No cgroups: the machine's are not the test's to change.
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none", "JobCompType=jobcomp/none",
            "SwitchType=switch/none", "MpiDefault=none",
            "SchedulerType=sched/builtin", "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "SlurmdParameters=config_overrides", "ReturnToService=2", "MailProg=/bin/true",
            # Finished jobs stay visible to scontrol for the tests' checks.
            "MinJobAge=3600",
            # A step's tasks get SIGTERM, then SIGKILL this long after.
            "KillWait=10",
        ]
        for i, host in enumerate(self.names, 1):
            lines.append("NodeName=%s NodeAddr=10.213.0.%d CPUs=%d State=UNKNOWN"
                         % (host, 10 + i, CPUS))
        lines.append("PartitionName=hosts Nodes=ALL Default=YES MaxTime=INFINITE State=UP")
        with open(self.conf, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        with open(os.path.join(s, "plugstack.conf"), "w") as fh:
            fh.write("# no SPANK plugins (not the machine's /etc/slurm/plugstack.conf)\n")
        # slurmd loads a cgroup plugin even when no other plugin uses it, and
        # its autodetection wants /sys/fs/cgroup, which the namespace's own
        # /sys lacks; named, it is loaded and left unused, pointed at an
        # empty directory of the state rather than the machine's cgroups.
        os.makedirs(os.path.join(s, "cgroup"))
        with open(os.path.join(s, "cgroup.conf"), "w") as fh:
            fh.write("CgroupPlugin=cgroup/v1\nCgroupMountpoint=%s/cgroup\n" % s)
        for host in self.names:
            os.makedirs(os.path.join(s, "spool", host))

    def _start(self, name, netns, hostname, argv, binds=()):
        """Starts argv in the network namespace netns, in a UTS namespace of
        its own named hostname (None: the machine's), with the (source,
        target) directories of binds bound in the mount namespace that ip
        netns exec makes for it; its output in log/."""
        if hostname:
            mounts = "".join('mount --bind "%s" "%s" && ' % b for b in binds)
            argv = ["unshare", "--uts", "--", "sh", "-c",
                    mounts + 'hostname "$0" && exec "$@"', hostname] + argv
        log = open(os.path.join(self.slurm, "log", name + ".out"), "wb")
        with log:
            self.daemons.append(subprocess.Popen(
                ["ip", "netns", "exec", netns] + argv, env=self.slurm_env(),
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT))

    def wait_until(self, what, ready, seconds=60):
        """Polls ready() until it is true; a daemon that died or seconds
        without it fail the test with the daemons' logs."""
        deadline = time.time() + seconds
        while not ready():
            dead = [p.args for p in self.daemons if p.poll() is not None]
            if dead or time.time() > deadline:
                raise AssertionError("Slurm: waiting for %s: %s\n%s" % (
                    what, "a daemon ended: %s" % dead[0] if dead else "%d s passed" % seconds,
                    self.logs()))
            time.sleep(0.2)

    def _all_idle(self):
        p = self.client(["sinfo", "--noheader", "--Node", "--format", "%N %T"])
        states = dict(l.split() for l in p.out.splitlines() if len(l.split()) == 2)
        return p.rc == 0 and all(states.get(h) == "idle" for h in self.names)

    def close(self):
        super().close()  # kills every process in the namespaces, daemons included
        for p in self.daemons:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        self.daemons = []

    def logs(self):
        """The daemons' logs, for a failure message."""
        out = []
        d = os.path.join(self.slurm, "log")
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            with open(os.path.join(d, name), errors="replace") as fh:
                text = fh.read()
            out.append("--- %s\n%s" % (name, text[-3000:]))
        return "\n".join(out)

    # --- where things are ------------------------------------------------------
    @property
    def slurm(self):
        return os.path.join(self.state, "slurm")

    @property
    def conf(self):
        return os.path.join(self.slurm, "slurm.conf")

    @property
    def munge_socket(self):
        return os.path.join(self.slurm, "munge", "socket")

    def processes(self):
        """{host: pids} of what runs on the hosts besides slurmd (steps,
        tasks, h5perf's cleanup processes), empty when nothing does."""
        daemons = {p.pid for p in self.daemons}
        out = {}
        for host, pids in super().processes().items():
            pids = [p for p in pids if p not in daemons]
            if pids:
                out[host] = pids
        return out

    # --- running ---------------------------------------------------------------
    def slurm_env(self, extra=None):
        """The environment of the daemons and clients: SLURM_CONF, none of
        the variables of a job this test itself may run in, and what Open
        MPI's processes need on these hosts (srun exports the whole
        environment to the tasks): TCP only, on the private subnet, and
        the workaround of docs/slurm.md for Open MPI 4.1's MPI_Init."""
        env = {k: v for k, v in base_env().items() if not k.startswith(("PMIX_", "PMI_"))}
        env.update({
            "SLURM_CONF": self.conf,
            "TMPDIR": os.path.join(self.state, "tmp"),
            "OMPI_MCA_pml": "ob1",
            "OMPI_MCA_btl": "tcp,self",
            "OMPI_MCA_btl_tcp_if_include": SUBNET,
            "OMPI_MCA_oob_tcp_if_include": SUBNET,
            "OMPI_MCA_orte_tmpdir_base": os.path.join(self.state, "tmp"),
            # Open MPI 4.1's race in MPI_Init under srun (docs/slurm.md):
            # a blocking modex, and the barrier at the end of MPI_Init.
            "OMPI_MCA_pmix_base_collect_data": "0",
        })
        env.update(extra or {})
        return env

    def client(self, argv, env=None, timeout=60):
        """Runs a Slurm client (srun, sbatch, scontrol, ...) in the hub."""
        try:
            p = subprocess.run(["ip", "netns", "exec", self.hub] + list(argv),
                               env=self.slurm_env(env), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise AssertionError("timed out after %ds: %s\n%s" % (
                timeout, " ".join(argv), self.logs())) from e
        return Run(p.returncode, p.stdout.decode(errors="replace"),
                   p.stderr.decode(errors="replace"))

    def jobs(self, job_id=None):
        """scontrol's records of the jobs (or of one): [{field: value}]. A
        finished job stays listed for MinJobAge (an hour)."""
        r = self.client(["scontrol", "--oneliner", "show", "job"] +
                        ([str(job_id)] if job_id is not None else []))
        if r.rc != 0:
            raise AssertionError("scontrol show job %s: %s" % (job_id or "", r.err.strip()))
        return [dict(f.split("=", 1) for f in line.split() if "=" in f)
                for line in r.out.splitlines() if line.startswith("JobId=")]

    def job(self, job_id):
        """scontrol's record of a job: {field: value}."""
        return self.jobs(job_id)[0]

    def job_named(self, name):
        """The record of the one job named name."""
        jobs = [j for j in self.jobs() if j.get("JobName") == name]
        if len(jobs) != 1:
            raise AssertionError("%d jobs named %r" % (len(jobs), name))
        return jobs[0]

    def sbatch(self, argv, env=None):
        """Submits a batch job (sbatch's arguments argv); returns its id."""
        r = self.client(["sbatch", "--parsable"] + list(argv), env=env)
        if r.rc != 0 or not re.match(r"^\d+(;|$)", r.out.strip()):
            raise AssertionError("sbatch %s: %r" % (" ".join(argv), r))
        return r.out.strip().split(";")[0]

    def wait_job(self, job_id, seconds=240):
        """Waits for the job to finish; returns its record."""
        self.wait_until("job %s to finish" % job_id,
                   lambda: self.job(job_id)["JobState"] in FINISHED, seconds)
        return self.job(job_id)
