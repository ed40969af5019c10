"""What the frequency-wavenumber references share (tests/physics/loh_fk_reference.py,
tests/physics/layered_fk_reference.py): their options and pyfk's run for one receiver, the
moment rate convolved and the components put on the output's samples. Needs pyfk (a Cython
build the project does not depend on; loh_fk_reference.py says how to install it)."""
import argparse

import numpy as np
from obspy import Trace
from pyfk import Config, SeisModel, SourceModel, calculate_gf, calculate_sync
from scipy.interpolate import CubicSpline

ELASTIC_Q = 1e6  # FK needs a Q; this one changes amplitudes by exp(-pi f t / Q) < 1e-4


def options(out, tmax=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--dt", type=float, default=0.004)
    ap.add_argument("--npt", type=int, default=8192)
    ap.add_argument("--dk", type=float, default=0.025)
    if tmax is not None:
        ap.add_argument("--tmax", type=float, default=tmax)
    ap.add_argument("--out", default=out)
    return ap.parse_args()


def velocity(a, model, sdep_km, mechanism, distance_km, azimuth, rate, t_end, tout):
    """Radial, transverse, vertical up (m/s) on the samples tout. MODEL: rows of thickness (km),
    vs, vp (km/s), rho (g/cm3), Qs, Qp, the last the half space; MECHANISM: M0 (dyne cm), then
    mxx mxy mxz myy myz mzz (x north, y east, z down); RATE(t): the moment rate over M0 (1/s) on
    [0, t_end]."""
    source = SourceModel(sdep=sdep_km, srcType="dc", source_mechanism=mechanism)
    cfg = Config(model=SeisModel(model=np.array(model)), source=source,
                 receiver_distance=[distance_km], npt=a.npt, dt=a.dt, dk=a.dk, smth=1,
                 taper=0.3, samples_before_first_arrival=200)
    gf = calculate_gf(cfg)
    ts = np.arange(int(round(t_end / a.dt)) + 1) * a.dt
    stf = Trace(data=rate(ts) * a.dt)  # the convolution is a plain sum: the rectangle rule's dt
    stf.stats.delta = a.dt
    # z (up), r (outward), t (clockwise from above); FK's Green's functions are for a moment
    # impulse, so with the moment rate as the time function its displacement (cm) is the
    # velocity (cm/s)
    syn = calculate_sync(gf, cfg, azimuth, stf)[0]
    b = float(syn[0].stats.sac["b"])
    t = b + np.arange(len(syn[0].data)) * a.dt
    cols = []
    for c in (1, 2, 0):  # radial, transverse, vertical up
        v = CubicSpline(t, syn[c].data.astype(float) * 1e-2)(tout)  # m/s
        cols.append(np.where(tout < b, 0.0, v))
    return cols
