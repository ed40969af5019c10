#!/bin/sh
# The code's structure, checked on the built tree: the layers the Makefile declares (no cycle,
# includes and symbols within them, exported names with their layer's prefixes) and the build's
# dependencies (touching a header rebuilds every object that includes it, CUDA included).
. "$(dirname "$0")/lib.sh"
py=/usr/bin/python3
[ -x "$py" ] || py=python3

layers_kept() {
    run "$py" "$REPO/tools/check_layers.py" --repo "$REPO"
    expect_rc 0 && expect_out "layers kept"
}

# The check fails on what it is there to catch: a cycle in the table, and a library that reaches
# a folder it does not use (hazard's study queries read the forecast's tables in erf/).
layers_violations_caught() {
    run "$py" "$REPO/tools/check_layers.py" --repo "$REPO" --uses common=sgt
    expect_rc 1 && expect_out "the layer table has a cycle: common -> sgt -> common" || return 1
    run "$py" "$REPO/tools/check_layers.py" --repo "$REPO" --uses hazard=common,formats,db
    expect_rc 1 && expect_out "hazard/hazard_db.c: uses" && expect_out "includes erf/erf_db.h"
}

header_touch_rebuilds_includers() {
    run "$py" "$REPO/tools/check_build_deps.py" --repo "$REPO"
    expect_rc 0 && expect_out "touching each rebuilds every object that includes it"
}

# Without the CUDA object's dependency file (as before nvcc wrote one), the check fails: the
# header sgt_q.h sizes arrays in sgt_state that the kernels use.
cuda_object_tracks_headers() {
    d="$REPO/build/obj/sgt/sgt_cuda.d"
    if [ ! -f "$d" ]; then
        echo "no CUDA object in this build (no nvcc)" >"$T/skip"
        return 77
    fi
    run "$py" "$REPO/tools/check_build_deps.py" --repo "$REPO" --headers sgt/sgt_q.h sgt/sgt_comm.h sgt/sgt_absorb.h
    expect_rc 0 || return 1
    mv "$d" "$T/saved.d"
    run "$py" "$REPO/tools/check_build_deps.py" --repo "$REPO" --headers sgt/sgt_q.h
    rc=$RC
    mv "$T/saved.d" "$d"
    RC=$rc
    expect_rc 1 && expect_out "sgt/sgt_q.h: touching it does not rebuild build/obj/sgt/sgt_cuda.o"
}

tcase layers_kept layers_kept
tcase layers_violations_caught layers_violations_caught
tcase header_touch_rebuilds_includers header_touch_rebuilds_includers
tcase cuda_object_tracks_headers cuda_object_tracks_headers
tsummary
