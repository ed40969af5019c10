#!/bin/sh
# `cybershake sgt` and `cybershake mesh` as a user runs them: help, checks before the first step
# with messages that name the value and what to change, shared material files, checksums, and a
# killed run that leaves nothing under the output's name.
. "$(dirname "$0")/lib.sh"

base() {
    cat <<'PAR'
mode = sgt
nx = 40
ny = 40
nz = 30
h = 100 m
dt = 0.008 s
nt = 40
model_format = homogeneous
vp = 3464 m/s
vs = 2000 m/s
rho = 2500 kg/m3
vs_min = 0 m/s
fmax = 2 Hz
absorbing_width = 10
source_i = 20
source_j = 20
source_k = 0
force_component = z
save_points = pts.txt
decimation = 2
output = out.h5
PAR
    printf '20 20 0\n25 22 8\n15 15 12\n' >pts.txt
}

t_help() {
    run "$CS" sgt --help && expect_rc 0 && expect_out "usage: cybershake sgt" || return 1
    run "$CS" mesh --help && expect_rc 0 && expect_out "usage: cybershake mesh" || return 1
    run "$CS" sgt --keys && expect_rc 0 && expect_out "| absorbing |" || return 1
    run "$CS" sgt && expect_rc 2 || return 1
    run "$CS" sgt a.par b.par && expect_rc 2 || return 1
}

t_runs_and_reports() {
    base >run.par
    run "$CS" sgt run.par && expect_rc 0 && expect_out "G LUPS" || return 1
    sha=$(sha256sum out.h5 | cut -d' ' -f1)
    grep -q "$sha" out || { echo "    printed checksum is not the file's" >&2; return 1; }
    [ "$(h5dump -d /strain -H out.h5 | grep -c 'DATASPACE  SIMPLE { ( 3, 6, 21 )')" = 1 ] || return 1
    # The same inputs give the same bytes.
    run "$CS" sgt run.par --set output=again.h5 && cmp -s out.h5 again.h5 || return 1
}

t_bad_key_names_line() {
    base >run.par
    echo "absorbng = pml" >>run.par
    run "$CS" sgt run.par && expect_rc 1 && expect_err "run.par:22" && expect_err "did you mean 'absorbing'" || return 1
    base | sed 's/^h = 100 m/h = 100/' >run.par
    run "$CS" sgt run.par && expect_rc 1 && expect_err "run.par:5" && expect_err "needs a unit" || return 1
}

# A velocity beyond any rock (a unit slip, 1e308) is refused with its line, never meshed as inf.
t_absurd_model_values_are_refused() {
    base | sed 's/^model_format = homogeneous/model_format = ucvm1d/; s/^vp = .*/model_file = m.ucvm1d/; /^vs = /d; /^rho = /d' >run.par
    printf '0 2.5\n1 1e308\n' >m.ucvm1d
    run "$CS" mesh run.par mat.h5 && expect_rc 1 && expect_err "m.ucvm1d:2" &&
        expect_err "at most 20 km/s" || return 1
    [ ! -e mat.h5 ] || return 1
    base | sed 's/^vp = .*/vp = 3e5 m\/s/' >run.par
    run "$CS" sgt run.par && expect_rc 1 || return 1
}

t_cfl_violation_names_node_and_fix() {
    base >run.par
    run "$CS" sgt run.par --set "dt=0.02 s" && expect_rc 1 && expect_err "dt = '0.02 s'" &&
        expect_err "vp = 3464.0 m/s at node" && expect_err "at most dt = 0.01429 s" || return 1
}

# The band-limited sampling's overshoot, as a user meets it: a soft layer over rock (vs 300 over
# 3000 m/s) is refused before meshing with the node and the rule to use; on a milder contrast
# the stability check reads the grid's vp (above the model's 6000 m/s next to the interface), so
# a step the cell averages accept is refused; the default (auto) then takes the cell averages.
t_bandlimited_overshoot() {
    base | sed 's/^model_format = homogeneous/model_format = depth-table/; s/^vp = .*/model_file = m.txt/; /^vs = /d; /^rho = /d' >run.par
    printf 'depth[m] vp[m/s] vs[m/s] rho[kg/m3]\n0 1500 300 1800\n1000 6000 3000 2700\n' >m.txt
    run "$CS" mesh run.par mat.h5 --set material_sampling=bandlimited --set "fmax=0.4 Hz" &&
        expect_rc 1 && expect_err "use material_sampling = effective" && expect_err "node (" || return 1
    [ ! -e mat.h5 ] || return 1
    run "$CS" mesh run.par mat.h5 --set material_sampling=effective --set "fmax=0.4 Hz" && expect_rc 0 || return 1
    printf 'depth[m] vp[m/s] vs[m/s] rho[kg/m3]\n0 4000 2000 2600\n1000 6000 3464 2700\n' >m.txt
    # dt vp / h = 0.48 at the model's 6000 m/s: within 0.495 for the cell averages, not for the
    # band-limited grid's 6340 m/s
    CYBERSHAKE_LOG=info run "$CS" sgt run.par --set "dt=0.008 s" --set "fmax=2 Hz" --set nt=2 \
        --set attenuation=false && expect_rc 0 || return 1
    # the default (auto) takes the band-limited kernel where the step allows it and the run is
    # elastic, and says which
    expect_err "material_sampling = auto: effective" && expect_err "dt = 0.008 s is not stable" ||
        return 1
    run "$CS" mesh run.par mat.h5 --set "fmax=2 Hz" --set "dt=0.0075 s" --set attenuation=false &&
        expect_rc 0 && expect_out "material_sampling = auto: bandlimited (fastest P speed 63" ||
        return 1
    run "$CS" mesh run.par mat.h5 --set "fmax=2 Hz" --set "dt=0.0075 s" && expect_rc 0 &&
        expect_out "auto: effective" && expect_out "for elastic runs" || return 1
    run "$CS" sgt run.par --set "dt=0.008 s" --set "fmax=2 Hz" --set nt=2 \
        --set material_sampling=bandlimited && expect_rc 1 && expect_err "stability (CFL)" &&
        expect_err "vp = 63" && expect_err "bandlimited with attenuation" || return 1
}

t_resolution_violation() {
    base >run.par
    run "$CS" sgt run.par --set "fmax=5 Hz" --set "dt=0.005 s" && expect_rc 1 &&
        expect_err "4.00 points per S wavelength" && expect_err "use h <= 80 m" || return 1
    run "$CS" sgt run.par --set decimation=30 && expect_rc 1 && expect_err "decimation = '30'" || return 1
    # exactly the required count passes: 2000 m/s / 8.333... Hz / 40 m is 6 (5.999999999999999
    # in floating point)
    run "$CS" sgt run.par --set "h=40 m" --set "dt=0.004 s" --set nt=2 \
        --set "fmax=8.333333333333334 Hz" --set min_points_per_wavelength=6 && expect_rc 0 || return 1
}

t_absorbing_thickness() {
    base >run.par
    run "$CS" sgt run.par --set "absorbing_thickness=1 km" && expect_rc 1 &&
        expect_err "not both" || return 1
    grep -v absorbing_width run.par >run2.par
    # 950 m at h = 100 m rounds up to 10 nodes; 1000 m is exactly 10
    for t in "950 m" "1 km"; do
        run "$CS" sgt run2.par --set "absorbing_thickness=$t" --set nt=2 && expect_rc 0 || return 1
        h5dump -a absorbing_width out.h5 | grep -q "(0): 10" || { echo "    width for $t" >&2; return 1; }
    done
}

t_points_outside_or_in_absorbing_layer() {
    base >run.par
    printf '20 20 0\n3 20 5\n' >pts.txt
    run "$CS" sgt run.par --set save_points=pts.txt && expect_rc 1 &&
        expect_err "pts.txt:2: save point = '3 20 5': lies in the absorbing layer" || return 1
    printf '20 20 0\n20 20 99\n' >pts.txt
    run "$CS" sgt run.par --set save_points=pts.txt && expect_rc 1 && expect_err "pts.txt:2" &&
        expect_err "outside the grid" || return 1
    base >run.par
    run "$CS" sgt run.par --set source_k=25 && expect_rc 1 && expect_err "source node" || return 1
    run "$CS" sgt run.par --set source=moment && expect_rc 1 && expect_err "an SGT run takes a force" || return 1
    printf '20 20 0\n' >rec.txt
    run "$CS" sgt run.par --set mode=forward --set receivers=rec.txt --set source=moment --set source_k=1 --set moment_xx="1 N*m" \
        --set moment_yy="1 N*m" --set moment_zz="1 N*m" --set moment_xy="0 N*m" \
        --set moment_xz="0 N*m" --set moment_yz="0 N*m" && expect_rc 1 &&
        expect_err "at least 2 nodes deep" || return 1
}

t_mesh_file_matches_direct_sampling() {
    base | sed 's/^model_format = homogeneous/model_format = fk1d/; s/^vp = .*/model_file = model.fk1d/; /^vs = /d; /^rho = /d' >run.par
    cp "$REPO/tests/data/bbp_nr02-vs500.fk1d" model.fk1d
    run "$CS" mesh run.par mat.h5 && expect_rc 0 && expect_out "floors raised vs at 0" &&
        expect_out "nodes from fk1d" || return 1
    run "$CS" sgt run.par --set "fmax=0.5 Hz" --set "dt=0.009 s" --set decimation=4 && expect_rc 0 || return 1
    mv out.h5 direct.h5
    run "$CS" sgt run.par --set "fmax=0.5 Hz" --set "dt=0.009 s" --set decimation=4 --set mesh_file=mat.h5 && expect_rc 0 || return 1
    h5diff -d 0 direct.h5 out.h5 /strain /strain >/dev/null || { echo "    strain differs" >&2; return 1; }
    h5dump -a material_sha256 out.h5 | grep -q "$(sha256sum mat.h5 | cut -c1-16)" || return 1
    # A mesh for another grid is refused.
    run "$CS" sgt run.par --set nx=41 --set mesh_file=mat.h5 && expect_rc 1 && expect_err "remake the mesh" || return 1
}

t_killed_run_leaves_no_output() {
    base >run.par
    "$CS" sgt run.par --set nt=4000 --set nx=80 --set ny=80 --set nz=60 --set source_i=40 --set source_j=40 >/dev/null 2>&1 &
    pid=$!
    sleep 2
    kill -9 $pid
    wait $pid 2>/dev/null
    [ ! -e out.h5 ] || { echo "    a killed run left out.h5" >&2; return 1; }
}

t_geographic_source_and_points() {
    # rotation 90 deg puts x east and y south; the box is centred on the origin, so the origin is
    # node (20, 20). 0.01 deg east at 34 N is 923 m (node 29.2), 0.004 deg south 444 m (24.4).
    base | sed -e '/^source_/d' -e '/^save_points/d' >run.par
    cat >>run.par <<'PAR'
origin_lon = -118 deg
origin_lat = 34 deg
rotation = 90 deg
source_lon = -118 deg
source_lat = 34 deg
source_depth = 0 m
save_points_geographic = geo.txt
PAR
    printf -- '-118 34 0\n# a comment\n-117.99 34 800\n-118 33.996 1200\n' >geo.txt
    run "$CS" sgt run.par --set nx=41 --set ny=41 && expect_rc 0 || return 1
    idx=$(h5dump -d /points/index out.h5 | tr -d ' \n' | grep -o 'DATA{.*}' | tr -d 'DATA{}')
    [ "$idx" = "(0,0):20,20,0,(1,0):29,20,8,(2,0):20,24,12" ] || { echo "    indices: $idx" >&2; return 1; }
    printf -- '-118 34 0\n-117.99 34\n' >geo.txt
    run "$CS" sgt run.par --set nx=41 --set ny=41 && expect_rc 1 && expect_err "geo.txt:2" || return 1
}

t_cuda_backend_without_device() {
    base >run.par
    run "$CS" sgt run.par --set backend=cuda && expect_rc 1 && expect_err "CUDA" || return 1
}

# The GPU's layout settings are checked before the device is looked for: a typo is named, not
# taken for another layout.
t_cuda_bad_layout_setting() {
    base >run.par
    run env CYBERSHAKE_GPU_ALIGN=2x "$CS" sgt run.par --set backend=cuda && expect_rc 1 &&
        expect_err "CYBERSHAKE_GPU_ALIGN" && expect_err "from 0 to 2" || return 1
    run env CYBERSHAKE_GPU_ZSHELL=yes "$CS" sgt run.par --set backend=cuda && expect_rc 1 &&
        expect_err "CYBERSHAKE_GPU_ZSHELL" || return 1
    run env CYBERSHAKE_GPU_ALIGN=2 "$CS" sgt run.par --set backend=cuda && expect_rc 1 &&
        expect_err "CUDA" || return 1
}

tcase help t_help
tcase runs_and_reports t_runs_and_reports
tcase bad_key_names_line t_bad_key_names_line
tcase absurd_model_values_are_refused t_absurd_model_values_are_refused
tcase cfl_violation_names_node_and_fix t_cfl_violation_names_node_and_fix
tcase bandlimited_overshoot t_bandlimited_overshoot
tcase resolution_violation t_resolution_violation
tcase points_outside_or_in_absorbing_layer t_points_outside_or_in_absorbing_layer
tcase absorbing_thickness t_absorbing_thickness
tcase mesh_file_matches_direct_sampling t_mesh_file_matches_direct_sampling
tcase killed_run_leaves_no_output t_killed_run_leaves_no_output
tcase geographic_source_and_points t_geographic_source_and_points
tcase cuda_backend_without_device t_cuda_backend_without_device
tcase cuda_bad_layout_setting t_cuda_bad_layout_setting
tsummary
