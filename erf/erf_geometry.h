/* CyberShake rupture geometry files: the text form in which CyberShake's ERF publishes each
 * rupture's surface.
 *
 *   Probability = 1.2e-05        (over the forecast's time span)
 *   Magnitude = 6.55
 *   GridSpacing = 1.0            (km)
 *   NumRows = 14
 *   NumCols = 23
 *   #   Lat  Lon  Depth  Rake  Dip  Strike       (one comment line)
 *   then NumRows x NumCols lines "lat lon depth_km rake dip strike", row by row from the
 *   shallowest, each row along strike.
 *
 * The header keys may come in any order; each must appear once. Errors name file:line. */
#ifndef ERF_GEOMETRY_H
#define ERF_GEOMETRY_H

#include "erf_rupture.h"

/* The source and rupture ids that a geometry file's name gives: "S_R.txt" (CyberShake's
 * layout), each id plain decimal digits (no sign, no space) no larger than the largest id the
 * study holds (2^63 - 1). Anything else is an error naming the file. */
int erf_geometry_ids_from_path(const char *path, long long *source_id, long long *rupture_id,
                               cs_error *err);
int erf_geometry_read(const char *path, long long source_id, long long rupture_id, erf_rupture *r,
                      cs_error *err);
/* Writes r in the same format (atomically). */
int erf_geometry_write(const char *path, const erf_rupture *r, cs_error *err);

#endif
