"""An independent computation of PEER Set 1 cases 10 and 11 as PEER 2018/03 defines them (the
area source, Sadigh et al. 1997 rock PGA with its sigma untruncated) for test_hazard_cli.sh: no
grid of point sources but the distribution of epicentral distances from the site over the
100 km disc (the area of the intersection of the disc with a circle about the site, a 1D
integral in 0.05 km steps), the same truncated exponential (5.0-6.5, b 0.9, 0.01 bins,
N(M >= 5) = 0.0395 per year), Sadigh's median and sigma written out here from the paper's
coefficients. Usage: peer_area_sigma_check.py CASE OURS.csv; prints the largest relative
difference over every site and level of OURS (values above 1e-12 per year) and exits 1 beyond
1%: the toolkit's 90-sided polygon and its point grid against the disc."""
import csv
import math
import sys

import numpy as np
from scipy.special import ndtr

case, ours_path = sys.argv[1], sys.argv[2]
R_KM, EARTH = 100.0, 6371.0
SITES = [(38.000, -122.000), (37.550, -122.000), (37.099, -122.000), (36.874, -122.000)]
DEPTHS = [5.0] if case == "10" else [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]


def lens(d, r1, r2):
    """Area of the intersection of circles of radii r1, r2 whose centres are d apart."""
    out = np.zeros_like(r2)
    for k, r in enumerate(r2):
        if r <= 0 or d >= r1 + r:
            continue
        if d <= abs(r1 - r):
            out[k] = math.pi * min(r1, r) ** 2
            continue
        a = r1 * r1 * math.acos((d * d + r1 * r1 - r * r) / (2 * d * r1))
        b = r * r * math.acos((d * d + r * r - r1 * r1) / (2 * d * r))
        c = 0.5 * math.sqrt((-d + r1 + r) * (d + r1 - r) * (d - r1 + r) * (d + r1 + r))
        out[k] = a + b - c
    return out


beta, rate5 = 0.9 * math.log(10), 0.0395
norm = math.exp(-beta * 5.0) - math.exp(-beta * 6.5)
mags = 5.005 + 0.01 * np.arange(150)
rates = rate5 * (np.exp(-beta * (mags - 0.005)) - np.exp(-beta * (mags + 0.005))) / norm

rows = list(csv.reader(open(ours_path)))
levels = np.array([float(x) for x in rows[0][3:]])
worst, where = 0.0, ""
for row in rows[1:]:
    site = int(row[0])
    lat, _ = SITES[site - 1]
    d = EARTH * math.radians(38.0 - lat)  # the sites are due south of the centre
    edges = np.arange(max(0.0, d - R_KM), d + R_KM + 0.05, 0.05)
    frac = np.diff(lens(d, R_KM, edges)) / (math.pi * R_KM**2)  # area between the circles
    rho = 0.5 * (edges[1:] + edges[:-1])
    rate = np.zeros(len(levels))
    for z in DEPTHS:
        r = np.sqrt(rho**2 + z * z)
        for m, rm in zip(mags, rates):
            ln_med = -0.624 + 1.0 * m - 2.100 * np.log(r + math.exp(1.29649 + 0.250 * m))
            sigma = 1.39 - 0.14 * m  # rock PGA, M < 7.21
            p = ndtr((ln_med[None, :] - np.log(levels)[:, None]) / sigma) @ frac
            rate += rm * p / len(DEPTHS)
    want = -np.expm1(-rate)
    got = np.array([float(x) for x in row[3:]])
    for j in range(len(levels)):
        if want[j] > 1e-12:
            dlt = abs(got[j] - want[j]) / want[j]
            if dlt > worst:
                worst, where = dlt, f"site {site} at {levels[j]:g} g: {got[j]:.4e} against {want[j]:.4e}"
print(f"    case {case} (sigma untruncated) against the disc's exact distances: largest relative "
      f"difference {100 * worst:.2f}% ({where})")
sys.exit(0 if worst <= 0.01 else 1)
