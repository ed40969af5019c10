"""Independent check of `cybershake plan`: the site's rupture list from geodesic distances
computed here (pyproj's Geod over the Points table), and the box rebuilt by hand from the rules
of docs/erf.md with pyproj's transverse Mercator. Usage: plan_check.py STUDY PARAMS SITE
CUTOFF_KM FMAX."""
import math
import sqlite3
import sys

from pyproj import Geod, Transformer

study, params, site, cutoff, fmax = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
db = sqlite3.connect(study)
lat0, lon0, site_id = db.execute(
    "SELECT CS_Site_Lat, CS_Site_Lon, CS_Site_ID FROM CyberShake_Sites WHERE CS_Short_Name = ?", (site,)).fetchone()
geod = Geod(ellps="WGS84")
rups = {}
for s, r, lat, lon, dep in db.execute("SELECT Source_ID, Rupture_ID, Lat, Lon, Depth FROM Points"):
    rups.setdefault((s, r), []).append((lat, lon, dep))
expected = {}
for key, pts in rups.items():
    lats = [p[0] for p in pts]
    lons = [p[1] for p in pts]
    _, _, d = geod.inv([lon0] * len(pts), [lat0] * len(pts), lons, lats)
    dmin = min(d) / 1e3
    assert abs(dmin - cutoff) > 0.05, f"rupture {key} lies {dmin} km away, too close to the cutoff to judge"
    if dmin <= cutoff:
        expected[key] = dmin
got = {(s, r): d for s, r, d in db.execute(
    "SELECT Source_ID, Rupture_ID, Site_Rupture_Dist FROM CyberShake_Site_Ruptures WHERE CS_Site_ID = ?", (site_id,))}
assert set(got) == set(expected), f"rupture lists differ: only planned {set(got) - set(expected)}, only here {set(expected) - set(got)}"
assert 0 < len(got) < len(rups), f"the test needs ruptures on both sides of the cutoff ({len(got)} of {len(rups)})"
worst = max(abs(got[k] - expected[k]) for k in got)
assert worst < 1e-6, f"distances differ by {worst} km"

# The box, by the rules: local transverse Mercator at the site, x at azimuth -55 deg.
tm = Transformer.from_crs("EPSG:4326", f"+proj=tmerc +lat_0={lat0} +lon_0={lon0} +k=1 +x_0=0 +y_0=0 +ellps=WGS84", always_xy=True)
az = math.radians(-55.0)
xs, ys, zmax = [0.0], [0.0], 0.0
for key in expected:
    for lat, lon, dep in rups[key]:
        e, n = tm.transform(lon, lat)
        xs.append(e * math.sin(az) + n * math.cos(az))
        ys.append(e * math.cos(az) - n * math.sin(az))
        zmax = max(zmax, dep * 1e3)
h = 500.0 / (fmax * 5)
h = math.floor(h / 10) * 10 if h >= 20 else h
margin = 30e3 + 20 * h
up = lambda v, s: math.ceil(v / s - 1e-9) * s
nx = math.ceil(up(max(xs) - min(xs) + 2 * margin, 10e3) / h - 1e-9) + 1
ny = math.ceil(up(max(ys) - min(ys) + 2 * margin, 10e3) / h - 1e-9) + 1
nz = math.ceil(up(zmax + 30e3 + 20 * h, 10e3) / h - 1e-9) + 1
x0 = h * round((0.5 * (min(xs) + max(xs)) - 0.5 * (nx - 1) * h) / h)
y0 = h * round((0.5 * (min(ys) + max(ys)) - 0.5 * (ny - 1) * h) / h)
keys = {}
corners = []
for line in open(params):
    if line.startswith("# box corner"):
        corners.append(tuple(float(v) for v in line.split(":")[1].split()))
    elif "=" in line and not line.startswith("#"):
        k, v = line.split("=", 1)
        keys[k.strip()] = v.split()[0]
for k, want in (("nx", nx), ("ny", ny), ("nz", nz), ("h", h), ("x0", x0), ("y0", y0)):
    assert abs(float(keys[k]) - want) < 1e-6, f"{k}: planned {keys[k]}, by hand {want}"
inv = Transformer.from_crs(f"+proj=tmerc +lat_0={lat0} +lon_0={lon0} +k=1 +x_0=0 +y_0=0 +ellps=WGS84", "EPSG:4326", always_xy=True)
for c, (bx, by) in enumerate(((x0, y0), (x0 + (nx - 1) * h, y0), (x0 + (nx - 1) * h, y0 + (ny - 1) * h), (x0, y0 + (ny - 1) * h))):
    e = bx * math.sin(az) + by * math.cos(az)
    n = bx * math.cos(az) - by * math.sin(az)
    lon, lat = inv.transform(e, n)
    assert abs(lon - corners[c][0]) < 2e-6 and abs(lat - corners[c][1]) < 2e-6, f"corner {c + 1}: planned {corners[c]}, by hand {lon, lat}"
print(f"plan check: {len(got)} of {len(rups)} ruptures within {cutoff} km agree (worst {worst:.2e} km); box {nx} x {ny} x {nz}, corners agree")

# The time step against the CFL limit of the fastest Vp anywhere in the box (down to its bottom),
# from the fk1d model read here: dt vp / h <= 0.495 (the solver's bound).
layers = []
with open(keys["model_file"]) as f:
    nlay = int(f.readline().split()[0])
    for _ in range(nlay):
        th, vp, vs = (float(x) for x in f.readline().split()[:3])
        layers.append((th * 1e3, vp * 1e3, vs * 1e3))
bottom = (nz - 1) * h
top, vp_max = 0.0, 0.0
for i, (th, vp, vs) in enumerate(layers):
    if top <= bottom:
        vp_max = max(vp_max, vp, 1.45 * max(vs, 500.0))
    top += th if i < len(layers) - 1 else float("inf")
dt = float(keys["dt"])
assert dt * vp_max / h <= 0.495, f"dt = {dt} s breaks the CFL limit for vp = {vp_max} m/s at h = {h} m"
print(f"plan check: dt {dt} s, Courant number {dt * vp_max / h:.3f} for vp {vp_max:.0f} m/s down to {bottom / 1e3:.1f} km")
