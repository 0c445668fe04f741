#!/usr/bin/env python3
"""The man pages: h5perf.1 says what -h says, option for option and word for
word; every option of the parser's table (src/options/table.c) is in both; the
companion's pages are what packaging/man/argparse_man.py makes of their
parsers today, with every option; cmake --install puts the three in
share/man/man1, where man finds them once the prefix's bin is on PATH. Pages are rendered with man -l (man-db), as a reader sees them.

Usage: man.py BUILD_DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SRC, "packaging", "man"))
import argparse_man  # noqa: E402

TOOLS = ("h5perf-plot", "h5perf-compare")
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


def words(text):
    return " ".join(text.split())


def render(path):
    """The page as plain text, wide, in the C locale (ASCII minus signs)."""
    if shutil.which("man") is None:
        raise SystemExit("FAIL man: no 'man' command (scripts/setup installs man-db)")
    env = dict(os.environ, LC_ALL="C", MANWIDTH="200", MANPAGER="cat", PAGER="cat")
    p = subprocess.run(["man", "-l", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=60)
    if p.returncode != 0 or p.stderr.strip():
        raise SystemExit("FAIL man: man -l %s: rc %d: %s" % (path, p.returncode, p.stderr))
    return re.sub(r".\x08", "", p.stdout.decode())


def table_options():
    """Every short and long name of the option table's rows (src/cli/*options.c,
    src/pattern/*_options.c)."""
    rows = []
    for f in sorted(glob.glob(os.path.join(SRC, "src", "cli", "*options.c"))) + sorted(
            glob.glob(os.path.join(SRC, "src", "pattern", "*_options.c"))):
        with open(f) as fh:
            text = fh.read()
            rows += re.findall(r'OPT_[A-Z]+\(\s*OPT_[A-Z_]+,\s*(?:"(-.)"|NULL),\s*"(--[a-z-]+)"',
                               text)
            # A pattern's own rows (OPT_PATTERN_*): its settings struct, no
            # letter, then the name.
            rows += [("", n) for n in re.findall(
                r'OPT_PATTERN_[A-Z]+\(\s*(?:struct [a-z_]+,\s*)?"(--[a-z-]+)"', text)]
    names = [n for row in rows for n in row if n]
    expect(len(rows) >= 40, "options found in the option table: %d" % len(rows))
    return names


def section(lines, start, end):
    """The lines after the heading line start up to the heading line end."""
    i, j = lines.index(start), lines.index(end)
    return lines[i + 1:j]


def check_h5perf(build):
    p = subprocess.run([os.environ["H5PERF"], "--help"], stdout=subprocess.PIPE, timeout=60)
    expect(p.returncode == 0, "h5perf --help exits 0")
    help_lines = p.stdout.decode().splitlines()
    page = render(os.path.join(build, "man", "h5perf.1")).splitlines()

    # The help between its usage line and the APIs line, without its two
    # headings, is word for word the page from DESCRIPTION to the APIs,
    # without the page's headings.
    apis = [l for l in help_lines if l.startswith("APIs in this build:")]
    body = help_lines[1:help_lines.index(apis[0])]
    body = [l for l in body if l not in ("Options:", "Environment:")]
    man_body = [l for l in section(page, "DESCRIPTION", "APIS IN THIS BUILD")
                if l not in ("OPTIONS", "ENVIRONMENT")]
    expect(words("\n".join(man_body)) == words("\n".join(body)),
           "h5perf.1 from DESCRIPTION to its APIs is the help text:\n--- help\n%s\n--- page\n%s"
           % (words("\n".join(body)), words("\n".join(man_body))))
    expect(page[0].startswith("H5PERF(1)"), "page title H5PERF(1): " + page[0])
    expect(help_lines[0] == "usage: mpiexec -n N h5perf [options]", "usage line")
    expect(words(" ".join(section(page, "SYNOPSIS", "DESCRIPTION"))) ==
           "mpiexec -n N h5perf [options]", "SYNOPSIS")
    expect(words(" ".join(section(page, "APIS IN THIS BUILD", "EXIT STATUS"))) ==
           "This h5perf was built with these APIs: " + apis[0].split(":", 1)[1].strip(),
           "APIs of the build in the page")
    statuses = help_lines[help_lines.index("Exit status:") + 1:]
    expect(words(" ".join(section(page, "EXIT STATUS", "SEE ALSO"))) ==
           words(" ".join(statuses)), "exit statuses")
    expect(len(statuses) == 4, "four exit statuses")

    # Every name of the parser's table, as an option term of both.
    help_terms = " ".join(l for l in body if re.match(r"^  -|^      --", l))
    man_terms = " ".join(section(page, "OPTIONS", "ENVIRONMENT"))
    for name in table_options():
        pat = r"(^|[ ,])%s([ ,=]|$)" % re.escape(name)
        expect(re.search(pat, help_terms), "--help has the option " + name)
        expect(re.search(pat, man_terms, re.M), "h5perf.1 has the option " + name)


def check_tools(build):
    for tool in TOOLS:
        path = os.path.join(SRC, "tools", tool)
        committed = os.path.join(SRC, "packaging", "man", tool + ".1")
        with open(committed) as fh:
            expect(fh.read() == argparse_man.page(path),
                   "%s is not what its parser makes today; regenerate it: "
                   "packaging/man/argparse_man.py tools/%s > packaging/man/%s.1"
                   % (committed, tool, tool))
        page = words(render(committed))
        _, parser = argparse_man.load_parser(path)
        fmt = parser._get_formatter()
        for a in parser._actions:
            for name in a.option_strings or [a.metavar]:
                expect(re.search(r"(^| )%s( |,|$)" % re.escape(name), page),
                       "%s.1 has %s" % (tool, name))
            expect(words(fmt._expand_help(a)) in page, "%s.1 explains %s" % (tool, a.dest))
        expect(page.startswith(tool.upper() + "(1)"), "%s.1 title" % tool)


def check_install(build):
    prefix = tempfile.mkdtemp(prefix="h5perf-man-")
    try:
        p = subprocess.run(["cmake", "--install", build, "--prefix", prefix],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        expect(p.returncode == 0, "cmake --install: " + p.stdout.decode())
        man1 = os.path.join(prefix, "share", "man", "man1")
        got = sorted(os.listdir(man1)) if os.path.isdir(man1) else []
        expect(got == sorted(["h5perf.1"] + [t + ".1" for t in TOOLS]),
               "installed man pages: %s" % got)
        if "h5perf.1" in got:
            with open(os.path.join(man1, "h5perf.1"), "rb") as a, \
                    open(os.path.join(build, "man", "h5perf.1"), "rb") as b:
                expect(a.read() == b.read(), "installed h5perf.1 is the generated one")
        # With the prefix's bin on PATH, as docs/install.md's commands put
        # it, man finds each page there, without MANPATH.
        env = dict(os.environ, LC_ALL="C",
                   PATH=os.path.join(prefix, "bin") + os.pathsep + os.environ.get("PATH", ""))
        env.pop("MANPATH", None)
        for page in ("h5perf",) + TOOLS:
            p = subprocess.run(["man", "-w", page], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, timeout=60)
            expect(p.stdout.decode().strip() == os.path.join(man1, page + ".1"),
                   "man -w %s with %s/bin on PATH: %s" % (page, prefix, p.stdout.decode()))
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def main():
    build = sys.argv[1]
    check_h5perf(build)
    check_tools(build)
    check_install(build)
    if failures:
        print("FAIL man:\n" + "\n".join(failures))
        sys.exit(1)
    print("PASS man")


if __name__ == "__main__":
    main()
