/* Moment tensors and the axes they are written in: the convention the solver's moment sources
 * (sgt/sgt_source, cybershake sgt with source = moment or srf), the extractor's reciprocity
 * (extract/synth) and the planner share. Strike, dip and rake follow Aki & Richards (1980)
 * Box 4.4 in the frame x north, y east, z down; the box frame's axes are given by their (E, N,
 * Up) components (cs_geo_box_axes_enu); symmetric tensors are stored xx yy zz xy xz yz. */
#ifndef MOMENT_TENSOR_H
#define MOMENT_TENSOR_H

/* Moment tensor (N*m) from strike, dip, rake (degrees) and M0 in the frame x north, y east,
 * z down: Aki & Richards (1980) Box 4.4. Order xx yy zz xy xz yz. */
void mt_from_sdr(double strike, double dip, double rake, double m0, double m[6]);
/* Rotates a symmetric tensor from the north-east-down frame into the box frame whose axes have
 * (E, N, Up) components axes[i] (cs_geo_box_axes_enu). */
void mt_ned_to_box(const double m_ned[6], const double axes[3][3], double m_box[6]);
/* Turns a vector given in E, N, Up into box components. */
void mt_vector_enu_to_box(const double enu[3], const double axes[3][3], double box[3]);

#endif
