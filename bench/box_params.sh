# Sourced by the SGT benchmarks: `box_params NX NY NZ STEPS` prints the parameter file they share
# (a homogeneous box of 100 m nodes, a vertical force at the centre of its surface, strain every
# 10 steps); each script adds its own keys (back end, attenuation, save points, output).
# `gpu_box_setup [NX NY NZ STEPS]` sets nx ny nz steps (default 807 x 807 x 384, 200 steps: the
# 22 GB viscoelastic grid of sgt_gpu_bench), moves into a scratch folder removed at exit and
# writes one.txt, a save point at the centre of the surface.
# `gpu_box_params NX NY NZ STEPS` adds the GPU benchmarks' keys (CUDA, viscoelastic, s.h5);
# `sgt_timing CYBERSHAKE ARGS...` runs the solver quietly and prints "SECONDS GLUPS" from its
# summary line.
box_params() {
    cat <<PAR
nx = $1
ny = $2
nz = $3
h = 100 m
dt = 0.005 s
nt = $4
model_format = homogeneous
vp = 6000 m/s
vs = 3464 m/s
rho = 2700 kg/m3
fmax = 3 Hz
source_i = $(($1 / 2))
source_j = $(($2 / 2))
source_k = 0
force_component = z
decimation = 10
PAR
}
gpu_box_setup() {
    nx=${1:-807} ny=${2:-807} nz=${3:-384} steps=${4:-200}
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work" || return 1
    printf '%d %d 0\n' $((nx / 2)) $((ny / 2)) >one.txt
}
gpu_box_params() {
    box_params "$@"
    printf 'backend = cuda\nattenuation = true\noutput = s.h5\n'
}
sgt_timing() {
    CYBERSHAKE_LOG=warn "$@" | sed -n 's/.*steps, \([0-9.]*\) s, \([0-9.e+-]*\) G LUPS.*/\1 \2/p'
}
