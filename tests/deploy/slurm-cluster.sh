#!/usr/bin/env bash
# A throwaway single-node Slurm cluster for the deploy tests (root only):
#
#   tests/deploy/slurm-cluster.sh start DIR   # writes DIR/slurm.conf, starts munged, slurmctld, slurmd
#   tests/deploy/slurm-cluster.sh stop DIR    # stops them by the PIDs they wrote
#
# The node is this machine as `slurmd -C` describes it (its CPUs and
# memory); nothing else on the machine is configured or started. Commands
# reach the cluster with SLURM_CONF=DIR/slurm.conf. It needs neither systemd
# nor cgroups (proctrack/linuxproc, task/none), which sandboxed CI machines
# lack. Each CPU takes two jobs (OverSubscribe=FORCE:2), so that a
# coordinator and two one-CPU workers fit on a two-core CI machine.
set -euo pipefail

fail() {
  echo "slurm-cluster: $*" >&2
  exit 1
}

[ $# -eq 2 ] || fail "usage: $0 start|stop DIR"
action=$1
dir=$(realpath -m "$2")
node=$(hostname -s)

write_config() {
  local described cpus memory
  described=$(slurmd -C | head -1)
  cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$described")
  memory=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$described")
  [ -n "$cpus" ] && [ -n "$memory" ] || fail "slurmd -C printed no CPUs or RealMemory: $described"
  mkdir -p "$dir"/{state,spool,log}
  cat >"$dir/slurm.conf" <<CONF
ClusterName=ajaxlab-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=512
NodeName=$node CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:2
CONF
}

start() {
  [ "$(id -u)" -eq 0 ] || fail "must run as root (it starts munged, slurmctld and slurmd)"
  write_config
  export SLURM_CONF=$dir/slurm.conf
  if [ ! -S /run/munge/munge.socket.2 ]; then
    mkdir -p /run/munge
    chown munge:munge /run/munge
    runuser -u munge -- /usr/sbin/munged
    cp /run/munge/munged.pid "$dir/munged.pid"
  fi
  slurmctld
  slurmd
  local waited=0
  until sinfo -h -o %T 2>/dev/null | grep -qx idle; do
    waited=$((waited + 1))
    [ "$waited" -le 60 ] || fail "the node is not idle after 30 s: $(sinfo 2>&1); see $dir/log/"
    sleep 0.5
  done
  echo "slurm-cluster: node $node idle ($(sinfo -h -o '%c CPUs, %m MiB'))"
}

stop() {
  local daemon pid
  for daemon in slurmd slurmctld munged; do
    [ -f "$dir/$daemon.pid" ] || continue
    pid=$(cat "$dir/$daemon.pid")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$dir/$daemon.pid"
  done
  echo "slurm-cluster: stopped"
}

case $action in
  start) start ;;
  stop) stop ;;
  *) fail "usage: $0 start|stop DIR" ;;
esac
