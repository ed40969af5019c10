"""Draws receiver 10's LOH.1 traces against the reference (docs/img/loh1_rec10.png) from the
traces tests/physics/loh_convergence.py saved (.npy: t, radial, transverse, vertical).

    python3 tests/physics/loh_plot.py TRACES_DIR docs/img/loh1_rec10.png

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


if __name__ == "__main__":
    main()
