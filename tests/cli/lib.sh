# Helpers for command-line tests. Each script sources this, calls `tcase NAME FUNCTION` for
# every case, and ends with `tsummary`. A case passes when its function returns 0.
set -u
REPO=${CS_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
CS="$REPO/build/bin/cybershake"
T_PASS=0
T_FAIL=0
T_SKIP=0
T_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/cs_cli.XXXXXX")
export CYBERSHAKE_LOG=${CYBERSHAKE_LOG:-warn}

# Runs a command, keeping its exit status in $RC and output in $T/out and $T/err.
run() {
    "$@" >"$T/out" 2>"$T/err"
    RC=$?
    return 0
}
# expect_rc CODE: the last run exited with CODE.
expect_rc() {
    if [ "$RC" != "$1" ]; then
        echo "    expected exit $1, got $RC: $*" >&2
        sed 's/^/    stderr: /' "$T/err" | head -5 >&2
        return 1
    fi
}
# expect_err TEXT: stderr of the last run contains TEXT.
expect_err() {
    if ! grep -qF -- "$1" "$T/err"; then
        echo "    stderr lacks '$1':" >&2
        sed 's/^/    stderr: /' "$T/err" | head -5 >&2
        return 1
    fi
}
expect_out() {
    if ! grep -qF -- "$1" "$T/out"; then
        echo "    stdout lacks '$1':" >&2
        sed 's/^/    stdout: /' "$T/out" | head -5 >&2
        return 1
    fi
}

tcase() {
    name=$1
    fn=$2
    T="$T_ROOT/$name"
    mkdir -p "$T"
    t0=$(date +%s.%N)
    if (cd "$T" && "$fn"); then
        T_PASS=$((T_PASS + 1))
        awk -v n="$name" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "ok   %s (%.2fs)\n", n, b - a }'
    else
        rc=$?
        if [ "$rc" = 77 ]; then
            T_SKIP=$((T_SKIP + 1))
            echo "skip $name: $(cat "$T/skip" 2>/dev/null)"
        else
            T_FAIL=$((T_FAIL + 1))
            echo "FAIL $name (files kept in $T)"
        fi
    fi
}
# skip REASON: inside a case, report it skipped (not passed).
skip() {
    echo "$1" >"$T/skip"
    return 77
}

tsummary() {
    echo "TESTSUMMARY passed=$T_PASS failed=$T_FAIL skipped=$T_SKIP"
    [ "$T_FAIL" = 0 ] && rm -rf "$T_ROOT"
    [ "$T_FAIL" = 0 ]
}
