#!/bin/sh
# The `cybershake` program and its `db` subcommands, as a user runs them.
. "$(dirname "$0")/lib.sh"

t_help_and_exit_codes() {
    run "$CS" --help && expect_rc 0 && expect_out "db" || return 1
    run "$CS" && expect_rc 2 || return 1
    run "$CS" frobnicate && expect_rc 2 && expect_err "unknown command 'frobnicate'" || return 1
    run "$CS" --version && expect_rc 0 && expect_out "cybershake 0." || return 1
    for sub in init migrate info import-sites sites; do
        run "$CS" db "$sub" --help && expect_rc 0 && expect_out "usage: cybershake db $sub" || return 1
    done
    run "$CS" db --help && expect_rc 0 && expect_out "import-sites" || return 1
}

t_bad_usage_is_exit_2() {
    run "$CS" db init && expect_rc 2 && expect_err "expects one argument" || return 1
    run "$CS" db import-sites only-one && expect_rc 2 && expect_err "expects two arguments" || return 1
    run "$CS" db init x.sqlite --schema-version 99 && expect_rc 2 && expect_err "--schema-version" || return 1
    run "$CS" db sites x.sqlite --bogus && expect_rc 2 || return 1
}

t_roundtrip_all_11_sites() {
    run "$CS" db init s.sqlite && expect_rc 0 || return 1
    run "$CS" db import-sites s.sqlite "$REPO/sites/cybershake_sites.csv" && expect_rc 0 &&
        expect_out "imported 11 sites" || return 1
    run "$CS" db sites s.sqlite --csv && expect_rc 0 || return 1
    # Every site of the reference list comes back with its coordinates to 1e-6 degrees.
    python3 - "$REPO/sites/cybershake_sites.csv" "$T/out" <<'PY' || return 1
import csv, sys
def load(p):
    rows = [r for r in csv.reader(open(p)) if r and not r[0].startswith('#')]
    h = rows[0]
    return {r[h.index('short_name')]: (float(r[h.index('latitude')]), float(r[h.index('longitude')]), r[h.index('long_name')]) for r in rows[1:]}
a, b = load(sys.argv[1]), load(sys.argv[2])
assert len(a) == 11 and set(a) == set(b), (sorted(a), sorted(b))
for k in a:
    assert abs(a[k][0] - b[k][0]) <= 1e-6 and abs(a[k][1] - b[k][1]) <= 1e-6, (k, a[k], b[k])
    assert a[k][2] == b[k][2], (a[k][2], b[k][2])
PY
    # The exported CSV imports into a fresh study as the same sites.
    cp "$T/out" export.csv
    run "$CS" db init t.sqlite && run "$CS" db import-sites t.sqlite export.csv && expect_rc 0 &&
        expect_out "imported 11 sites" || return 1
    run "$CS" db sites t.sqlite && expect_out "11 sites" && expect_out "Pioneertown" || return 1
    # names longer than the columns' headers keep the table aligned: every row as long as the header
    printf 'short_name,long_name,latitude,longitude\nLONGSITENAME1234,%s,34.1,-118.2\n' \
        "A site whose long name is longer than forty characters" >long.csv
    run "$CS" db import-sites t.sqlite long.csv && expect_out "imported 1 site (" || return 1
    run "$CS" db sites t.sqlite && expect_out "12 sites" || return 1
    [ "$(head -n -1 "$T/out" | awk '{ print length }' | sort -u | wc -l)" = 1 ] ||
        { echo "    db sites columns misaligned" >&2; head -3 "$T/out" >&2; return 1; }
}

t_bad_sites_exit_1_with_file_line() {
    "$CS" db init s.sqlite >/dev/null || return 1
    printf 'short_name,latitude,longitude\nAAA,34,-118\nBBB,134,-118\n' >bad.csv
    run "$CS" db import-sites s.sqlite bad.csv && expect_rc 1 &&
        expect_err "bad.csv:3: latitude = '134'" || return 1
    run "$CS" db sites s.sqlite && expect_out "0 sites" || return 1
    run "$CS" db import-sites s.sqlite missing.csv && expect_rc 1 && expect_err "missing.csv" || return 1
    run "$CS" db import-sites nostudy.sqlite bad.csv && expect_rc 1 &&
        expect_err "cybershake db init nostudy.sqlite" || return 1
    # a name every command would take for an option
    printf 'short_name,latitude,longitude\n-X,34,-118\n' >dash.csv
    run "$CS" db import-sites s.sqlite dash.csv && expect_rc 1 &&
        expect_err "dash.csv:2" && expect_err "must not start with '-'" || return 1
}

t_init_refuses_existing_study() {
    "$CS" db init s.sqlite >/dev/null || return 1
    run "$CS" db init s.sqlite && expect_rc 1 && expect_err "already exists" || return 1
}

# A kill -9 in the middle of an import leaves the database exactly as it was.
t_kill9_during_import_changes_nothing() {
    "$CS" db init s.sqlite >/dev/null || return 1
    "$CS" db import-sites s.sqlite "$REPO/sites/demo/sites.csv" >/dev/null || return 1
    sqlite3 s.sqlite .dump >before.sql || return 1
    python3 -c "
print('short_name,latitude,longitude')
for i in range(5000): print(f'S{i},{30 + i * 1e-3:.6f},-118')" >many.csv
    CYBERSHAKE_FAULT_PAUSE_AFTER_ROWS=2500 "$CS" db import-sites s.sqlite many.csv 2>pause.err &
    pid=$!
    n=0
    until grep -q "paused inside the import transaction" pause.err 2>/dev/null; do
        n=$((n + 1))
        [ $n -gt 300 ] && { kill -9 $pid; echo "    import never paused" >&2; return 1; }
        sleep 0.1
    done
    kill -9 $pid
    wait $pid 2>/dev/null
    [ "$(sqlite3 s.sqlite 'PRAGMA integrity_check')" = ok ] || return 1
    sqlite3 s.sqlite .dump >after.sql || return 1
    cmp -s before.sql after.sql || { diff before.sql after.sql | head >&2; return 1; }
    # And the same import afterwards goes through whole.
    run "$CS" db import-sites s.sqlite many.csv && expect_out "imported 5000 sites" || return 1
}

# An older schema file (version 1, as written by a release before workflow tables existed) is
# upgraded in place with its rows kept.
t_migrate_older_schema_file() {
    sqlite3 old.sqlite <"$REPO/tests/data/study_schema_v1.sql" || return 1
    run "$CS" db sites old.sqlite && expect_rc 1 && expect_err "cybershake db migrate" || return 1
    run "$CS" db migrate old.sqlite && expect_rc 0 && expect_out "schema version 1 -> 10" || return 1
    run "$CS" db sites old.sqlite && expect_out "OLDSITE" && expect_out "1 site" || return 1
    [ "$(sqlite3 old.sqlite 'SELECT count(*) FROM PeakAmplitudes')" = 3 ] || return 1
    [ "$(sqlite3 old.sqlite 'SELECT count(*) FROM Files')" = 0 ] || return 1
    [ "$(sqlite3 old.sqlite "SELECT count(*) FROM pragma_table_info('ERF_IDs') WHERE name = 'Time_Span_Years'")" = 1 ] || return 1
    [ "$(sqlite3 old.sqlite "SELECT count(*) FROM pragma_table_info('Hazard_Curves') WHERE name = 'Site_ID'")" = 1 ] || return 1
    [ "$(sqlite3 old.sqlite "SELECT count(*) FROM Workflow_Runs")" = 0 ] || return 1
    # forecast points in one B-tree (version 8): no rowid, the key's columns, no second index
    sqlite3 old.sqlite "SELECT rowid FROM Points" >/dev/null 2>&1 && return 1
    [ "$(sqlite3 old.sqlite "SELECT count(*) FROM sqlite_master WHERE tbl_name = 'Points' AND type = 'index'")" = 0 ] || return 1
    # each run's files (version 9): a table of its own
    [ "$(sqlite3 old.sqlite "SELECT count(*) FROM Run_Files")" = 0 ] || return 1
    # the sites' basin depths (version 10): two nullable columns, the old site's unknown
    [ "$(sqlite3 old.sqlite "SELECT count(*) FROM pragma_table_info('CyberShake_Sites') WHERE name IN ('Z1_0', 'Z2_5')")" = 2 ] || return 1
    [ "$(sqlite3 old.sqlite "SELECT count(*) FROM CyberShake_Sites WHERE Z1_0 IS NULL AND Z2_5 IS NULL")" = 1 ] || return 1
    run "$CS" db migrate old.sqlite && expect_out "already at schema version 10" || return 1
    run "$CS" db info old.sqlite && expect_out "schema version: 10" || return 1
}

# The read-only commands (db info, db sites, status) open the study read only: they work where
# its folder and file cannot be written (here as the user nobody, whom the modes stop where
# root's would not: a read-write open failed with "attempt to write a readonly database"), and
# make no -wal, -shm or -journal file and change nothing, there or in a writable folder.
study_state() { # bytes' checksum, mtime and the files beside the study
    echo "$(sha256sum "$1" | cut -d' ' -f1) $(stat -c %Y.%y "$1") $(ls -a "$(dirname "$1")" | tr '\n' ' ')"
}
t_read_only_study_is_read() {
    mkdir ro rw && "$CS" db init rw/s.sqlite >/dev/null &&
        "$CS" db import-sites rw/s.sqlite "$REPO/sites/demo/sites.csv" >/dev/null && cp rw/s.sqlite ro/ || return 1
    for study in rw/s.sqlite; do # writable: as this user
        before=$(study_state $study)
        run "$CS" db info $study && expect_rc 0 && expect_out "schema version: 10" || return 1
        run "$CS" db sites $study && expect_rc 0 && expect_out "1 site" || return 1
        run "$CS" status $study && expect_rc 0 && expect_out "no workflow runs" || return 1
        # a name that is no site of the study is an error, not "no workflow runs"
        run "$CS" status $study NOSUCHSITE && expect_rc 1 && expect_err "no such site" || return 1
        # and so is a number that is no run of it
        run "$CS" status $study 99 && expect_rc 1 && expect_err "run = '99': no such workflow run" || return 1
        [ "$(study_state $study)" = "$before" ] || { echo "    $before -> $(study_state $study)" >&2; return 1; }
    done
    chmod 444 ro/s.sqlite && chmod 555 ro || return 1
    as=""
    if [ "$(id -u)" = 0 ]; then
        command -v runuser >/dev/null && id nobody >/dev/null 2>&1 || { skip "root without runuser or the user nobody"; return; }
        chmod 755 "$T_ROOT" "$T" || return 1
        runuser -u nobody -- "$CS" --version >/dev/null 2>&1 || { skip "the user nobody cannot run $CS"; return; }
        as="runuser -u nobody --"
    fi
    before=$(study_state ro/s.sqlite)
    run $as "$CS" db info ro/s.sqlite
    expect_rc 0 && expect_out "schema version: 10" && expect_out "CyberShake_Sites                   1 rows" || return 1
    run $as "$CS" db sites ro/s.sqlite && expect_rc 0 && expect_out "1 site" || return 1
    run $as "$CS" status ro/s.sqlite DEMO && expect_rc 0 && expect_out "no workflow runs for DEMO" || return 1
    [ "$(study_state ro/s.sqlite)" = "$before" ] || { echo "    $before -> $(study_state ro/s.sqlite)" >&2; return 1; }
    # a command that writes says so
    run $as "$CS" db import-sites ro/s.sqlite "$REPO/sites/demo/sites.csv"
    chmod 755 ro
    expect_rc 1 && expect_err "readonly database"
}

# A study whose schema is newer than this toolkit knows was made by a newer version: every
# command says so (db migrate included, which cannot go there), none tells to migrate it.
t_newer_schema_is_named() {
    "$CS" db init s.sqlite >/dev/null || return 1
    sqlite3 s.sqlite "INSERT INTO Schema_Version VALUES (99, 'from the future', '2030-01-01T00:00:00Z', '9.0')" || return 1
    for cmd in "db sites" "status" "db migrate" "db import-sites"; do
        extra=""
        [ "$cmd" = "db import-sites" ] && extra="$REPO/sites/demo/sites.csv"
        # shellcheck disable=SC2086
        run "$CS" $cmd s.sqlite $extra
        expect_rc 1 && expect_err "s.sqlite: schema version = '99': is newer than the 10 this cybershake" &&
            expect_err "made by a newer version of the toolkit" || { echo "    ($cmd)" >&2; return 1; }
        if grep -q "upgrade it with" "$T/err"; then echo "    $cmd tells to migrate" >&2; return 1; fi
    done
    run "$CS" db info s.sqlite && expect_rc 0 && expect_out "schema version: 99 (newest known: 10)"
}

tcase help_and_exit_codes t_help_and_exit_codes
tcase bad_usage_is_exit_2 t_bad_usage_is_exit_2
tcase roundtrip_all_11_sites t_roundtrip_all_11_sites
tcase bad_sites_exit_1_with_file_line t_bad_sites_exit_1_with_file_line
tcase init_refuses_existing_study t_init_refuses_existing_study
tcase kill9_during_import_changes_nothing t_kill9_during_import_changes_nothing
tcase migrate_older_schema_file t_migrate_older_schema_file
tcase read_only_study_is_read t_read_only_study_is_read
tcase newer_schema_is_named t_newer_schema_is_named
tsummary
