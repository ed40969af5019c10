"""Draws receiver 10's LOH.1 traces against the reference (docs/img/loh1_rec10.png) from the
traces tests/physics/loh_convergence.py saved (.npy: t, radial, transverse, vertical).

    python3 tests/physics/loh_plot.py TRACES_DIR docs/img/loh1_rec10.png [docs/img/loh1_references.png]

The optional second figure: the published solution against the frequency-wavenumber one
(tests/data/loh/NOTES.md), their difference, and the misfit against each as h shrinks.

Needs matplotlib (a documentation tool, not a dependency of the toolkit or its tests)."""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loh  # noqa: E402

CURVES = [  # file, label, style
    ("loh1_50_point.npy", "h = 50 m, node on the interface takes the layer below (older rule)",
     dict(color="tab:red", lw=0.9, alpha=0.8)),
    ("loh1_50_effective.npy", "h = 50 m, effective media (this version)",
     dict(color="tab:blue", lw=1.1)),
    ("loh1_25_effective.npy", "h = 25 m, effective media", dict(color="tab:green", lw=0.9, ls="--")),
]


def main():
    src, out = sys.argv[1], sys.argv[2]
    tref, ref = loh.reference("loh1")
    fig, axes = plt.subplots(3, 1, figsize=(10, 8.5), sharex=True)
    names = ("radial", "transverse", "vertical (up)")
    for c, ax in enumerate(axes):
        keep = tref <= 9.0
        ax.plot(tref[keep], ref[c][keep], color="black", lw=2.2, alpha=0.45,
                label="reference (PROSE, SW4's tools/LOH.1_prose3)")
        for f, label, style in CURVES:
            d = np.load(os.path.join(src, f))
            t, sim = d[0], d[1:]
            m = loh.misfits(t, sim, tref, ref)[c]
            k = t <= 9.0
            ax.plot(t[k], sim[c][k], label=f"{label}: misfit {100 * m:.1f}%", **style)
        ax.set_ylabel(f"{names[c]} (m/s)")
        ax.legend(fontsize=7, loc="upper left")
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    axes[0].set_title("LOH.1, receiver 10 (6 km, 8 km): layer interface at 1000 m, on a node at "
                      "h = 50 and 25 m; Gaussian moment rate sigma 0.06 s", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


# (file pattern, label, style) of the convergence panel: misfit against h
RULES = [("loh1_{}_effective.npy", "effective media, interface on a node", "tab:blue"),
         ("loh1_{}_bandlimited.npy", "band-limited, interface on a node", "tab:orange"),
         ("loh1_{}_effective_odd.npy", "interface half-way between nodes", "tab:green")]
SPACINGS = {"loh1_{}_effective.npy": (100, 50, 25, 12.5),
            "loh1_{}_bandlimited.npy": (100, 50, 25, 12.5),
            "loh1_{}_effective_odd.npy": (48.7805, 24.6914)}


def references(src, out):
    tp, p = loh.reference("loh1")
    tf, f = loh.reference("loh1", "fk")
    fig = plt.figure(figsize=(10, 10))
    grid = fig.add_gridspec(4, 2)
    names = ("radial", "transverse", "vertical (up)")
    keep = tp <= 9.0
    for c in range(3):
        ax = fig.add_subplot(grid[c, :])
        fk = np.interp(tp[keep], tf, f[c])
        ax.plot(tp[keep], p[c][keep], color="black", lw=1.6, alpha=0.5, label="published (PROSE)")
        ax.plot(tp[keep], fk, color="tab:purple", lw=0.9, label="frequency-wavenumber (pyfk)")
        ax.plot(tp[keep], 5 * (p[c][keep] - fk), color="tab:red", lw=0.8,
                label="5 x (published - FK)")
        ax.set_ylabel(f"{names[c]} (m/s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    ax.set_xlabel("time (s)")
    for i, (ref_t, ref, title) in enumerate(((tp, p, "against the published solution"),
                                             (tf, f, "against FK"))):
        ax = fig.add_subplot(grid[3, i])
        for pattern, label, color in RULES:
            hs, worst = [], []
            for h in SPACINGS[pattern]:
                path = os.path.join(src, pattern.format(f"{h:g}"))
                if not os.path.exists(path):
                    continue
                d = np.load(path)
                hs.append(h)
                worst.append(100 * max(loh.misfits(d[0], d[1:], ref_t, ref)))
            ax.loglog(hs, worst, "o-", color=color, label=label)
        ax.axhline(5, color="gray", ls=":", lw=1)
        ax.set_xlabel("h (m)")
        ax.set_ylabel("worst component's misfit (%)")
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=6)
    fig.suptitle("LOH.1 receiver 10: the two references, and the solver converging to FK",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
    if len(sys.argv) > 3:
        references(sys.argv[1], sys.argv[3])
