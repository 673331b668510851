#!/usr/bin/env bash
# Machine instructions per game of the hot loop (official rules, 4 players, all seats
# random, one core), counted by cachegrind: the totals of a 2,000-game and a
# 22,000-game run differ by 20,000 games' worth, so import, compile-cache loading and
# setup cancel. Code is built for Haswell (AVX2; valgrind cannot run AVX-512) into a
# cache of its own, warmed first outside valgrind.
# Usage: bench/instructions.sh [CACHE_DIR]   (python: the one on PATH)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NUMBA_CPU_NAME=haswell NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1
# a fixed string hash seed: with a random one the import's work differs from run to
# run, and the difference of the two counts moved by up to 200 a game; fixed, it
# repeats to the instruction
export PYTHONHASHSEED=${PYTHONHASHSEED:-0}
# the features too: else Numba takes the host's, which differ under valgrind (its
# virtual CPU), so the compile cache would miss there and compile under valgrind
export NUMBA_CPU_FEATURES=${NUMBA_CPU_FEATURES:-+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+lzcnt,+mmx,+movbe,+pclmul,+popcnt,+rdrnd,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave,+xsaveopt}
export NUMBA_CACHE_DIR=${1:-${TMPDIR:-/tmp}/unosim-bench-haswell-$(id -u)}
small=${SMALL:-2000}
big=${BIG:-22000}
# the interpreter itself, not a launcher on PATH (a pyenv shim hands off to it, and
# valgrind does not follow the hand-off: it counted nothing and printed nothing)
py=$(python -c 'import sys; print(sys.executable)')
"$py" "$here/play_games.py" 10 >/dev/null   # compile (or load) outside valgrind
tmp=$(mktemp -d)
run() {  # the two runs side by side (two cores); each one is single-threaded
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$py" "$here/play_games.py" "$1" >"$tmp/$1.out" 2>"$tmp/$1.err"
}
run "$small" & run "$big" & wait
refs() { grep -E 'I *refs' "$tmp/$1.err" | tr -d ',' | awk '{print $NF}'; }
a=$(refs "$small")
b=$(refs "$big")
turns=$(( $(awk '{print $3}' "$tmp/$big.out") - $(awk '{print $3}' "$tmp/$small.out") ))
rm -rf "$tmp"
echo "turns per game: $(( turns * 100 / (big - small) ))e-2"
echo "instructions: $small games $a, $big games $b"
echo "per game: $(( (b - a) / (big - small) ))"
