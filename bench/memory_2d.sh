#!/usr/bin/env bash
# Peak resident memory per process of 2D write-only runs whose dataset is
# 4 GiB, against the same runs with a 64 MiB dataset (the baseline: same
# transfer buffer, same MPI and HDF5), measured in the same invocation for
# each API. The bound (docs/performance.md): peak(4 GiB) <= peak(64 MiB) + 2 x transfer buffer.
# Writes bench/results/memory-2d.md. Not a test: nothing is asserted.
# Usage: bench/memory_2d.sh [BUILD_DIR] [DATA_DIR]   (defaults: build, /tmp)
# Needs about 4.1 GiB free in DATA_DIR; the data files are removed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
data=$(mktemp -d "${2:-/tmp}/h5perf-bench-XXXXXX")
trap 'rm -rf "$data"' EXIT
out=bench/results/memory-2d.md
np=2
flags=()
if mpiexec --version 2>&1 | grep -Eq "Open MPI|OpenRTE"; then
  flags=(--oversubscribe)
  [ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# peak KiB of each rank (GNU time's %M), space-separated, for one run
peaks() {
  HDF5_PARAPREFIX="$data" mpiexec "${flags[@]}" -n "$np" /usr/bin/time -f "peak-kib %M" \
    "$build/h5perf" -g -w -p "$np" "$@" 2>&1 >/dev/null | awk '/^peak-kib/ {printf "%s ", $2}'
}

{
  echo "# Peak memory per process, 2D write-only, 4 GiB vs 64 MiB datasets"
  echo
  echo "Date: $(date -u +%Y-%m-%dT%H:%MZ). Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB,"
  echo "$(mpiexec --version 2>&1 | head -1), HDF5 $(grep -h 'define H5_VERSION' /usr/include/hdf5/*/H5pubconf.h 2>/dev/null | head -1 | awk '{print $3}'),"
  echo "commit $(git rev-parse --short HEAD), data in $(df -T "$data" | awk 'NR==2 {print $2}'). $np processes."
  echo "Command: \`bench/memory_2d.sh\`. Peaks are GNU time's maximum resident set size (KiB), one per process."
  echo
  echo "| API and options | transfer buffer (KiB) | peak, 64 MiB dataset | peak, 4 GiB dataset | growth (KiB) | bound: 2 x buffer (KiB) |"
  echo "|---|---|---|---|---|---|"
} > "$out"

# label | h5perf options shared by both runs | B | X
run_case() {
  local label=$1 opts=$2 b=$3 x=$4
  local buf=$(( b * x / 1024 ))
  local small big
  small=$(peaks $opts -B "$b" -x "$x" -X "$x" -e 4K)
  big=$(peaks $opts -B "$b" -x "$x" -X "$x" -e 32K)
  local growth
  growth=$(python3 -c "import sys; s=[int(v) for v in '$small'.split()]; b=[int(v) for v in '$big'.split()]; print(' '.join(str(q-p) for p,q in zip(s,b)))")
  echo "| $label | $buf | $small | $big | $growth | $((2 * buf)) |" >> "$out"
  echo "$label: small [$small] big [$big] growth [$growth] KiB" >&2
}

run_case "POSIX" "-A posix" 64 4096
run_case "MPI-IO independent" "-A mpiio" 64 4096
run_case "MPI-IO collective (-C)" "-A mpiio -C" 64 4096
run_case "MPI-IO interleaved collective (-I -C)" "-A mpiio -I -C" 64 4096
run_case "HDF5 independent" "-A phdf5" 64 4096
run_case "HDF5 collective (-C)" "-A phdf5 -C" 64 4096
run_case "POSIX chunk emulation (-c)" "-A posix -c" 1024 4096
run_case "HDF5 chunked (-c), 4096 vs 64 chunks" "-A phdf5 -c" 1024 4096
echo >> "$out"
echo "Written by bench/memory_2d.sh; see docs/performance.md for the reading." >> "$out"
cat "$out"
