#!/usr/bin/env bash
# Perft cost of the rules crate at two commits, in instructions (valgrind's
# callgrind), which the load of a shared machine does not change, unlike
# nodes per second. Each commit is checked out in a worktree under
# target/perft-instructions/, perft_speed.rs is built there as an example of
# the rules crate, and every suite of tests/perft/ is run to the deepest
# depth whose count is at most LIMIT, twice: once to LIMIT, once to a
# depth-1 limit, whose instructions (start-up and loading the variant) are
# subtracted. Prints instructions per variant and the ratio.
#
#   scripts/perft-instructions/run.sh BASE_COMMIT [NEW_COMMIT=HEAD] [LIMIT=3000000]
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$1 new=${2:-HEAD} limit=${3:-3000000}
root=$PWD/target/perft-instructions
mkdir -p "$root"
build() {
  local dir=$root/$1
  [ -d "$dir" ] || git worktree add --detach "$dir" "$1" >/dev/null
  mkdir -p "$dir/crates/rules/examples"
  cp scripts/perft-instructions/perft_speed.rs "$dir/crates/rules/examples/"
  (cd "$dir" && cargo build --release --quiet -p ajaxlab-rules --example perft_speed)
}
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$root/$1/target/release/examples/perft_speed" "$2" "tests/perft/$2.perft" "$3" 2>&1 |
    grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
base=$(git rev-parse --short "$base") new=$(git rev-parse --short "$new")
build "$base"; build "$new"
for v in ajax-falcon ajax-modern-random chess chess960; do
  a=$(( $(count "$base" $v "$limit") - $(count "$base" $v 60) ))
  b=$(( $(count "$new" $v "$limit") - $(count "$new" $v 60) ))
  awk -v v=$v -v a=$a -v b=$b 'BEGIN { printf "%-20s %7.1f M -> %7.1f M instructions  %.4fx\n", v, a/1e6, b/1e6, b/a }'
done
