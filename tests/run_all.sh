#!/bin/sh
# Runs every test suite (unit tests, then command-line tests), and ends with
# "N passed, N failed" summed over all of them.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
export CS_REPO="$repo"
export CYBERSHAKE_LOG=${CYBERSHAKE_LOG:-warn}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
log=$(mktemp)
# What several suites use, made once by whichever needs it first (tests/workflow/small_site.sh:
# the small site's reference run); kept, and named, if anything failed.
CS_FIXTURES=$(mktemp -d "${TMPDIR:-/tmp}/cs_fixtures.XXXXXX")
export CS_FIXTURES
passed=0
failed=0
skipped=0
times=""
run_suite() {
    echo "== $1"
    name=$1
    shift
    ts=$(date +%s)
    "$@" 2>&1 | tee "$log"
    times="$times$(($(date +%s) - ts)) s  $name
"
    line=$(grep '^TESTSUMMARY' "$log" | tail -1)
    if [ -z "$line" ]; then
        echo "FAIL suite $*: ended without a summary"
        failed=$((failed + 1))
        return
    fi
    p=$(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')
    f=$(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$line" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
}
t0=$(date +%s)
run_suite "unit tests" "$repo/build/bin/cs_unit_tests"
for t in "$repo"/tests/cli/test_*.sh; do
    run_suite "$(basename "$t")" sh "$t"
done
# Physics checks against independent solutions, in Python with Debian's numpy/scipy/h5py
# (the system interpreter, which has them, not whatever python3 comes first on the PATH).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
run_suite "physics (tests/physics)" "$py" "$repo/tests/physics/run.py"
rm -f "$log"
if [ "$failed" = 0 ]; then rm -rf "$CS_FIXTURES"; else echo "shared fixtures kept in $CS_FIXTURES"; fi
echo
echo "time per suite:"
printf '%s' "$times" | sort -rn | sed 's/^/    /'
echo "$skipped skipped (not counted as passed); $(($(date +%s) - t0)) s in all"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
