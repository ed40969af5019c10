# Sourced by the SGT benchmarks: `box_params NX NY NZ STEPS` prints the parameter file they share
# (a homogeneous box of 100 m nodes, a vertical force at the centre of its surface, strain every
# 10 steps); each script adds its own keys (back end, attenuation, save points, output).
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
