#!/bin/sh
# A real single-node Slurm (munged, slurmctld, slurmd from Debian) in a private folder, for the
# workflow's Slurm tests:   slurm_local.sh start DIR   |   slurm_local.sh stop DIR
# `start` prints the SLURM_CONF to export. Needs root (slurmd runs jobs as their users).
set -eu
cmd=$1
dir=$2
host=$(hostname -s)
# ports of our own, so a stale daemon of another run does not answer for ours
port=${SLURM_TEST_PORT:-$((20000 + ($$ % 10000) * 2))}
case "$cmd" in
start)
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    conf="$dir/slurm.conf"
    # TaskPlugin=task/affinity binds each job to the cores Slurm gave it (one a task: the steps
    # ask --ntasks=RANKS), as a cluster does: OpenMP then starts one thread a core it has, and the
    # steps that run side by side (sgt_E and sgt_N) do not put four spinning threads on two cores.
    cat >"$conf" <<CONF
ClusterName=cybershake-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1,sched_min_interval=100000
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
MinJobAge=300
NodeName=$host CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    # munge with its own key and socket, so nothing of the machine's is touched
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 600 "$dir/munge/munge.key"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed"
    export SLURM_CONF="$conf"
    slurmctld -f "$conf"
    slurmd -f "$conf"
    i=0
    until sinfo -h -o '%T' 2>/dev/null | grep -q -E '^(idle|mixed|allocated)'; do
        i=$((i + 1))
        if [ $i -gt 60 ]; then
            echo "slurm_local: the node did not come up; logs in $dir" >&2
            tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
            exit 1
        fi
        sleep 0.5
    done
    echo "$conf"
    ;;
stop)
    # by their command lines (which name this folder), so a lost pid file leaves nothing behind
    pkill -f "slurmd -f $dir/slurm.conf" 2>/dev/null || true
    pkill -f "slurmctld -f $dir/slurm.conf" 2>/dev/null || true
    pkill -f "munged --force --key-file=$dir/munge/munge.key" 2>/dev/null || true
    i=0
    while pgrep -f "$dir/slurm.conf|$dir/munge/munge.key" >/dev/null 2>&1 && [ $i -lt 20 ]; do
        i=$((i + 1))
        sleep 0.25
    done
    ;;
esac
