"""Finding a Python 3 with the modules a companion command needs.

h5perf-plot needs matplotlib and jsonschema, h5perf-compare jsonschema
(every document is validated against docs/results.schema.json). When the
interpreter running a command lacks one, the command runs itself again with
the first that has them all: $H5PERF_PYTHON, a python3 on PATH,
/usr/bin/python3 (a pyenv or venv python3 first on PATH often lacks the
system's packages). Nothing here prints: a failure is a UsageError line.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

# Set for the interpreter a command runs itself again with: the ones tried
# so far (os.pathsep between them). It stops a second search, so a chosen
# interpreter that fails after all ends in an error, never in a loop.
TRIED_ENV = "H5PERF_PLOT_TRIED"
SYSTEM_PYTHON = "/usr/bin/python3"
# Debian's packages of the modules, for the message.
PACKAGES = {"matplotlib": "python3-matplotlib", "jsonschema": "python3-jsonschema"}


class UsageError(Exception):
    pass


def missing(modules):
    """The modules of the list this interpreter cannot import."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def candidates():
    """The interpreters worth trying, in order, without repeats: a path is
    compared with its directory resolved (/bin/python3 is /usr/bin/python3
    when /bin links to /usr/bin) but not the file itself, since a venv's
    python3 links to the system's yet has other packages."""
    chosen = os.environ.get("H5PERF_PYTHON", "")
    if chosen and os.sep not in chosen:
        chosen = shutil.which(chosen) or chosen  # a command name, as on PATH
    # H5PERF_PYTHON is tried even when it does not exist, so that the error
    # shows it was; the others only where they are.
    paths = [chosen] if chosen else []
    paths += [p for p in (os.path.join(d or os.curdir, "python3")
                          for d in os.environ.get("PATH", "").split(os.pathsep))
              if os.access(p, os.X_OK)]
    paths += [SYSTEM_PYTHON] if os.access(SYSTEM_PYTHON, os.X_OK) else []
    out, seen = [], {same_interpreter(sys.executable)}
    for path in paths:
        key = same_interpreter(os.path.abspath(path))
        if key not in seen:
            seen.add(key)
            out.append(path)
    return out


def same_interpreter(path):
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


def has_modules(python, modules):
    try:
        return subprocess.run([python, "-c", "import sys, %s; sys.exit(sys.version_info[0] != 3)"
                               % ", ".join(modules)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def ensure(modules, script, argv):
    """Returns if this interpreter imports every module; else runs script
    again with the first interpreter that does (does not return), or raises
    a UsageError naming every interpreter tried."""
    if not missing(modules):
        return
    tried = [p for p in os.environ.get(TRIED_ENV, "").split(os.pathsep) if p]
    tried.append(sys.executable or "python")
    if TRIED_ENV not in os.environ:
        for python in candidates():
            tried.append(python)
            if has_modules(python, modules):
                env = dict(os.environ, **{TRIED_ENV: os.pathsep.join(tried[:-1])})
                try:
                    os.execve(python, [python, os.path.abspath(script)] + argv, env)
                except OSError:
                    continue
    names = " and ".join(modules)
    raise UsageError("%s %s not installed for any Python 3 tried (%s): set H5PERF_PYTHON to one "
                     "that has %s (Debian: apt-get install %s)" % (
                         names, "is" if len(modules) == 1 else "are", ", ".join(tried),
                         "it" if len(modules) == 1 else "them",
                         " ".join(PACKAGES.get(m, m) for m in modules)))
