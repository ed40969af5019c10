"""Rupture geometry files (CyberShake's format) of four small planar ruptures 5-10 km from the
demo site, written to the current folder: the small forecast of the extractor and workflow
tests (1_0.txt, 1_1.txt, 2_0.txt, 2_1.txt)."""
import math
def write(name, lat0, lon0, strike, dip, top, ncols, nrows, mag, prob, rake):
    dlat, dlon = 1 / 111.2, 1 / (111.32 * math.cos(math.radians(lat0)))
    sd, cd = math.sin(math.radians(dip)), math.cos(math.radians(dip))
    az, dd = math.radians(strike), math.radians(strike + 90)
    with open(name, "w") as f:
        f.write(f"Probability = {prob}\nMagnitude = {mag}\nGridSpacing = 1.0\nNumRows = {nrows}\n"
                f"NumCols = {ncols}\n#   Lat Lon Depth Rake Dip Strike\n")
        for r in range(nrows):
            for c in range(ncols):
                n = c * math.cos(az) + r * cd * math.cos(dd)
                e = c * math.sin(az) + r * cd * math.sin(dd)
                f.write(f"{lat0 + n * dlat:.6f} {lon0 + e * dlon:.6f} {top + r * sd:.4f} {rake} {dip} {strike}\n")
write("1_0.txt", 34.10, -118.26, 90, 60, 2.0, 5, 3, 5.6, 0.002, 90)
write("1_1.txt", 34.10, -118.22, 90, 60, 2.0, 4, 3, 5.4, 0.004, 90)
write("2_0.txt", 33.99, -118.20, 0, 90, 1.0, 6, 4, 5.9, 0.001, 180)
write("2_1.txt", 34.00, -118.30, 0, 90, 1.0, 3, 3, 5.2, 0.006, 180)
