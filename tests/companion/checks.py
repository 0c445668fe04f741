"""Independent readers of h5perf-plot's outputs (PNG headers, SVG text and
series groups, and the HTML page's structure, references and tables) and of
h5perf-compare's table. Written from the formats, sharing nothing with tools/.
"""
import base64
import re
import struct
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EXTERNAL = ("http:", "https:", "//", "file:", "ftp:")


def png_size(path):
    """(width, height) from the IHDR chunk; raises AssertionError if the
    file is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == PNG_SIGNATURE, "%s: no PNG signature" % path
    length, kind = struct.unpack(">I4s", head[8:16])
    assert kind == b"IHDR" and length == 13, "%s: first chunk is not IHDR" % path
    return struct.unpack(">II", head[16:24])


class Svg:
    """An SVG file parsed as XML: its texts and its groups by id."""

    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        assert self.root.tag == SVG_NS + "svg", "%s: root is not <svg>" % path
        self.texts = ["".join(t.itertext()).strip() for t in self.root.iter(SVG_NS + "text")]
        self.groups = {}
        for g in self.root.iter(SVG_NS + "g"):
            self.groups.setdefault(g.get("id"), []).append(g)

    def markers(self, gid):
        """How many markers (points drawn) the series with this id has."""
        (g,) = self.groups[gid]
        return len(list(g.iter(SVG_NS + "use")))

    def paths(self, gid):
        """The extent (x min, x max, y min, y max) of each path of the group
        with this id, in the SVG's coordinates (y grows downwards)."""
        (g,) = self.groups[gid]
        out = []
        for path in g.iter(SVG_NS + "path"):
            numbers = [float(n) for n in re.findall(r"-?[0-9]+(?:\.[0-9]+)?", path.get("d"))]
            xs, ys = numbers[0::2], numbers[1::2]
            out.append((min(xs), max(xs), min(ys), max(ys)))
        return out


class Page(HTMLParser):
    """Parses a whole page; collects structure errors, every URL-valued
    attribute, <img> sources, the text, and the tables as lists of rows of
    cell texts."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}
    URL_ATTRS = {"src", "href", "srcset", "action", "data", "poster", "xlink:href"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.urls, self.imgs, self.tags = [], [], [], [], []
        self.text, self.tables, self.title = [], [], ""
        self._cell = None
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append("unclosed: %s" % self.stack)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in self.URL_ATTRS:
                self.urls.append((tag, k, v or ""))
        if tag == "img":
            self.imgs.append(dict(attrs))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self._cell = []
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else ""))
            return
        self.stack.pop()
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self.stack and self.stack[-1] == "title":
            self.title += data

    def table_with(self, header_cell):
        """The first table whose header row has this cell, as dicts by header."""
        for t in self.tables:
            if t and header_cell in t[0]:
                return [dict(zip(t[0], row)) for row in t[1:]]
        raise AssertionError("no table with a '%s' column" % header_cell)

    def svg_images(self):
        """The decoded bytes of every <img> holding an SVG data: URI."""
        prefix = "data:image/svg+xml;base64,"
        return [base64.b64decode(i["src"][len(prefix):]) for i in self.imgs
                if i.get("src", "").startswith(prefix)]

    def external_urls(self):
        return [u for u in self.urls if u[2].strip().lower().startswith(EXTERNAL)
                or not u[2].strip().lower().startswith(("data:", "#"))]


class CompareTable:
    """h5perf-compare's stdout: the two file lines, the table and the
    summary line. rows maps (procs, xfer, api, measure) as printed (block
    documents: (procs, api, layout, measure); with placed runs (procs, api,
    layout, align, shift, measure)) to a dict of the other columns: A,
    A range, B, B range, B/A, time, verdict."""

    HEADER = ["procs", "xfer", "api", "measure", "A", "MiB/s", "A", "min..max", "B", "MiB/s",
              "B", "min..max", "B/A", "time", "s", "verdict"]
    BLOCK_HEADER = ["procs", "api", "layout"] + HEADER[3:]
    PLACED_HEADER = ["procs", "api", "layout", "align", "shift"] + HEADER[3:]
    COLUMNS = ("A", "A range", "B", "B range", "B/A", "time", "verdict")

    def __init__(self, out, block=False, placed=False):
        lines = out.splitlines()
        assert lines[0].startswith("A: ") and lines[1].startswith("B: ") and lines[2] == "", out
        self.header = lines[3]
        header = self.PLACED_HEADER if placed else self.BLOCK_HEADER if block else self.HEADER
        assert self.header.split() == header, self.header
        # The cells that name a configuration, before A's median.
        n = 6 if placed else 4
        self.lines = lines[4:-2]
        assert lines[-2] == "", out
        self.summary = lines[-1]
        self.rows = {}
        for line in self.lines:
            # Columns are joined by two spaces and no cell holds two in a
            # row; a failed side has no range, and then there is no ratio
            # or time either.
            f = re.split(" {2,}", line.strip())
            if f[n] == "failed":
                f[n + 1:n + 1] = [""]
            if f[n + 2] == "failed":
                f[n + 3:n + 3] = [""]
            if len(f) == n + 5:
                f[n + 4:n + 4] = ["", ""]
            assert len(f) == n + 7, line
            self.rows[tuple(f[:n])] = dict(zip(self.COLUMNS, f[n:]))

    def verdicts(self):
        return {r["verdict"] for r in self.rows.values()}
