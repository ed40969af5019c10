"""An independent computation of PEER Set 1 cases 10 and 11 (the area source, sigma 0) for
test_hazard_cli.sh: no grid of point sources but the exact fraction of the circular area within
the distance at which each magnitude's median reaches a level (the area of the intersection of
two circles), Sadigh et al. (1997) rock PGA written out here from the paper's coefficients, and
the same truncated exponential. Usage: peer_area_check.py CASE OURS.csv; prints the largest
relative difference where the reference exceeds 1e-4 per year and exits 1 beyond 1%."""
import csv
import math
import sys

from scipy.optimize import brentq

case, ours_path = sys.argv[1], sys.argv[2]
R_KM, EARTH = 100.0, 6371.0
SITES = [(38.000, -122.000), (37.550, -122.000), (37.099, -122.000), (36.874, -122.000)]
DEPTHS = [5.0] if case == "10" else [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]


def sadigh_rock_pga(m, r):
    """ln PGA (g), strike-slip, rock, M <= 6.5 (Sadigh et al. 1997, Table 2)."""
    return -0.624 + 1.0 * m - 2.100 * math.log(r + math.exp(1.29649 + 0.250 * m))


def lens(d, r1, r2):
    """Area of the intersection of circles of radii r1, r2 whose centres are d apart."""
    if r2 <= 0:
        return 0.0
    if d >= r1 + r2:
        return 0.0
    if d <= abs(r1 - r2):
        return math.pi * min(r1, r2) ** 2
    a = r1 * r1 * math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
    b = r2 * r2 * math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
    c = 0.5 * math.sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2))
    return a + b - c


beta, rate5 = 0.9 * math.log(10), 0.0395
norm = math.exp(-beta * 5.0) - math.exp(-beta * 6.5)
bins = [(5.0 + 0.01 * i + 0.005,
         rate5 * (math.exp(-beta * (5.0 + 0.01 * i)) - math.exp(-beta * (5.01 + 0.01 * i))) / norm)
        for i in range(150)]

rows = list(csv.reader(open(ours_path)))
levels = [float(x) for x in rows[0][3:]]
worst, where, compared = 0.0, "", 0
for row in rows[1:]:
    site = int(row[0])
    lat, lon = SITES[site - 1]
    d = EARTH * math.radians(38.0 - lat)  # the sites are due south of the centre
    for j, x in enumerate(levels):
        rate = 0.0
        for m, rm in bins:
            frac = 0.0
            for z in DEPTHS:
                f = lambda r: sadigh_rock_pga(m, r) - math.log(x)
                if f(z) <= 0:
                    continue  # even the point right below is under the level
                rx = brentq(f, z, 1e4) if f(1e4) < 0 else 1e4
                frac += lens(d, R_KM, math.sqrt(rx * rx - z * z)) / (math.pi * R_KM ** 2)
            rate += rm * frac / len(DEPTHS)
        ref = -math.expm1(-rate)
        if ref < 1e-4:
            continue
        compared += 1
        ours = float(row[3 + j])
        diff = abs(ours - ref) / ref
        if diff > worst:
            worst, where = diff, f"site {site} at {x} g: {ours:.5e} here, {ref:.5e} exact"
print(f"    case {case} against the exact area fractions: largest relative difference "
      f"{100 * worst:.3f}% over {compared} values above 1e-4 ({where})")
sys.exit(0 if compared > 0 and worst <= 0.01 else 1)
