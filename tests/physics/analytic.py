"""Independent analytic solutions used to check the solver (no code shared with the C side).

stokes_displacement: Aki & Richards (1980) eq. 4.23, a point force in a homogeneous full space.
lamb_vertical: Pekeris (1955) surface displacement under a vertical point load on a Poisson
half space (lambda = mu), as written by Mooney (1974), convolved with the load's time function.
"""
import numpy as np
from scipy.interpolate import CubicSpline
from scipy import integrate


class TimeFunction:
    """A sampled time function (samples at t0 + n dt), smooth between samples."""

    def __init__(self, samples, dt, t0=0.0):
        t = t0 + dt * np.arange(len(samples))
        # Pad with zeros so that times before/after the record evaluate to zero.
        tp = np.concatenate([[t[0] - 2 * dt, t[0] - dt], t, [t[-1] + dt, t[-1] + 2 * dt]])
        vp = np.concatenate([[0.0, 0.0], samples, [0.0, 0.0]])
        self.spline = CubicSpline(tp, vp, bc_type="natural", extrapolate=False)
        self.integral = self.spline.antiderivative()
        self.tmin, self.tmax = tp[0], tp[-1]

    def __call__(self, t):
        t = np.asarray(t, dtype=float)
        v = self.spline(np.clip(t, self.tmin, self.tmax))
        return np.where((t < self.tmin) | (t > self.tmax), 0.0, v)

    def tau_integral(self, t, a, b, n=400):
        """int_a^b tau f(t - tau) d tau by Gauss-Legendre (f is smooth)."""
        x, w = np.polynomial.legendre.leggauss(n)
        tau = 0.5 * (b - a) * x + 0.5 * (b + a)
        return 0.5 * (b - a) * np.sum(w * tau * self(t[:, None] - tau[None, :]), axis=1)


def stokes_displacement(x, force_dir, times, stf, impulse, vp, vs, rho):
    """Displacement (3 x nt) at x (m, relative to the source) for a force impulse * stf(t)."""
    r = np.linalg.norm(x)
    g = x / r
    F = np.asarray(force_dir, dtype=float)
    u = np.zeros((3, len(times)))
    near = stf.tau_integral(times, r / vp, r / vs) * impulse
    fp = stf(times - r / vp) * impulse
    fs = stf(times - r / vs) * impulse
    for i in range(3):
        for j in range(3):
            if F[j] == 0:
                continue
            d = 1.0 if i == j else 0.0
            u[i] += F[j] * (
                (3 * g[i] * g[j] - d) / (4 * np.pi * rho * r**3) * near
                + g[i] * g[j] / (4 * np.pi * rho * vp**2 * r) * fp
                - (g[i] * g[j] - d) / (4 * np.pi * rho * vs**2 * r) * fs
            )
    return u


def stokes_strain(x, force_dir, times, stf, impulse, vp, vs, rho, delta=0.5):
    """Tensor strain xx yy zz xy xz yz (6 x nt) by central differences of the displacement
    with a step delta (m) much smaller than any wavelength: error O((delta / lambda)^2)."""
    grad = np.zeros((3, 3, len(times)))  # grad[i][j] = d u_i / d x_j
    for j in range(3):
        e = np.zeros(3)
        e[j] = delta
        up = stokes_displacement(x + e, force_dir, times, stf, impulse, vp, vs, rho)
        um = stokes_displacement(x - e, force_dir, times, stf, impulse, vp, vs, rho)
        grad[:, j, :] = (up - um) / (2 * delta)
    eps = lambda i, j: 0.5 * (grad[i, j] + grad[j, i])
    return np.array([eps(0, 0), eps(1, 1), eps(2, 2), eps(0, 1), eps(0, 2), eps(1, 2)])


def _pekeris_integral(tau):
    """C(tau) = int_{1/sqrt3}^tau W(tau') dtau', W the normalised vertical surface displacement
    under a step load on a Poisson solid (Pekeris 1955; as written by Mooney 1974):
    w = P / (pi mu r) * W(tau), tau = t vs / r, positive down for a downward load, with
      W = [6 - A/sqrt(g^2 - t^2) + B/sqrt(t^2 - c^2) - sqrt3/sqrt(t^2 - 1/4)] / 32, 1/sqrt3 < t < 1
      W = [6 - A/sqrt(g^2 - t^2)] / 16,                                           1 < t < g
      W = 3/8 (Boussinesq's static value),                                        t > g
    A = sqrt(3 sqrt3 + 5), B = sqrt(3 sqrt3 - 5), c^2 = (3 - sqrt3)/4, g = sqrt(3 + sqrt3)/2 (the
    Rayleigh slowness times vs). Each term integrates in closed form (arcsin and log), so the
    integrable singularity at the Rayleigh arrival costs nothing."""
    s3 = np.sqrt(3.0)
    g = 0.5 * np.sqrt(3 + s3)
    A, B, c2 = np.sqrt(3 * s3 + 5), np.sqrt(3 * s3 - 5), 0.25 * (3 - s3)
    tau = np.asarray(tau, dtype=float)

    def first(t):
        return (6 * t - A * np.arcsin(np.minimum(t / g, 1.0)) + B * np.log(t + np.sqrt(np.maximum(t * t - c2, 0)))
                - s3 * np.log(t + np.sqrt(np.maximum(t * t - 0.25, 0)))) / 32

    def second(t):
        return (6 * t - A * np.arcsin(np.minimum(t / g, 1.0))) / 16

    tp = 1 / s3
    c_at_1 = first(1.0) - first(tp)
    c_at_g = c_at_1 + second(g) - second(1.0)
    out = np.zeros_like(tau)
    a = (tau > tp) & (tau <= 1)
    out[a] = first(tau[a]) - first(tp)
    b = (tau > 1) & (tau <= g)
    out[b] = c_at_1 + second(tau[b]) - second(1.0)
    d = tau > g
    out[d] = c_at_g + 3.0 / 8.0 * (tau[d] - g)
    return out


def lamb_vertical_velocity(r, times, stf, impulse, vs, rho, sub=16):
    """Vertical surface velocity (positive down) at distance r for a downward load
    impulse * stf(t) on a Poisson half space:
      v(t) = 1/(pi mu r) int W(vs s / r) F''(t - s) ds,
    evaluated on cells of width dt/sub with the exact cell integrals of W (from
    _pekeris_integral) and F'' at the cell centres (error O(cell^2))."""
    mu = rho * vs * vs
    times = np.asarray(times, dtype=float)
    dt = times[1] - times[0]
    ds = dt / sub
    smax = times[-1] - stf.tmin + ds
    edges = np.arange(0, smax + ds, ds)
    cum = _pekeris_integral(vs * edges / r) * (r / vs)  # int_0^s W(vs s'/r) ds'
    cell = np.diff(cum)
    centres = 0.5 * (edges[:-1] + edges[1:])
    d2 = stf.spline.derivative(2)
    out = np.empty(len(times))
    for n, t in enumerate(times):
        arg = t - centres
        ok = (arg >= stf.tmin) & (arg <= stf.tmax)
        out[n] = impulse * np.sum(cell[ok] * d2(arg[ok]))
    return out / (np.pi * mu * r)


def stokes_velocity_anelastic(x, force_dir, times, stf, impulse, vp, vs, rho, qp, qs, f_ref,
                              nfft_factor=8):
    """Velocity (3 x nt) at x for a force impulse * stf(t) in a homogeneous full space with
    constant-Q attenuation (Kjartansson 1979): by the correspondence principle, Stokes' solution
    in the frequency domain with complex velocities c(w) = c_ref (i w / w_ref)^(g), g =
    arctan(1/Q)/pi, which are c_ref in phase velocity at f_ref. qp = qs = inf gives the elastic
    solution. Evaluated by FFT over a padded record."""
    times = np.asarray(times, dtype=float)
    dt = times[1] - times[0]
    n = nfft_factor * len(times)
    t = dt * np.arange(n)
    F = np.fft.rfft(stf(t)) * dt * impulse
    w = 2 * np.pi * np.fft.rfftfreq(n, dt)
    w[0] = 1e-12
    wr = 2 * np.pi * f_ref

    def cplx(c, q):
        if not np.isfinite(q):
            return np.full(len(w), c, dtype=complex)
        g = np.arctan(1.0 / q) / np.pi
        # c(w) = c0 (i w / w_ref)^g; the phase velocity 1 / Re(1 / c) at w_ref is c0 / Re(i^-g)
        # and must equal c: c0 = c Re(i^-g).
        return c * np.real((1j) ** (-g)) * (1j * w / wr) ** g

    a, b = cplx(vp, qp), cplx(vs, qs)
    r = np.linalg.norm(x)
    gm = x / r
    Fd = np.asarray(force_dir, dtype=float)
    ta, tb = r / a, r / b
    ant = lambda tau: np.exp(-1j * w * tau) * (1 + 1j * w * tau) / w**2
    near = (ant(tb) - ant(ta)) * F
    fp = np.exp(-1j * w * ta) * F
    fs = np.exp(-1j * w * tb) * F
    out = np.zeros((3, len(times)))
    for i in range(3):
        U = np.zeros(len(w), dtype=complex)
        for j in range(3):
            if Fd[j] == 0:
                continue
            d = 1.0 if i == j else 0.0
            U += Fd[j] * ((3 * gm[i] * gm[j] - d) / (4 * np.pi * rho * r**3) * near
                          + gm[i] * gm[j] / (4 * np.pi * rho * a**2 * r) * fp
                          - (gm[i] * gm[j] - d) / (4 * np.pi * rho * b**2 * r) * fs)
        U[0] = 0
        out[i] = np.fft.irfft(1j * w * U, n)[: len(times)] / dt
    return out
