#!/bin/sh
# The demo: what the toolkit can run end to end today on this machine.
# Creates a study database, imports the CyberShake sites and the demo site, and lists them.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
cs="$here/build/bin/cybershake"
out=${DEMO_OUT:-$here/demo-out}
mkdir -p "$out"
study="$out/demo.sqlite"
rm -f "$study" "$study-wal" "$study-shm"

echo "== cybershake db init $study"
"$cs" db init "$study"
echo "== cybershake db import-sites (CyberShake sites, then the demo site)"
"$cs" db import-sites "$study" "$here/sites/cybershake_sites.csv"
"$cs" db import-sites "$study" "$here/sites/demo/sites.csv"
echo "== cybershake db sites $study"
"$cs" db sites "$study"
echo "== cybershake db info $study"
"$cs" db info "$study"
echo
echo "demo outputs: $out"
