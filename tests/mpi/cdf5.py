"""An independent reader of netCDF CDF-5 files (the format PnetCDF writes
for h5perf, docs/pnetcdf.md), from the format's published grammar: the
header's dimensions and variables (name, type, shape, offset), and a
variable's values with numpy. Shares no code with h5perf or PnetCDF.
Attributes are skipped; record variables hold no data here (h5perf's
variables have fixed dimensions, a zero-length one aside).
"""
import struct

import numpy as np

NC_DIMENSION, NC_VARIABLE, NC_ATTRIBUTE = 0x0A, 0x0B, 0x0C
# nc_type -> (name, big-endian numpy type)
TYPES = {1: ("byte", ">i1"), 2: ("char", "S1"), 3: ("short", ">i2"), 4: ("int", ">i4"),
         5: ("float", ">f4"), 6: ("double", ">f8"), 7: ("ubyte", ">u1"), 8: ("ushort", ">u2"),
         9: ("uint", ">u4"), 10: ("int64", ">i8"), 11: ("uint64", ">u8")}


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, fmt):
        v = struct.unpack_from(">" + fmt, self.data, self.at)
        self.at += struct.calcsize(">" + fmt)
        return v[0]

    def name(self):
        n = self.take("q")
        s = self.data[self.at:self.at + n].decode()
        self.at += (n + 3) // 4 * 4
        return s

    def list_head(self, tag):
        t, n = self.take("I"), self.take("q")
        if t not in (0, tag) or (t == 0 and n != 0):
            raise ValueError("bad list tag %#x at %d" % (t, self.at))
        return n

    def skip_attrs(self):
        for _ in range(self.list_head(NC_ATTRIBUTE)):
            self.name()
            typ, n = self.take("I"), self.take("q")
            size = np.dtype(TYPES[typ][1]).itemsize * n
            self.at += (size + 3) // 4 * 4


def header(path):
    """{'dims': [(name, length)], 'vars': {name: (type name, shape, begin)}}."""
    with open(path, "rb") as fh:
        data = fh.read(1 << 20)
    if data[:4] != b"CDF\x05":
        raise ValueError("%s: not a CDF-5 file (magic %r)" % (path, data[:4]))
    r = Reader(data)
    r.at = 4
    r.take("q")  # numrecs
    dims = [(r.name(), r.take("q")) for _ in range(r.list_head(NC_DIMENSION))]
    r.skip_attrs()
    out = {}
    for _ in range(r.list_head(NC_VARIABLE)):
        name = r.name()
        ids = [r.take("q") for _ in range(r.take("q"))]
        r.skip_attrs()
        typ = r.take("I")
        r.take("q")  # vsize
        begin = r.take("q")
        out[name] = (TYPES[typ][0], [dims[i][1] for i in ids], begin, typ)
    return {"dims": dims, "vars": out}


def values(path, name):
    """(type name, shape, numpy array of the variable in C order)."""
    h = header(path)
    if name not in h["vars"]:
        raise AssertionError("%s: no variable '%s' (has %s)" % (path, name, sorted(h["vars"])))
    typ, shape, begin, code = h["vars"][name]
    count = int(np.prod(shape)) if shape else 1
    with open(path, "rb") as fh:
        fh.seek(begin)
        a = np.fromfile(fh, dtype=TYPES[code][1], count=count)
    if a.size != count:
        raise AssertionError("%s: variable '%s' is cut short (%d of %d elements)" % (
            path, name, a.size, count))
    return typ, shape, a.reshape(shape)
