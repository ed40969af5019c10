#!/bin/sh
# The code's structure, checked on the built tree: the layers the Makefile declares (no cycle,
# includes and symbols within them, commands included, exported names with their layer's
# prefixes), no cycle between the folders' actual dependencies (includes and symbols), and the
# build's dependencies (touching a header rebuilds every object that includes it, CUDA included).
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

# A new dependency that closes a cycle between folders fails the check even where the table is
# edited to allow it: db's command once offered hazard's disaggregation (hazard uses db), and a
# stage's command that included the dispatcher's header would close stage -> cli -> stage.
new_folder_cycle_caught() {
    run "$py" "$REPO/tools/check_layers.py" --repo "$REPO" --uses db=common,hazard --edge db=hazard
    expect_rc 1 && expect_out "a cycle between folders: " && expect_out "--edge db=hazard" || return 1
    run "$py" "$REPO/tools/check_layers.py" --repo "$REPO" --edge erf=cli
    expect_rc 1 && expect_out "a cycle between folders: " && expect_out "--edge erf=cli"
}

header_touch_rebuilds_includers() {
    run "$py" "$REPO/tools/check_build_deps.py" --repo "$REPO"
    expect_rc 0 && expect_out "touching each rebuilds every object that includes it"
}

# Without the CUDA objects' dependency files (as before nvcc wrote them, with header lists
# written by hand in the Makefile), the check fails: the header sgt_q.h sizes arrays in
# sgt_state that the kernels use, synth_gpu.h is the extractor's device interface.
cuda_object_tracks_headers() {
    d="$REPO/build/obj/sgt/sgt_cuda.d"
    e="$REPO/build/obj/extract/synth_gpu.d"
    if [ ! -f "$d" ] || [ ! -f "$e" ]; then
        echo "no CUDA object in this build (no nvcc)" >"$T/skip"
        return 77
    fi
    run "$py" "$REPO/tools/check_build_deps.py" --repo "$REPO" --headers sgt/sgt_q.h sgt/sgt_comm.h sgt/sgt_absorb.h extract/synth_gpu.h common/cs_cuda_check.h
    expect_rc 0 || return 1
    mv "$d" "$T/saved.d"
    mv "$e" "$T/saved_synth.d"
    run "$py" "$REPO/tools/check_build_deps.py" --repo "$REPO" --headers sgt/sgt_q.h extract/synth_gpu.h
    rc=$RC
    mv "$T/saved.d" "$d"
    mv "$T/saved_synth.d" "$e"
    RC=$rc
    expect_rc 1 && expect_out "sgt/sgt_q.h: touching it does not rebuild build/obj/sgt/sgt_cuda.o" &&
        expect_out "extract/synth_gpu.h: touching it does not rebuild build/obj/extract/synth_gpu.o"
}

# The GPU targets come from CUDA_ARCH alone, for every CUDA object (the solver's in both builds,
# the extractor's).
cuda_arch_from_one_variable() {
    if [ ! -f "$REPO/build/obj/sgt/sgt_cuda.d" ]; then
        echo "no CUDA object in this build (no nvcc)" >"$T/skip"
        return 77
    fi
    run make --no-print-directory -C "$REPO" -n -B CUDA_ARCH="sm_80 sm_100" build/obj/sgt/sgt_cuda.o build/obj/extract/synth_gpu.o build/sgt-only/obj/sgt/sgt_cuda.o
    expect_rc 0 || return 1
    n=$(grep -c -- '-gencode=arch=compute_80,code=\[sm_80,compute_80\] -gencode=arch=compute_100,code=\[sm_100,compute_100\]' "$T/out")
    if [ "$n" != 3 ] || grep -q 'sm_90' "$T/out"; then
        echo "    expected the targets of CUDA_ARCH on the 3 nvcc lines, got $n:" >&2
        grep -- nvcc "$T/out" | head -3 >&2
        return 1
    fi
}

tcase layers_kept layers_kept
tcase layers_violations_caught layers_violations_caught
tcase new_folder_cycle_caught new_folder_cycle_caught
tcase header_touch_rebuilds_includers header_touch_rebuilds_includers
tcase cuda_object_tracks_headers cuda_object_tracks_headers
tcase cuda_arch_from_one_variable cuda_arch_from_one_variable
tsummary
