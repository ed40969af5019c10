#!/bin/sh
# The workflow's costs on this machine: the demo site end to end through `cybershake run`
# (each step's time from the study), then the same command again, which verifies every output's
# checksum and runs nothing. Usage: bench/workflow_bench.sh [OUT_DIR] (default /tmp/cs_wf_bench).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/cs_wf_bench}
rm -rf "$out"
t0=$(date +%s.%N)
DEMO_OUT="$out" sh "$here/sites/demo/run_demo.sh" >"$out.log" 2>&1
t1=$(date +%s.%N)
"$here/build/bin/cybershake" run DEMO --study "$out/demo.sqlite" --config "$here/sites/demo/demo.run" >/dev/null
t2=$(date +%s.%N)
bytes=$(sqlite3 "$out/demo.sqlite" "SELECT sum(f.Bytes) FROM Files f JOIN Step_Files l USING (File_ID) WHERE l.Role = 'output'")
echo "steps (seconds, from Workflow_Steps):"
sqlite3 -separator ' ' "$out/demo.sqlite" "SELECT Step_Name, CAST(round((julianday(Finished_At) - julianday(Started_At)) * 86400) AS INTEGER) FROM Workflow_Steps ORDER BY Position" | sed 's/^/  /'
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$bytes" 'BEGIN {
    printf "workflow demo: end to end %.0f s; resume of the finished run (checksums of %.1f MB of outputs) %.2f s\n", b - a, n / 1e6, c - b }'
