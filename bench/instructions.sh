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
export NUMBA_CACHE_DIR=${1:-${TMPDIR:-/tmp}/unosim-bench-haswell-$(id -u)}
small=${SMALL:-2000}
big=${BIG:-22000}
python "$here/play_games.py" 10 >/dev/null   # compile (or load) outside valgrind
count() {
  local log
  log=$(mktemp)
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    python "$here/play_games.py" "$1" 2>"$log" >/dev/null
  grep -E 'I *refs' "$log" | tr -d ',' | awk '{print $NF}'
  rm -f "$log"
}
a=$(count "$small")
b=$(count "$big")
echo "instructions: $small games $a, $big games $b"
echo "per game: $(( (b - a) / (big - small) ))"
