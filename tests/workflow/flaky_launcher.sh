#!/bin/sh
# An MPI launcher for the workflow's retry test: the first call (per marker file) fails the way a
# node failure does; later calls drop "-np N" and run the command, as 'mpirun -np 1' would.
marker=${CS_FLAKY_MARKER:?}
if [ ! -e "$marker" ]; then
    : >"$marker"
    echo "flaky_launcher: simulated node failure" >&2
    exit 3
fi
[ "$1" = "-np" ] && shift 2
exec "$@"
