#!/usr/bin/env bash
# Instructions per game by phase, cachegrind's count (as bench/instructions.sh):
# the C reference's phases from callgrind on its -DPROFILE build (each phase a
# function of its own), unosim's deal (seed and deal, phases_unosim.py) by the
# difference of two game counts. unosim's whole game and its game-feel share come
# from bench/instructions.sh (with BENCH_FEEL_OFF=1 for the latter).
# Usage: bench/c_reference/phases.sh [CACHE_DIR]   (python: a real one, not a shim)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NUMBA_CPU_NAME=haswell NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1
export NUMBA_CPU_FEATURES=${NUMBA_CPU_FEATURES:-+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+rdrnd,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave,+xsaveopt}
export NUMBA_CACHE_DIR=${1:-${TMPDIR:-/tmp}/unosim-bench-haswell-$(id -u)}
tmp=$(mktemp -d)
base=$(python -c 'from unosim.runs.tables import base_seed; print(int(base_seed(1)))')
# the C reference, by phase
cc -O2 -fvect-cost-model=dynamic -march=x86-64-v3 -DPROFILE -g -o "$tmp/uno-p" "$here/uno.c"
for n in 10000 60000; do
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$n" "$tmp/uno-p" $n "$base" >/dev/null 2>&1
  callgrind_annotate --inclusive=yes "$tmp/cg.$n" | tr -d , \
    | awk '/PROGRAM TOTALS/ {print "total", $1}
           /uno\.c:[A-Za-z_.0-9]+ \[/ {split($(NF-1), a, ":"); split(a[2], f, "."); print f[1], $1}' \
    > "$tmp/ph.$n"
done
echo "C reference (-DPROFILE build, calls kept), instructions per game:"
join <(sort "$tmp/ph.10000") <(sort "$tmp/ph.60000") | awk '{printf "  %-28s %7.0f\n", $1, ($3 - $2) / 50000}'
# unosim's deal
python "$here/phases_unosim.py" deal 10 >/dev/null   # compile (or load) outside valgrind
for n in 20000 220000; do
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    python "$here/phases_unosim.py" deal $n >/dev/null 2>"$tmp/deal.$n" &
done
wait
refs() { grep -E 'I *refs' "$1" | tr -d ',' | awk '{print $NF}'; }
a=$(refs "$tmp/deal.20000"); b=$(refs "$tmp/deal.220000")
echo "unosim seed + deal per game: $(( (b - a) / 200000 ))"
rm -rf "$tmp"
