#!/usr/bin/env python3
"""Reads a site run's seismogram file (`cybershake extract ... --seismograms FILE`, the layout in
docs/extract.md) into ObsPy Streams with h5py and ObsPy only: no part of the toolkit is needed.

One Stream per rupture variation, one Trace per component (E, N, Z up; a horizontal-only run's Z,
stored as NaN, is left out), in m/s as the file holds them (the SAC files that `cybershake
seismogram --sac` writes are in nm/s, SAC's convention for velocity). Time zero is the rupture's
origin time, given as 1970-01-01T00:00:00, the reference the SAC files use too.

    python3 docs/examples/seismograms_to_obspy.py seis.h5 [SOURCE RUPTURE VARIATION]

prints each Stream read (all of them, or the one named), e.g.

    3 Trace(s) in Stream:
    CS.DEMO..E | 1970-01-01T00:00:00.000000Z - 1970-01-01T00:01:59.900000Z | 10.0 Hz, 1200 samples
    ...
"""
import sys

import h5py
import numpy as np
import obspy


def read_seismograms(path, source=None, rupture=None, variation=None):
    """Yields ((source, rupture, variation), obspy.Stream) for every record of the file, or for
    those matching the numbers given."""
    with h5py.File(path, "r") as f:
        index = f["index"][:]
        velocity = f["velocity"]
        dt = float(f.attrs["dt"])
        site = f.attrs.get("site", b"SITE")
        site = site.decode() if isinstance(site, bytes) else str(site)
        lon, lat = (float(x) for x in f.attrs["site_lon_lat"][:2])
        want = np.ones(len(index), dtype=bool)
        for col, value in enumerate((source, rupture, variation)):
            if value is not None:
                want &= index[:, col] == value
        for row in np.flatnonzero(want):
            key = tuple(int(x) for x in index[row])
            stream = obspy.Stream()
            for k, component in enumerate("ENZ"):
                data = velocity[row, k, :].astype(np.float64)
                if np.isnan(data).all():
                    continue
                header = {
                    "network": "CS",
                    "station": site,
                    "channel": component,
                    "delta": dt,
                    "starttime": obspy.UTCDateTime(0),
                    "coordinates": {"latitude": lat, "longitude": lon},
                    "cybershake": {"source": key[0], "rupture": key[1], "variation": key[2],
                                   "units": "m/s"},
                }
                stream.append(obspy.Trace(data=data, header=header))
            yield key, stream


def main(argv):
    if len(argv) not in (2, 5):
        sys.exit(__doc__)
    numbers = [int(x) for x in argv[2:5]] if len(argv) == 5 else [None, None, None]
    for key, stream in read_seismograms(argv[1], *numbers):
        print(f"source {key[0]} rupture {key[1]} variation {key[2]}:")
        print(stream)


if __name__ == "__main__":
    main(sys.argv)
