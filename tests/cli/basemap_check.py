#!/usr/bin/env python3
"""Checks a `hazard map --basemap` grid without the toolkit's code:
basemap_check.py GRID.nc GRID.csv SITES.csv STEP MARGIN_KM RADIUS_KM [VS30_GRID.asc]

(b) the NetCDF file read by scipy.io.netcdf_file (SciPy's own reader) and, when the venv has it,
by netCDF4 (Unidata's netCDF-C): CF attributes, lon/lat coordinates on multiples of STEP
covering the sites' box plus the margin, the same values in both readers and in the CSV;
(c) the difference: the sites' interpolated values equal their differences (exact), and the
grid's difference equals SciPy's thin-plate spline (RBFInterpolator, degree 1) through the site
differences on the plane of docs/hazard.md, held to their range and tapered, to 1e-9 g;
combined = basemap + difference; with a Vs30 raster, each node's vs30 is its cell's."""
import csv, math, sys

import numpy as np
from scipy.interpolate import RBFInterpolator
from scipy.io import netcdf_file

nc_path, csv_path, sites_path = sys.argv[1:4]
step, margin, radius = map(float, sys.argv[4:7])
asc = sys.argv[7] if len(sys.argv) > 7 else None

f = netcdf_file(nc_path, "r", mmap=False)
assert f.Conventions == b"CF-1.8", f.Conventions
lat, lon = f.variables["lat"][:].copy(), f.variables["lon"][:].copy()
assert f.variables["lat"].units == b"degrees_north" and f.variables["lat"].standard_name == b"latitude"
assert f.variables["lon"].units == b"degrees_east" and f.variables["lon"].standard_name == b"longitude"
assert f.variables["crs"].grid_mapping_name == b"latitude_longitude"
grids = {k: f.variables[k][:].copy() for k in ("vs30", "basemap", "difference", "combined")}
for k in ("basemap", "difference", "combined"):
    assert f.variables[k].units == b"g" and f.variables[k].grid_mapping == b"crs", k
    assert f.variables[k].dimensions == ("lat", "lon"), f.variables[k].dimensions
    assert grids[k].shape == (len(lat), len(lon))
f.close()
readers = "scipy"
try:
    import netCDF4
    d = netCDF4.Dataset(nc_path)
    d.set_auto_mask(False)
    assert np.array_equal(d["lat"][:], lat) and np.array_equal(d["lon"][:], lon)
    for k, g in grids.items():
        assert np.array_equal(d[k][:], g, equal_nan=True), k
    assert d.getncattr("Conventions") == "CF-1.8"
    d.close()
    readers += " and netCDF4 (netCDF-C %s)" % netCDF4.__netcdf4libversion__
except ImportError:
    readers += " (netCDF4 missing: sh tools/install-test-clients.sh)"

sites = list(csv.DictReader(l for l in open(sites_path) if not l.startswith("#")))
slon = np.array([float(s["lon"]) for s in sites])
slat = np.array([float(s["lat"]) for s in sites])
# coordinates: multiples of the step, covering the sites' box and the margin, no more
km_deg = 6371.0088 * math.pi / 180
k = math.cos(math.radians(0.5 * (slat.min() + slat.max())))
assert np.allclose(np.diff(lat), step, atol=1e-9) and np.allclose(np.diff(lon), step, atol=1e-9)
assert np.allclose(np.round(lat / step) * step, lat, atol=1e-9) and np.allclose(np.round(lon / step) * step, lon, atol=1e-9)
mlat, mlon = margin / km_deg, margin / (km_deg * k)
assert lat[0] <= slat.min() - mlat + 1e-9 and lat[0] > slat.min() - mlat - step
assert lat[-1] >= slat.max() + mlat - 1e-9 and lat[-1] < slat.max() + mlat + step
assert lon[0] <= slon.min() - mlon + 1e-9 and lon[-1] >= slon.max() + mlon - 1e-9
# the CSV: a row a node, the file's values to its 6 digits
rows = list(csv.DictReader(l for l in open(csv_path) if not l.startswith("#")))
assert len(rows) == lat.size * lon.size
for r in rows:
    j = int(round((float(r["lat"]) - lat[0]) / step)); i = int(round((float(r["lon"]) - lon[0]) / step))
    for key in ("basemap", "difference", "combined"):
        a, b = float(r[key]), grids[key][j, i]
        assert (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-5 * max(abs(b), 1e-3), (key, a, b)

# (c) exact at the sites; the grid's difference by SciPy's spline
d = np.array([float(s["difference"]) for s in sites])
interp = np.array([float(s["interpolated"]) for s in sites])
assert np.all(np.abs(interp - d) <= 1e-9 * max(1.0, np.abs(d).max())), (interp, d)
lat0, lon0 = slat.mean(), slon.mean()
def plane(lo, la):
    return np.stack([km_deg * math.cos(math.radians(lat0)) * (lo - lon0), km_deg * (la - lat0)], -1)
pts = plane(slon, slat)
rbf = RBFInterpolator(pts, d, kernel="thin_plate_spline", degree=1)
LO, LA = np.meshgrid(lon, lat)
nodes = plane(LO.ravel(), LA.ravel())
surf = np.clip(rbf(nodes), d.min(), d.max())
dist = np.sqrt(((nodes[:, None, :] - pts[None, :, :]) ** 2).sum(-1)).min(1)
taper = np.where(dist <= radius / 2, 1.0,
                 np.where(dist >= radius, 0.0, 0.5 * (1 + np.cos(np.pi * (dist - radius / 2) / (radius / 2)))))
want = (surf * taper).reshape(LO.shape)
got = grids["difference"]
ok = np.isfinite(grids["basemap"])
worst = np.abs(got[ok] - want[ok]).max()
assert worst < 1e-9, worst
assert np.allclose(grids["combined"][ok], grids["basemap"][ok] + got[ok], rtol=0, atol=1e-12)
assert np.any(taper == 0) and np.any((taper > 0) & (taper < 1)), "the grid should reach the taper"
vs = ""
if asc:
    hdr, vals = {}, []
    for line in open(asc):
        t = line.split()
        if t and t[0][0].isalpha():
            hdr[t[0].lower()] = float(t[1])
        elif t:
            vals += [float(v) for v in t]
    nc, nr, cell = int(hdr["ncols"]), int(hdr["nrows"]), hdr["cellsize"]
    west = hdr.get("xllcorner", hdr.get("xllcenter", 0) - cell / 2)
    south = hdr.get("yllcorner", hdr.get("yllcenter", 0) - cell / 2)
    ras = np.array(vals).reshape(nr, nc)
    col = np.minimum(np.floor((LO - west) / cell), nc - 1).astype(int)
    up = np.minimum(np.floor((LA - south) / cell), nr - 1).astype(int)
    assert np.array_equal(grids["vs30"], ras[nr - 1 - up, col]), "vs30 layer"
    vs = f"; vs30 layer = the raster's cells ({len(np.unique(ras))} values)"
print(f"    basemap grid {len(lon)} x {len(lat)} read by {readers}; difference = SciPy's thin-plate "
      f"spline to {worst:.1e} g over {ok.sum()} nodes; exact at {len(d)} sites{vs}")
