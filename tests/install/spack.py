#!/usr/bin/env python3
"""The Spack recipe (packaging/spack/packages/h5perf/package.py), without a
Spack: it is executed against a small stand-in for the names of
spack.package that it uses, which records its directives. Its variants must
be exactly the optional APIs of the build (each H5PERF_<API> cache option of
CMakeLists.txt and cmake/*.cmake, each H5PERF_HAVE_<API> of src/api/api.c)
plus build_type, and cmake_args() must turn each one ON or OFF; a new API
option without a variant fails here. The dependencies are checked by name.
"""
import glob
import os
import re
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
RECIPE = os.path.join(SRC, "packaging", "spack", "packages", "h5perf", "package.py")
# option()s of CMakeLists.txt that are for developing h5perf, not variants.
DEVELOPER_OPTIONS = {"H5PERF_WERROR", "H5PERF_SANITIZE", "H5PERF_FUZZ"}

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


class Recorder:
    """spack.package as far as the recipe uses it: directives record their
    arguments, define() and define_from_variant() make CMake arguments the
    way Spack's CMakePackage does."""

    def __init__(self):
        self.variants, self.depends, self.versions = {}, [], []

    def module(self):
        m = types.ModuleType("spack.package")
        rec = self

        class CMakePackage:
            def __init__(self, spec, run_tests=False):
                self.spec, self.run_tests = spec, run_tests

            @staticmethod
            def define(name, value):
                if isinstance(value, bool):
                    return "-D%s:BOOL=%s" % (name, "ON" if value else "OFF")
                return "-D%s:STRING=%s" % (name, value)

            def define_from_variant(self, name, variant):
                value = self.spec.variants[variant]
                return self.define(name, value)

        def variant(name, default=None, description="", values=None, **kw):
            rec.variants[name] = {"default": default, "values": values, "description": description}

        def depends_on(spec, type=("build", "link"), when=None):
            rec.depends.append((" ".join(spec.split()), type if isinstance(type, tuple)
                                else (type,), when))

        def version(name, **kw):
            rec.versions.append(name)

        m.CMakePackage = CMakePackage
        m.variant, m.depends_on, m.version = variant, depends_on, version
        m.__all__ = ["CMakePackage", "variant", "depends_on", "version"]
        return m


class Spec:
    """A concrete spec as cmake_args() reads it."""

    def __init__(self, variants):
        self.variants = variants
        self.deps = {"mpi": types.SimpleNamespace(mpicc="/opt/mpi/bin/mpicc", prefix="/opt/mpi"),
                     "hdf5": types.SimpleNamespace(prefix="/opt/hdf5")}

    def satisfies(self, text):
        return all(self.variants.get(v[1:]) == (v[0] == "+") for v in text.split())

    def __getitem__(self, name):
        return self.deps[name]


def cmake_api_options():
    """{"H5PERF_PNETCDF", ...}: the AUTO|ON|OFF cache strings; and every option()."""
    apis, options = set(), set()
    for path in [os.path.join(SRC, "CMakeLists.txt")] + glob.glob(os.path.join(SRC, "cmake",
                                                                               "*.cmake")):
        with open(path) as fh:
            text = fh.read()
        apis |= set(re.findall(r"^\s*set\((H5PERF_\w+) AUTO CACHE STRING", text, re.M))
        options |= set(re.findall(r"^\s*option\((H5PERF_\w+)", text, re.M))
    return apis, options


def main():
    rec = Recorder()
    spack = types.ModuleType("spack")
    spack.package = rec.module()
    sys.modules["spack"], sys.modules["spack.package"] = spack, spack.package
    namespace = {}
    with open(RECIPE) as fh:
        exec(compile(fh.read(), RECIPE, "exec"), namespace)
    cls = namespace.get("H5perf")
    expect(cls is not None and issubclass(cls, spack.package.CMakePackage),
           "the recipe defines class H5perf(CMakePackage)")

    apis, options = cmake_api_options()
    with open(os.path.join(SRC, "src", "api", "api.c")) as fh:
        have = set(re.findall(r"H5PERF_HAVE_(\w+)", fh.read()))
    expect(apis, "no H5PERF_<API> AUTO cache option found in CMakeLists.txt, cmake/*.cmake")
    expect({a[len("H5PERF_"):] for a in apis} == have,
           "CMake's API options %s are the H5PERF_HAVE_ macros of src/api/api.c %s"
           % (sorted(apis), sorted(have)))
    for o in sorted(options - DEVELOPER_OPTIONS):
        expect(False, "option(%s) in CMake is neither a variant of the Spack recipe nor "
               "listed as a developer option in tests/install/spack.py" % o)
    want = {a[len("H5PERF_"):].lower() for a in apis} | {"build_type"}
    expect(set(rec.variants) == want, "the recipe's variants %s are the build's optional APIs "
           "and build_type %s" % (sorted(rec.variants), sorted(want)))
    expect(rec.variants.get("build_type", {}).get("default") == "Release",
           "build_type defaults to Release")

    # Each API variant on and off reaches CMake as -DH5PERF_<API>:BOOL=ON|OFF.
    for on in (True, False):
        values = {v: on for v in want - {"build_type"}}
        values["build_type"] = "Release"
        args = cls(Spec(values)).cmake_args()
        for a in apis:
            flag = "-D%s:BOOL=%s" % (a, "ON" if on else "OFF")
            expect(flag in args, "cmake_args() has %s: %s" % (flag, args))
        expect("-DBUILD_TESTING:BOOL=OFF" in args, "tests off unless Spack runs them")

    deps = {(d, w) for d, _, w in rec.depends}
    runs = {d for d, t, _ in rec.depends if t == ("run",)}
    for d in (("mpi", None), ("hdf5@1.10: +mpi", None), ("cmake@3.18:", None),
              ("libyaml", None)):
        expect(d in deps, "depends_on(%r, when=%r)" % d)
    for a in apis:
        pkg = {"H5PERF_PNETCDF": "parallel-netcdf"}.get(a, a[len("H5PERF_"):].lower())
        expect((pkg, "+" + a[len("H5PERF_"):].lower()) in deps,
               "depends_on(%r, when='+%s')" % (pkg, a[len("H5PERF_"):].lower()))
    for r in ("py-jsonschema", "py-matplotlib", "py-numpy"):
        expect(r in runs, "run-time depends_on(%r)" % r)
    expect(any(r.startswith("python") for r in runs), "run-time depends_on python")
    expect(rec.versions, "at least one version()")

    if failures:
        print("FAIL spack:\n" + "\n".join(failures))
        sys.exit(1)
    print("PASS spack: variants %s" % sorted(rec.variants))


if __name__ == "__main__":
    main()
