/* A thin-plate spline through scattered values on a plane (Duchon 1977; the minimum-curvature
 * surface GMT's `surface` approximates on a grid with no tension): the function
 *
 *     f(x, y) = a0 + a1 x + a2 y + sum_i w_i phi(|(x, y) - (x_i, y_i)|),  phi(r) = r^2 ln r,
 *
 * with sum_i w_i = sum_i w_i x_i = sum_i w_i y_i = 0, that passes through every value and has
 * the least bending energy (the integral of f_xx^2 + 2 f_xy^2 + f_yy^2) of all such functions.
 * It interpolates exactly; far from the points it tends to the best-fitting plane. Points on one
 * line (two points, say) keep the linear term along the line only; a single point gives a
 * constant. Solved densely (Gaussian elimination with partial pivoting): thousands of points. */
#ifndef HAZARD_TPS_H
#define HAZARD_TPS_H

#include "cs_error.h"

typedef struct {
    int n, npoly;
    double *x, *y, *w;    /* points (centred and scaled) and weights */
    double a[3];          /* the polynomial's coefficients */
    double x0, y0, scale; /* the centring and scaling of the coordinates */
    double ux, uy;        /* the line's direction (npoly 2) */
} hazard_tps;

/* Points must be distinct (an error names the first pair that is not, by index). */
int hazard_tps_fit(int n, const double *x, const double *y, const double *z, hazard_tps *t,
                   cs_error *err);
double hazard_tps_eval(const hazard_tps *t, double x, double y);
void hazard_tps_free(hazard_tps *t);

#endif
