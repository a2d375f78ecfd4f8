#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for testing the batch grader's Slurm mode: munged, slurmctld and
# slurmd, all from Debian's packages (munge, slurm-wlm), with every file under STATE (nothing in /etc).
#
#   grader/selftest/local-slurm.sh start STATE     starts it (as root); prints "export SLURM_CONF=..." to eval
#   grader/selftest/local-slurm.sh stop STATE      stops it
#
# It exits 77 with the reason when Slurm cannot start here (not root, packages missing, a daemon that does not
# come up), so a test can report itself skipped. The node has this machine's cores and no GPU.
set -uo pipefail
action=${1:-}
state=${2:-}
[ -n "$action" ] && [ -n "$state" ] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
mkdir -p "$state"
state=$(cd "$state" && pwd)
conf="$state/slurm.conf"
skip() { echo "SKIPPED: local Slurm cluster: $*" >&2; exit 77; }

stop() {
  for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munged.pid"; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  sleep 1
  for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munged.pid"; do
    [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null
    rm -f "$pidfile"
  done
  return 0
}

if [ "$action" = stop ]; then stop; exit 0; fi
[ "$action" = start ] || { echo "unknown action '$action' (start, stop)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || skip "needs root (slurmd starts jobs as their users)"
for tool in munged mungekey slurmctld slurmd sbatch sinfo; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || skip "$tool is missing (apt-get install slurm-wlm munge)"
done
export PATH="$PATH:/usr/sbin"
stop

# Ports of our own, so that a Slurm already on the machine is left alone.
port=$(( 20000 + ($$ % 20000) ))
host=$(hostname -s)
cores=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
mkdir -p "$state/munge" "$state/ctld" "$state/spool" "$state/log"
chmod 700 "$state/munge"
[ -f "$state/munge/munge.key" ] || mungekey --create --keyfile="$state/munge/munge.key" >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$state/munge/munge.key"
munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
  --pid-file="$state/munged.pid" --log-file="$state/log/munged.log" --seed-file="$state/munge/munge.seed" ||
  skip "munged did not start (see $state/log/munged.log)"

cat >"$conf" <<CONF
ClusterName=tilelab
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=3600
KillWait=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cores RealMemory=$memory State=UNKNOWN
PartitionName=tilelab Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"
slurmctld -f "$conf" || skip "slurmctld did not start (see $state/log/slurmctld.log)"
slurmd -f "$conf" || skip "slurmd did not start (see $state/log/slurmd.log)"
for _ in $(seq 1 30); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "export SLURM_CONF=$conf"
    exit 0
  fi
  sleep 1
done
sinfo >&2
tail -5 "$state/log/slurmctld.log" "$state/log/slurmd.log" >&2
stop
skip "the node did not become idle within 30 s (logs in $state/log)"
