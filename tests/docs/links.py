#!/usr/bin/env python3
"""Every relative link of README.md and docs/*.md leads somewhere: the file
or directory it names exists, and an anchor (#...) names a heading of the
Markdown file it points into, as GitHub makes heading anchors (lowercase,
punctuation dropped, spaces to hyphens, -1, -2... for repeats). Links to
other sites (http:, https:, mailto:) are not followed; links inside code
(indented or fenced blocks, `...` spans) are not links.

Before the real files, the checker is run on a small tree with one good
link and three broken ones (a missing file, a missing heading, a missing
heading in the same file), which it must find, so that a checker that
finds nothing fails here.

Usage: links.py [ROOT]   (default: the source tree holding this file)
Standard library only.
"""
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def prose(text):
    """The lines of a Markdown text outside code blocks, code spans
    blanked, as (line number, line)."""
    out, fenced, prev_blank = [], False, True
    for n, line in enumerate(text.split("\n"), 1):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            prev_blank = False
            continue
        indented = line.startswith(("    ", "\t")) and (prev_blank or (out and out[-1][2]))
        code = fenced or indented
        prev_blank = not line.strip()
        if code:
            out.append((n, "", True))
            continue
        out.append((n, re.sub(r"`[^`]*`", "``", line), False))
    return [(n, line) for n, line, _ in out]


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    """The heading anchors of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    seen, out = {}, set()
    for _, line in prose_headings(text):
        base = slug(line)
        k = seen.get(base, 0)
        out.add(base if k == 0 else "%s-%d" % (base, k))
        seen[base] = k + 1
    return out


def prose_headings(text):
    fenced = False
    for n, line in enumerate(text.split("\n"), 1):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m and not fenced:
            yield n, m.group(1)


def broken(path, counted=None):
    """The broken relative links of one Markdown file: 'FILE:LINE: TARGET:
    why' each; counted (a list) gets one item per relative link."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = []
    for n, line in prose(text):
        for m in LINK.finditer(line):
            target = m.group(1)
            if EXTERNAL.match(target):
                continue
            if counted is not None:
                counted.append(target)
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            where = "%s:%d: %s" % (path, n, target)
            if not os.path.exists(dest):
                out.append("%s: no such file or directory" % where)
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                out.append("%s: no heading '#%s' in %s" % (where, anchor,
                                                            os.path.basename(dest)))
    return out


def documents(root):
    docs = os.path.join(root, "docs")
    return [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def self_check():
    """The checker finds the broken links of a small tree, and only them."""
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "docs"))
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write("# Top\n\n## A `b` c, d\n\n[ok](docs/a.md#the-heading) [ok](#a-b-c-d) "
                    "[gone](docs/none.md) [bad](docs/a.md#nothing) [self](#nowhere)\n"
                    "`[code](docs/none.md)` [web](https://example.org/x)\n\n"
                    "    [indented](docs/none.md)\n")
        with open(os.path.join(d, "docs", "a.md"), "w") as f:
            f.write("# The heading\n\n![img](../README.md)\n")
        found = [line.split(": ", 1)[1] for p in documents(d) for line in broken(p)]
    want = ["docs/none.md: no such file or directory",
            "docs/a.md#nothing: no heading '#nothing' in a.md",
            "#nowhere: no heading '#nowhere' in README.md"]
    if found != want:
        print("FAIL docs_links: the checker's own test: found %r, want %r" % (found, want))
        return False
    return True


def main(argv):
    root = argv[0] if argv else ROOT
    if not self_check():
        return 1
    counted = []
    bad = [line for p in documents(root) for line in broken(p, counted)]
    for line in bad:
        print("FAIL docs_links: %s" % os.path.relpath(line, root) if line.startswith(root)
              else "FAIL docs_links: %s" % line)
    if bad:
        return 1
    print("PASS docs_links: %d relative links in %d files" % (len(counted), len(documents(root))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
