#!/usr/bin/env bash
# Builds a Fairy-Stockfish UCI binary from the source distribution of its
# Python binding (pyffish, PyPI) into target/fsf/fairy-stockfish, for
# benchmarks (perft and search speed, measured in the same run as ajaxlab's)
# and as a sparring engine. Nothing of it is committed; it is rebuilt on demand.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/target/fsf"
bin="$out/fairy-stockfish"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
mkdir -p "$out/src"
python3 -m pip download --quiet --no-binary :all: --no-deps pyffish==0.0.90 -d "$out/src" >&2
tar -xzf "$out"/src/pyffish-0.0.90.tar.gz -C "$out/src"
src="$out/src/pyffish-0.0.90/src"
# The binding's own flags (setup.py), plus optimisation and the CPU's instructions.
flags=(-std=c++17 -O3 -DNDEBUG -march=native -DIS_64BIT -DUSE_POPCNT -DLARGEBOARDS
       -DALLVARS -DPRECOMPUTED_MAGICS -DNNUE_EMBEDDING_OFF -pthread -w)
sources=$(ls "$src"/*.cpp "$src"/syzygy/*.cpp "$src"/nnue/*.cpp "$src"/nnue/features/*.cpp \
  | grep -v -e pyffish.cpp -e ffishjs.cpp)
objs=()
for f in $sources; do
  o="$out/obj/$(basename "$f" .cpp).o"; mkdir -p "$out/obj"
  g++ "${flags[@]}" -c "$f" -o "$o" &
  objs+=("$o")
  while [ "$(jobs -r | wc -l)" -ge "$(nproc)" ]; do wait -n; done
done
wait
g++ "${flags[@]}" "${objs[@]}" -o "$bin"
echo "$bin"
