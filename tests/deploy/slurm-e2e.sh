#!/usr/bin/env bash
# Slurm end to end, on a throwaway single-node cluster of this machine
# (tests/deploy/slurm-cluster.sh): the coordinator and the workers submitted
# as deploy/slurm/README.md tells an operator, a campaign of a few hundred
# games, then one worker killed in the middle of a unit, another preempted
# (requeued) and the coordinator job stopped and submitted again; every game
# must be counted exactly once. Run by .ci/run after the release build; as root, with
# Debian's slurmctld, slurmd, slurm-client and munge (installed here if
# missing). Prints its wall time.
#
# AJAXLAB_BIN and AJAXLAB_PYTHON as in tests/deploy/lib.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

skip_unless_root "the Slurm end-to-end test (it starts Slurm's daemons)"
if ! command -v slurmctld >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  install_packages slurmctld slurmd slurm-client munge
fi
[ -x "$bin" ] || fail "$bin is not built (cargo build --release --locked)"

work=$(mktemp -d /tmp/ajaxlab-slurm-e2e.XXXXXX)
export SLURM_CONF=$work/cluster/slurm.conf
cleanup() {
  local status=$?
  scancel --full --signal=KILL --name=ajaxlab-workers >/dev/null 2>&1 || true
  scancel --full --signal=KILL --name=ajaxlab-coordinator >/dev/null 2>&1 || true
  sleep 1
  "$deploy_tests/slurm-cluster.sh" stop "$work/cluster" || true
  if [ "$status" -ne 0 ]; then
    echo "== the jobs' output and the daemons' logs ($work)" >&2
    tail -n 40 "$work"/ops/*.out "$work"/cluster/log/*.log >&2 || true
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
started=$SECONDS
"$deploy_tests/slurm-cluster.sh" start "$work/cluster"

# The operator's steps (deploy/slurm/README.md), in a directory of their own.
mkdir "$work/ops"
cd "$work/ops"
grpc_port=$(free_port)
http_port=$(free_port)
name=slurm-e2e
write_campaign campaign.toml "$name" 300
cat >coordinator.toml <<TOML
listen = "0.0.0.0:$grpc_port"
http_listen = "0.0.0.0:$http_port"
state_dir = "state"
lease_seconds = 10
unit_seconds = 4
TOML
"$bin" token --state-dir state --scope worker --label slurm --out worker.token
"$bin" token --state-dir state --scope operator --label e2e --out operator.token

coordinator_job() {
  sbatch --parsable --export=ALL,AJAXLAB_BIN="$bin" "$repo/deploy/slurm/ajaxlab-coordinator.sbatch"
}
job_running() {
  [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ]
}
job_pending() {
  [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = PENDING ]
}
job_gone() {
  [ -z "$(squeue -h -j "$1" -o %T 2>/dev/null)" ]
}
coordinator_answers() {
  "$bin" campaign list --coordinator "http://$node:$grpc_port" --token-file operator.token
}

job=$(coordinator_job)
wait_until 60 "coordinator job $job running" job_running "$job"
node=$(squeue -h -j "$job" -o %N)
coordinator=http://$node:$grpc_port
status_page=http://$node:$http_port
wait_until 60 "the coordinator answering on $coordinator" coordinator_answers
echo "coordinator: job $job on $node, $coordinator"
"$bin" campaign create campaign.toml --coordinator "$coordinator" --token-file operator.token

workers=$(sbatch --parsable --array=0-1 --cpus-per-task=1 --time=15 \
  --export=ALL,AJAXLAB_COORDINATOR="$coordinator",AJAXLAB_TOKEN_FILE="$PWD/worker.token",AJAXLAB_BIN="$bin" \
  "$repo/deploy/slurm/ajaxlab-workers.sbatch")
echo "workers: job array $workers (2 tasks, 1 CPU each)"
wait_until 60 "worker task ${workers}_0 running" job_running "${workers}_0"
wait_until 60 "worker task ${workers}_1 running" job_running "${workers}_1"
wait_until 120 "20 pairs counted" pairs_at_least "$status_page" "$name" 20

# `scancel --signal=KILL` of a task is a cancel: Slurm sends SIGTERM first and
# the worker hands its unit back. A worker that dies outright (a node lost,
# the OOM killer) is a SIGKILL to the worker process itself.
echo "== a worker killed in the middle of a unit: SIGKILL to task ${workers}_0's worker process"
worker_process="^$bin worker .*--name slurm-${workers}_0-"
pgrep -f "$worker_process" >/dev/null || fail "no worker process of task ${workers}_0"
pkill -KILL -f "$worker_process"
wait_until 30 "worker task ${workers}_0 ended" job_gone "${workers}_0"
wait_until 30 "its unit back in the pool when its lease expired" \
  metric_at_least "$status_page" ajaxlab_leases_expired_total 1
echo "its lease expired; $(campaign_state "$status_page" "$name") (state, pairs done, pairs in all)"

# Preemption: a requeued task gets SIGTERM (its worker hands its unit back)
# and goes back to the queue, held about two minutes (its BeginTime), which
# the test lifts as an operator may.
echo "== a worker preempted: scontrol requeue ${workers}_1"
scontrol requeue "${workers}_1"
wait_until 30 "task ${workers}_1 back in the queue" job_pending "${workers}_1"
scontrol update jobid="${workers}_1" starttime=now
wait_until 60 "task ${workers}_1 running again" job_running "${workers}_1"
started_twice() {
  [ "$(grep -c "^worker 'slurm-${workers}_1-" "ajaxlab-worker-${workers}_1.out")" -eq 2 ]
}
wait_until 30 "a second worker start in ajaxlab-worker-${workers}_1.out" started_twice
grep -q "^worker stopped after submitting" "ajaxlab-worker-${workers}_1.out" ||
  fail "the preempted worker did not stop cleanly: $(cat "ajaxlab-worker-${workers}_1.out")"

echo "== the coordinator job stopped (scancel --signal=TERM $job) and submitted again"
scancel --signal=TERM "$job"
wait_until 60 "coordinator job $job ended" job_gone "$job"
grep -q "coordinator listening" "ajaxlab-coordinator-$job.out" ||
  fail "the first coordinator job's output shows no start: $(cat "ajaxlab-coordinator-$job.out")"
job=$(coordinator_job)
wait_until 60 "coordinator job $job running" job_running "$job"
[ "$(squeue -h -j "$job" -o %N)" = "$node" ] || fail "the coordinator moved to another node"
wait_until 60 "the coordinator answering again" coordinator_answers
echo "coordinator: job $job, $(campaign_state "$status_page" "$name") (state, pairs done, pairs in all)"

wait_until 300 "campaign $name finished" campaign_finished "$status_page" "$name"
"$bin" campaign status "$name" --coordinator "$coordinator" --token-file operator.token

echo "== the workers stopped (scancel --signal=TERM $workers), then the coordinator"
scancel --signal=TERM "$workers"
wait_until 30 "the worker array ended" job_gone "$workers"
check_every_game_once "$status_page" "$name" "state/campaigns/$name"
scancel --signal=TERM "$job"
wait_until 30 "coordinator job $job ended" job_gone "$job"
"$bin" coordinator --config coordinator.toml --verify
echo "PASS: Slurm end to end in $((SECONDS - started)) s"
