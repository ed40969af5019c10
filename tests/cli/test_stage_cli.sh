#!/bin/sh
# Staging through libcurl against a real HTTP server on 127.0.0.1 (tests/workflow/http_server.py,
# which fails on purpose where asked): checksums, resumed transfers (HTTP ranges), retries with
# backoff on 5xx and stalls, redirects to another scheme refused, pushes with their checksum; and
# a workflow run whose model comes from a URL and whose products are pushed to one.
. "$(dirname "$0")/lib.sh"
. "$REPO/tests/workflow/small_site.sh"
SRV="$T_ROOT/server"
mkdir -p "$SRV/files"
"$PY" "$REPO/tests/workflow/http_server.py" "$SRV/files" "$SRV/port" &
SRV_PID=$!
trap 'kill $SRV_PID 2>/dev/null' EXIT
i=0
until [ -f "$SRV/port" ]; do i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.1; done
BASE="http://127.0.0.1:$(cat "$SRV/port")"
# a 3 MB payload, so a transfer cut in half leaves something to resume
head -c 3000000 /dev/urandom >"$SRV/files/payload.bin"
SUM=$(sha256sum "$SRV/files/payload.bin" | cut -d' ' -f1)
FAST="--retry-delay 0.05"

server_log() { "$PY" -c "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())" "$BASE/_log"; }

requests() { # requests the server saw for a path: "METHOD STATUS RANGE" per line
    server_log | "$PY" -c "import json,sys; [print(r['method'], r['status'], r['range'] or '-') for r in json.load(sys.stdin) if r['path'] == sys.argv[1]]" "$1"
}

if_ranges() { # the If-Range headers the server saw for a path, one a line ("-" for none)
    server_log | "$PY" -c "import json,sys; [print(r['if_range'] or '-') for r in json.load(sys.stdin) if r['path'] == sys.argv[1]]" "$1"
}

same_as_payload() { cmp -s "$1" "$SRV/files/payload.bin" || { echo "    $1 differs from the payload" >&2; return 1; }; }

t_fetch_checks_the_checksum() {
    run "$CS" stage fetch "$BASE/payload.bin" got.bin --sha256 "$SUM"
    expect_rc 0 && expect_out "SHA-256 $SUM" && same_as_payload got.bin || return 1
    [ ! -e got.bin.part ] || return 1
    bad=$(echo "$SUM" | tr '0-9a-f' 'a-f0-9')
    run "$CS" stage fetch "$BASE/payload.bin" bad.bin --sha256 "$bad"
    expect_rc 1 && expect_err "differs from the $bad it must have" || return 1
    [ ! -e bad.bin ] && [ ! -e bad.bin.part ]
}

t_cut_transfer_resumes_with_a_range() {
    run "$CS" stage fetch "$BASE/cut/payload.bin" got.bin --sha256 "$SUM" $FAST
    expect_rc 0 && same_as_payload got.bin || return 1
    requests /cut/payload.bin >req
    [ "$(sed -n 1p req)" = "GET 200 -" ] && [ "$(sed -n 2p req)" = "GET 206 bytes=1500000-" ] ||
        { sed 's/^/    request: /' req >&2; return 1; }
    # the range was asked for the same file only: If-Range with the first answer's ETag
    [ "$(if_ranges /cut/payload.bin | sed -n 2p)" = "\"$(echo "$SUM" | cut -c1-16)\"" ] || return 1
    [ ! -e got.bin.part ] && [ ! -e got.bin.part.validator ]
}

# A server that answers a range request with the whole file (200): the part starts over from
# that answer, in the same attempt.
t_server_without_ranges_starts_over() {
    run "$CS" stage fetch "$BASE/cutnorange/payload.bin" got.bin --sha256 "$SUM" $FAST
    expect_rc 0 && same_as_payload got.bin || return 1
    [ "$(requests /cutnorange/payload.bin | tr '\n' ' ')" = "GET 200 - GET 200 bytes=1500000- " ]
}

# A DEST.part left by something else (no validator beside it) is never continued: without a
# checksum it would have become a spliced file with exit 0.
t_stale_part_without_validator_starts_over() {
    cp "$SRV/files/payload.bin" "$SRV/files/stale.bin"
    head -c 1000 /dev/zero >got.bin.part
    run "$CS" stage fetch "$BASE/stale.bin" got.bin
    expect_rc 0 && same_as_payload got.bin || return 1
    [ "$(requests /stale.bin | tr '\n' ' ')" = "GET 200 - " ] && [ ! -e got.bin.part ]
}

# The file changed between an interrupted attempt and the next: the server answers the
# If-Range request with the new file whole (200), which replaces the part.
t_file_changed_between_attempts_starts_over() {
    head -c 2000000 /dev/urandom >"$SRV/files/changing.bin.v2"
    cp "$SRV/files/payload.bin" "$SRV/files/changing.bin"
    run "$CS" stage fetch "$BASE/cutchange/changing.bin" got.bin $FAST
    expect_rc 0 || return 1
    cmp -s got.bin "$SRV/files/changing.bin.v2" || { echo "    got.bin is not the new file whole" >&2; return 1; }
    [ "$(requests /cutchange/changing.bin | tr '\n' ' ')" = "GET 200 - GET 200 bytes=1500000- " ] || return 1
    [ "$(if_ranges /cutchange/changing.bin | sed -n 2p)" != - ]
}

# A server that ignores If-Range and sends the rest of another file (206 with another ETag):
# the answer is refused and the fetch starts over.
t_range_of_another_file_is_refused() {
    head -c 2000000 /dev/urandom >"$SRV/files/liar.bin.v2"
    cp "$SRV/files/payload.bin" "$SRV/files/liar.bin"
    run "$CS" stage fetch "$BASE/cutchangeliar/liar.bin" got.bin $FAST
    expect_rc 0 || return 1
    cmp -s got.bin "$SRV/files/liar.bin.v2" || { echo "    got.bin is spliced" >&2; return 1; }
    [ "$(requests /cutchangeliar/liar.bin | tr '\n' ' ')" = "GET 200 - GET 206 bytes=1500000- GET 200 - " ]
}

# Without an ETag or Last-Modified date nothing proves the rest is of the same file: the next
# attempt starts from zero.
t_cut_without_validator_starts_over() {
    run "$CS" stage fetch "$BASE/cutnovalidator/payload.bin" got.bin $FAST
    expect_rc 0 && same_as_payload got.bin || return 1
    [ "$(requests /cutnovalidator/payload.bin | tr '\n' ' ')" = "GET 200 - GET 200 - " ]
}

# A trickle (400 B/s) is a stall: slower than --min-speed for --timeout seconds, abandoned.
t_trickle_below_min_speed_is_abandoned() {
    run "$CS" stage fetch "$BASE/trickle/payload.bin" got.bin --min-speed 100000 --timeout 1 --retries 0
    expect_rc 1 && expect_err "Operation too slow" && expect_err "after 1 attempt:" || return 1
    [ ! -e got.bin ]
}

# --deadline bounds the whole fetch, retries included: a trickle that would take two hours
# (and is never slow enough for --min-speed 1) fails, naming the deadline.
t_deadline_bounds_the_whole_fetch() {
    run "$CS" stage fetch "$BASE/trickle/payload.bin" got.bin --min-speed 1 --deadline 2 $FAST
    expect_rc 1 && expect_err "deadline" && expect_err "not fetched within 2 s" || return 1
    [ ! -e got.bin ]
}

# A fetch that fails before any byte leaves no DEST.part; its messages read right.
t_failed_fetch_leaves_no_part() {
    run "$CS" stage fetch "$BASE/missing-too.bin" m.bin $FAST
    expect_rc 1 && expect_err "HTTP 404" || return 1
    run "$CS" stage fetch "$BASE/flaky/9/payload.bin" f.bin --retries 1 $FAST
    expect_rc 1 && expect_err "after 2 attempts" || return 1
    run "$CS" stage fetch "$BASE/empty/payload.bin" e.bin --retries 0
    expect_rc 1 && expect_err "after 1 attempt: Empty reply from server" || return 1
    if grep -q "server0" "$T/err"; then echo "    'server0' in the message" >&2; return 1; fi
    run "$CS" stage fetch "$BASE/payload.bin" no-such-folder/x.bin
    expect_rc 1 && expect_err "no-such-folder/x.bin.part: cannot write the download" || return 1
    if grep -q "cannot cannot" "$T/err"; then echo "    'cannot cannot' in the message" >&2; return 1; fi
    ls ./*.part ./*.validator 2>/dev/null && return 1
    return 0
}

t_5xx_is_retried_with_backoff() {
    run "$CS" stage fetch "$BASE/flaky/2/payload.bin" got.bin --sha256 "$SUM" $FAST
    expect_rc 0 && same_as_payload got.bin && expect_err "HTTP 503; 0 bytes kept, again in 0.1 s" || return 1
    [ "$(requests /flaky/2/payload.bin | cut -d' ' -f2 | tr '\n' ' ')" = "503 503 200 " ] || return 1
    run "$CS" stage fetch "$BASE/flaky/9/payload.bin" never.bin --retries 2 $FAST
    expect_rc 1 && expect_err "cannot be fetched after 3 attempts" && expect_err "HTTP 503" || return 1
    [ ! -e never.bin ]
}

t_stalled_transfer_times_out_and_resumes() {
    run "$CS" stage fetch "$BASE/stall/payload.bin" got.bin --sha256 "$SUM" --timeout 1 $FAST
    expect_rc 0 && same_as_payload got.bin && expect_err "Operation too slow" || return 1
    [ "$(requests /stall/payload.bin | sed -n 2p)" = "GET 206 bytes=1500000-" ]
}

t_not_found_is_not_retried() {
    run "$CS" stage fetch "$BASE/missing.bin" m.bin $FAST
    expect_rc 1 && expect_err "HTTP 404" || return 1
    [ "$(requests /missing.bin | wc -l)" = 1 ]
}

t_redirects_keep_their_scheme() {
    run "$CS" stage fetch "$BASE/redirect-file/payload.bin" r.bin $FAST
    expect_rc 1 && expect_err "refused" || return 1
    [ ! -e r.bin ] || return 1
    run "$CS" stage fetch "$BASE/redirect-same/payload.bin" same.bin --sha256 "$SUM"
    expect_rc 0 && same_as_payload same.bin
}

t_file_urls_are_fetched() {
    run "$CS" stage fetch "file://$SRV/files/payload.bin" f.bin --sha256 "$SUM"
    expect_rc 0 && same_as_payload f.bin
}

t_push_sends_the_checksum() {
    head -c 100000 /dev/urandom >product.h5
    sum=$(sha256sum product.h5 | cut -d' ' -f1)
    run "$CS" stage push product.h5 "$BASE/put-fail/1/out/product.h5" $FAST
    expect_rc 0 && expect_err "HTTP 500" || return 1
    cmp -s product.h5 "$SRV/files/out/product.h5" || return 1
    [ "$(cat "$SRV/files/out/product.h5.sha256")" = "$sum  product.h5" ] || return 1
    server_log | grep -q "\"sha256\": \"$sum\""
}

t_workflow_stages_its_model_and_pushes_products() {
    make_study || return 1
    cp "$MODEL" "$SRV/files/model.fk1d"
    msum=$(sha256sum "$MODEL" | cut -d' ' -f1)
    make_config "model_file = $BASE/cut/model.fk1d" "model_sha256 = $msum" "push_url = $BASE/products" \
        "hazard_ims = RotD50 5" "poes = 2% in 50 yr"
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 0 && expect_out "[1/11] stage: running" && expect_out "[11/11] push: running" || return 1
    cmp -s "$MODEL" runs/DEMO/run-1/inputs/model.fk1d || return 1
    for f in seismograms.h5 curve_RotD50_5.csv curve_RotD50_5.png disagg_RotD50_5_2pct_in_50_yr.png; do
        got="$SRV/files/products/DEMO/run-1/$f"
        [ -f "$got" ] || { echo "    $f was not pushed" >&2; return 1; }
        [ "$(cut -d' ' -f1 "$got.sha256")" = "$(sha256sum "$got" | cut -d' ' -f1)" ] || return 1
    done
    [ "$(sqlite3 s.sqlite "SELECT SHA256 FROM Files WHERE Kind = 'input'")" = "$msum" ]
}

t_url_without_checksum_is_refused() {
    make_config "model_file = $BASE/model.fk1d"
    run "$CS" run DEMO --study nowhere.sqlite --config run.cfg
    expect_rc 1 && expect_err "a URL needs the SHA-256 it must have (model_sha256)"
}

# Commands that read an input take a URL for it, with '#sha256=HEX' for its checksum.
t_inputs_given_as_urls() {
    export CYBERSHAKE_STAGE_DIR="$PWD/stage"
    mkdir -p "$SRV/files/erf" && (cd "$SRV/files/erf" && "$PY" "$REPO/tests/cli/small_forecast.py") || return 1
    "$CS" db init s.sqlite >/dev/null || return 1
    urls=""
    for f in 1_0 1_1 2_0 2_1; do
        urls="$urls $BASE/erf/$f.txt#sha256=$(sha256sum "$SRV/files/erf/$f.txt" | cut -d' ' -f1)"
    done
    # shellcheck disable=SC2086
    run "$CS" erf import-geometry s.sqlite --name t $urls
    expect_rc 0 && expect_out "imported 4 ruptures" || return 1
    [ -f stage/2_1.txt ] || return 1
    run "$CS" erf import-geometry s.sqlite --name u "$BASE/erf/1_0.txt#sha256=$(printf '0%.0s' $(seq 64))"
    expect_rc 1 && expect_err "differs from the 0000" || return 1
    cp "$REPO/tests/data/bbp_gp_m5.89-0.20x0.20_s2379646.srf" "$SRV/files/gp.srf" || return 1
    run "$CS" erf srf-info "$BASE/flaky/1/gp.srf"
    expect_rc 0 && expect_out "SRF 2.0" || return 1
    cp "$MODEL" "$SRV/files/m.fk1d"
    "$CS" db import-sites s.sqlite "$REPO/sites/demo/sites.csv" >/dev/null || return 1
    run "$CS" plan s.sqlite DEMO --erf t --fmax 0.2 --vs-min 1000 --model-format fk1d \
        --model-file "$BASE/m.fk1d#sha256=$(sha256sum "$MODEL" | cut -d' ' -f1)" --out plan \
        --cutoff 30 --padding 3 --round 1 --absorbing-width 10 --mesh-near 2 --mesh-max-stride 4
    expect_rc 0 && grep -q "model_file = $PWD/stage/m.fk1d" plan/DEMO.sgt.params
}

tcase fetch_checks_the_checksum t_fetch_checks_the_checksum
tcase inputs_given_as_urls t_inputs_given_as_urls
tcase cut_transfer_resumes_with_a_range t_cut_transfer_resumes_with_a_range
tcase server_without_ranges_starts_over t_server_without_ranges_starts_over
tcase stale_part_without_validator_starts_over t_stale_part_without_validator_starts_over
tcase file_changed_between_attempts_starts_over t_file_changed_between_attempts_starts_over
tcase range_of_another_file_is_refused t_range_of_another_file_is_refused
tcase cut_without_validator_starts_over t_cut_without_validator_starts_over
tcase trickle_below_min_speed_is_abandoned t_trickle_below_min_speed_is_abandoned
tcase deadline_bounds_the_whole_fetch t_deadline_bounds_the_whole_fetch
tcase failed_fetch_leaves_no_part t_failed_fetch_leaves_no_part
tcase 5xx_is_retried_with_backoff t_5xx_is_retried_with_backoff
tcase stalled_transfer_times_out_and_resumes t_stalled_transfer_times_out_and_resumes
tcase not_found_is_not_retried t_not_found_is_not_retried
tcase redirects_keep_their_scheme t_redirects_keep_their_scheme
tcase file_urls_are_fetched t_file_urls_are_fetched
tcase push_sends_the_checksum t_push_sends_the_checksum
tcase url_without_checksum_is_refused t_url_without_checksum_is_refused
tcase workflow_stages_its_model_and_pushes_products t_workflow_stages_its_model_and_pushes_products
tsummary
