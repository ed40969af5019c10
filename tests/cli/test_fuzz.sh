#!/bin/sh
# The short fuzz run: every harness of tests/fuzz/ replays its regressions and seeds, then runs a
# fixed number of mutated inputs under AddressSanitizer, UndefinedBehaviorSanitizer and the leak
# checker (build/fuzz/bin/cs_fuzz, made by `make fuzz-build`). The counts are fixed, not a time
# budget, so every machine runs the same inputs; about a minute in all on two shared cores. A
# crash names the input it saved (build/fuzz/crashes/); `make fuzz` runs the long campaign.
. "$(dirname "$0")/lib.sh"
FUZZ="$REPO/build/fuzz/bin/cs_fuzz"

# Inputs per harness: the text parsers are cheap; each HDF5 input edits and rereads a file.
fuzz_case() { # HARNESS ITERATIONS
    run "$FUZZ" --repo "$REPO" --crashes "$REPO/build/fuzz/crashes" --seed 1 --iterations "$2" "$1"
    cat "$T/out"
    expect_rc 0 && expect_out "fuzz_$1: " && expect_out ", 0 crashes" || {
        grep -E "^(SUMMARY|fuzz_)" "$T/err" | sed 's/^/    /' >&2
        return 1
    }
}

if [ ! -x "$FUZZ" ]; then
    make -s -C "$REPO" -j2 fuzz-build >/dev/null 2>&1 || echo "make fuzz-build failed" >&2
fi
fuzz_built() {
    [ -x "$FUZZ" ] || { echo "build/fuzz/bin/cs_fuzz is missing: make fuzz-build" >&2; return 1; }
}
tcase fuzz_built fuzz_built
for spec in params:3000 wf_config:3000 sites:3000 faults:3000 traces:2000 geometry:2000 \
    geometry_name:5000 area:3000 srf:3000 fk1d:3000 depth_table:3000 ucvm1d:3000 points:2000 \
    stf:3000 model_hdf5:300 material:300 sgt_set:300; do
    eval "t_fuzz_${spec%%:*}() { fuzz_case ${spec%%:*} ${spec#*:}; }"
    tcase "fuzz_${spec%%:*}" "t_fuzz_${spec%%:*}"
done
tsummary
