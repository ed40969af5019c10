/* The SGT file: the contract between the solver, which writes it (sgt/sgt_output), and the
 * extractor and `cybershake check`, which read it (extract/sgt_set). Every name both sides use
 * is here, with the version the reader accepts; docs/sgt.md describes the layout for users.
 *
 * One HDF5 file per force component: datasets `points/index` (np x 3 grid indices),
 * `points/material` (np x 3: lambda, mu, rho), `strain` (np x 6 x nt, float32, point-major,
 * time fastest, chunked by blocks of points), and the attributes named below. */
#ifndef SGT_FILE_H
#define SGT_FILE_H

#include <hdf5.h>

#include "cs_error.h"

#define SGT_FILE_FORMAT         "cybershake-sgt"
#define SGT_FILE_FORMAT_FORWARD "cybershake-forward"
/* Raised whenever the layout or a convention changes; the reader refuses any other value. */
#define SGT_FILE_VERSION 1

/* The strain convention, written into every file and required on reading. */
#define SGT_FILE_STRAIN_CONVENTION                                                                 \
    "tensor strain eps_ij (not engineering 2 eps_ij); components xx yy zz xy xz yz in the box "    \
    "frame, interpolated to the normal-stress node; sample m at t = m dt; from a force of "        \
    "'impulse' N*s"
#define SGT_FILE_UNITS "strain: dimensionless; dt, time_shift: s; impulse: N*s"

/* Datasets. */
#define SGT_FILE_STRAIN          "strain"
#define SGT_FILE_POINTS          "points"
#define SGT_FILE_POINTS_INDEX    "points/index"
#define SGT_FILE_POINTS_MATERIAL "points/material"
#define SGT_FILE_INDEX           "index"
#define SGT_FILE_MATERIAL        "material"
#define SGT_FILE_GEOGRAPHIC      "geographic"

/* Attributes of the file. */
#define SGT_FILE_ATTR_FORMAT            "format"
#define SGT_FILE_ATTR_VERSION           "format_version"
#define SGT_FILE_ATTR_STRAIN_CONVENTION "strain_convention"
#define SGT_FILE_ATTR_UNITS             "units"
#define SGT_FILE_ATTR_DT                "dt"
#define SGT_FILE_ATTR_NT                "nt"
#define SGT_FILE_ATTR_TIME_SHIFT        "time_shift"
#define SGT_FILE_ATTR_FMAX              "fmax"
#define SGT_FILE_ATTR_H                 "h"
#define SGT_FILE_ATTR_GRID              "grid"
#define SGT_FILE_ATTR_IMPULSE           "impulse"
#define SGT_FILE_ATTR_FORCE_COMPONENT   "force_component"
#define SGT_FILE_ATTR_FORCE_VECTOR      "force_vector"
#define SGT_FILE_ATTR_SOURCE_NODE       "source_node"
#define SGT_FILE_ATTR_BOX               "box_origin_lon_lat_rotation_x0_y0"

/* The six stored components in file order. */
enum {
    SGT_FILE_XX,
    SGT_FILE_YY,
    SGT_FILE_ZZ,
    SGT_FILE_XY,
    SGT_FILE_XZ,
    SGT_FILE_YZ,
    SGT_FILE_NCOMP
};

/* The weight of each stored component in a double contraction with a symmetric tensor
 * (M : eps = sum_ij M_ij eps_ij): the file holds each off-diagonal pair once, so xy, xz, yz
 * count twice. */
extern const double sgt_file_tensor_weight[SGT_FILE_NCOMP];

/* Checks that the open file f (named path in messages) is an SGT file this code reads: format
 * SGT_FILE_FORMAT, format_version SGT_FILE_VERSION, and the strain convention above. */
int sgt_file_check(hid_t f, const char *path, cs_error *err);

/* The same rule on values already read (the unit tests use it without a file). */
int sgt_file_check_values(const char *path, const char *format, int version, const char *convention,
                          cs_error *err);

#endif
