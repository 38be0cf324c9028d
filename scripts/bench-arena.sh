#!/usr/bin/env bash
# Games per core-hour of the builtin engine, in-process and over UCI as a
# subprocess (the same engine, the same games: the script checks that the
# moves are identical), at nodes=1000 and nodes=10000, for AFC and AMRC.
# One game at a time, so the figures are per core.
# Usage: scripts/bench-arena.sh [GAMES_AT_1000] [GAMES_AT_10000]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/target/release/ajaxlab"
cargo build --release -p ajaxlab --manifest-path "$top/Cargo.toml" >&2
small=${1:-40}; large=${2:-10}
work=$(mktemp -d)
python=${AJAXLAB_FSF_PYTHON:-$top/.venv/bin/python}
printf '%-20s %-7s %12s %12s %8s %s\n' variant nodes in-process uci ratio same-games
for variant in ajax-falcon ajax-modern-random; do
  for nodes in 1000 10000; do
    games=$([ "$nodes" = 1000 ] && echo "$small" || echo "$large")
    rate() { grep -o '([0-9]* games/hour)' "$1" | tr -dc 0-9; }
    "$bin" match --variant "$variant" --games "$games" --tc "nodes=$nodes" --concurrency 1 --quiet \
      --out "$work/in-$variant-$nodes" > "$work/in.txt" 2>/dev/null
    "$bin" match --variant "$variant" --games "$games" --tc "nodes=$nodes" --concurrency 1 --quiet \
      --player "uci:$bin,arg=uci,name=ajaxlab-a" --player "uci:$bin,arg=uci,name=ajaxlab-b" \
      --out "$work/uci-$variant-$nodes" > "$work/uci.txt" 2>/dev/null
    same=$("$python" -c "
import duckdb, sys
q = lambda d: duckdb.connect().execute(f\"select game_id, moves from read_parquet('{d}/*.parquet') order by game_id\").fetchall()
print('yes' if q('$work/in-$variant-$nodes') == q('$work/uci-$variant-$nodes') else 'NO')")
    a=$(rate "$work/in.txt"); b=$(rate "$work/uci.txt")
    printf '%-20s %-7s %12s %12s %7.2fx %s\n' "$variant" "$nodes" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')" "$same"
  done
done
rm -rf "$work"
