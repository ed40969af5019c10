#!/bin/sh
# Installs the Debian packages the toolkit builds and tests with, only those missing.
# Runs apt-get update first whenever something has to be installed. Slurm and munge are for the
# workflow's Slurm tests (tests/slurm/slurm_local.sh starts private daemons; none is enabled).
# procps (ps, pgrep, pkill) is for the tests that kill runs on purpose. chromium renders the
# study report headless in tests/cli/test_report_cli.sh (the test is skipped without it).
set -eu
PKGS="build-essential pkg-config libopenmpi-dev openmpi-bin libhdf5-openmpi-dev libhdf5-dev hdf5-tools
libsqlite3-dev sqlite3 libcurl4-openssl-dev libproj-dev proj-data libfftw3-dev libssl-dev
libcairo2-dev python3 python3-numpy python3-h5py python3-scipy python3-pyproj python3-venv bc
slurmctld slurmd slurm-client munge procps chromium"
if [ -n "${CYBERSHAKE_EXTRA_PKGS:-}" ]; then PKGS="$PKGS $CYBERSHAKE_EXTRA_PKGS"; fi
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing"
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "install-deps: missing packages:$missing; run as root or install them" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/tmp/cybershake-apt.log 2>&1 || { tail -20 /tmp/cybershake-apt.log >&2; exit 1; }
