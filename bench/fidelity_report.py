"""Statistics and writers of the fidelity harness: turns the samples of one
case (target directory x configuration x API mode) into medians, bests,
spreads, throughput ratios h5perf/limit, overheads per call and peak memory,
and writes all cases as bench/results/fidelity.json and fidelity.md.
Nothing here runs a program or judges a result beyond the targets of docs/performance.md.
"""
import json
import statistics

from fidelity_run import MEASURES

# The fidelity targets (docs/performance.md): h5perf's throughput at least this fraction of the bare
# loop's (POSIX, MPI-IO) or of bare MPI-IO's (HDF5). Measured, not asserted; PnetCDF
# has no target (its conversion to big-endian costs, docs/pnetcdf.md).
TARGETS = {("contig_1m", m): 0.95 for m in ("posix", "mpiio", "mpiio_coll")}
TARGETS.update({("inter_4k", m): 0.90 for m in ("posix", "mpiio", "mpiio_coll")})
TARGETS.update({("contig_1m", m): 0.90 for m in ("phdf5", "phdf5_coll")})
LOOPS = ("write", "read")  # the measures whose extra time is per I/O call
MIB = 1048576.0


def stats(values):
    v = sorted(values)
    med = statistics.median(v)
    return {"n": len(v), "median": med, "best": v[0], "worst": v[-1],
            "spread_pct": 100.0 * (v[-1] - v[0]) / med if med > 0 else 0.0}


def sample_dict(s):
    return {"seconds": s.seconds, "peak_rss_kib": s.peak_kib, "source": s.source}


def summarize(meta, h5, lim):
    """One case: meta (names, arguments, target) plus everything derived
    from the h5perf samples h5 and the limit samples lim."""
    case = dict(meta)
    calls = lim[0].extra["calls_per_process"]
    case.update(bytes=lim[0].bytes, calls_per_process=calls,
                transfer_buffer=lim[0].extra["transfer_buffer"],
                h5perf_times_from=h5[0].source,
                samples={"h5perf": [sample_dict(s) for s in h5],
                         "limit": [sample_dict(s) for s in lim]})
    measures = [m for m in MEASURES if all(m in s.seconds for s in h5 + lim)]
    st = {"h5perf": {m: stats([s.seconds[m] for s in h5]) for m in measures},
          "limit": {m: stats([s.seconds[m] for s in lim]) for m in measures}}
    case["stats"] = st
    case["mib_per_s"] = {p: {m: case["bytes"] / MIB / st[p][m]["median"] for m in measures}
                         for p in st}
    case["ratio"] = {m: {"median": st["limit"][m]["median"] / st["h5perf"][m]["median"],
                         "best": st["limit"][m]["best"] / st["h5perf"][m]["best"]}
                     for m in measures}
    case["overhead_us_per_call"] = {
        m: 1e6 * (st["h5perf"][m]["median"] - st["limit"][m]["median"]) / calls
        for m in measures if m in LOOPS}
    case["peak_rss_kib"] = {
        "h5perf": statistics.median(max(s.peak_kib) for s in h5),
        "limit": statistics.median(max(s.peak_kib) for s in lim)}
    case["target_ratio"] = TARGETS.get((meta["config"], meta["mode"]))
    return case


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


def _target_cell(case, m):
    t = case["target_ratio"]
    if t is None:
        return "-"
    return "%s (>= %.2f)" % ("met" if case["ratio"][m]["median"] >= t else "**missed**", t)


def _throughput_row(c, m):
    st, over = c["stats"], c["overhead_us_per_call"].get(m)
    cells = [c["config_what"], c["mode_what"], m,
             "%.0f" % c["mib_per_s"]["limit"][m], "%.0f" % c["mib_per_s"]["h5perf"][m],
             "%.3f" % c["ratio"][m]["median"], "%.3f" % c["ratio"][m]["best"],
             "%.1f%% / %.1f%%" % (st["limit"][m]["spread_pct"], st["h5perf"][m]["spread_pct"]),
             "%.2f" % over if over is not None else "-", _target_cell(c, m)]
    return "| " + " | ".join(cells) + " |"


def _throughput_rows(cases):
    return [_throughput_row(c, m) for c in cases for m in MEASURES if m in c["ratio"]]


def _memory_rows(cases):
    rows = []
    for c in cases:
        p = c["peak_rss_kib"]
        rows.append("| %s | %s | %s | %d | %d | %d | %+d |" % (
            c["target"], c["config_what"], c["mode_what"], c["transfer_buffer"] // 1024,
            p["limit"], p["h5perf"], p["h5perf"] - p["limit"]))
    return rows


def _header(doc):
    m = doc["machine"]
    lines = ["# Measurement fidelity: h5perf against the physical limit", ""]
    if doc["quick"]:
        lines += ["**Quick run** (test sizes, %d repetitions): it checks that the harness "
                  "works end to end; the numbers measure nothing." % doc["repetitions"], ""]
    lines += [
        "Date: %s (UTC). Machine: %s, %d cores, %s, %s MiB of memory." % (
            doc["date"], m["uname"], m["nproc"], m["cpu"], m["memory_mib"]),
        "Commit: %s%s. %s, HDF5 %s. Build: %s." % (
            doc["commit"], " (with uncommitted changes)" if doc["dirty"] else "", doc["mpi"],
            doc["hdf5"], doc["build"]),
        "Command: `%s`. %d processes; each contender ran %d times per case, alternated "
        "(h5perf, limit, h5perf, limit, ...), one iteration per run." % (
            doc["command"], doc["processes"], doc["repetitions"]),
        "h5perf's times were read from its %s." % (
            "--results JSON" if doc["h5perf_times_from"] == "json" else "text report"),
        "",
        "Ratio: h5perf's throughput over the limit's (1.000 = as fast as the bare loop; for "
        "HDF5 and PnetCDF the limit is bare MPI-IO), of the median times and of the best "
        "times. Spread: "
        "(worst - best) / median time of each contender. Overhead: (h5perf's median - the "
        "limit's median) / the I/O calls of one process in that phase, in microseconds.",
        ""]
    return lines


def write_markdown(path, doc):
    lines = _header(doc)
    for t in doc["targets"]:
        cases = [c for c in doc["cases"] if c["target"] == t["dir"]]
        lines += ["## %s (%s)" % (t["dir"], t["fs"]), "",
                  "| configuration | API | measure | limit MiB/s | h5perf MiB/s | ratio (median) "
                  "| ratio (best) | spread limit / h5perf | overhead us/call | target |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        lines += _throughput_rows(cases) + [""]
    lines += ["## Peak resident memory per process", "",
              "Medians over the runs of the largest process's VmHWM (bench/hwm.c, preloaded "
              "into both contenders alike).", "",
              "| target | configuration | API | transfer buffer KiB | limit KiB | h5perf KiB "
              "| h5perf - limit KiB |", "|---|---|---|---|---|---|---|"]
    lines += _memory_rows(doc["cases"]) + [""]
    with open(path, "w") as f:
        f.write("\n".join(lines))
