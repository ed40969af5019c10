#include "moment_tensor.h"

#include <math.h>

void mt_from_sdr(double strike, double dip, double rake, double m0, double m[6]) {
    const double d2r = M_PI / 180.0;
    double ps = strike * d2r, de = dip * d2r, la = rake * d2r;
    double sd = sin(de), cd = cos(de), s2d = sin(2 * de), c2d = cos(2 * de);
    double sl = sin(la), cl = cos(la);
    double sp = sin(ps), cp = cos(ps), s2p = sin(2 * ps), c2p = cos(2 * ps);
    m[0] = -m0 * (sd * cl * s2p + s2d * sl * sp * sp);  /* Mxx */
    m[1] = m0 * (sd * cl * s2p - s2d * sl * cp * cp);   /* Myy */
    m[2] = m0 * s2d * sl;                               /* Mzz */
    m[3] = m0 * (sd * cl * c2p + 0.5 * s2d * sl * s2p); /* Mxy */
    m[4] = -m0 * (cd * cl * cp + c2d * sl * sp);        /* Mxz */
    m[5] = -m0 * (cd * cl * sp - c2d * sl * cp);        /* Myz */
}

static void sym_full(const double m[6], double f[3][3]) {
    f[0][0] = m[0], f[1][1] = m[1], f[2][2] = m[2];
    f[0][1] = f[1][0] = m[3];
    f[0][2] = f[2][0] = m[4];
    f[1][2] = f[2][1] = m[5];
}

void mt_ned_to_box(const double m_ned[6], const double axes[3][3], double m_box[6]) {
    /* R[i][a]: component of box axis i along N, E, D. */
    double R[3][3], M[3][3], B[3][3];
    for (int i = 0; i < 3; i++) {
        R[i][0] = axes[i][1];
        R[i][1] = axes[i][0];
        R[i][2] = -axes[i][2];
    }
    sym_full(m_ned, M);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    s += R[i][a] * M[a][b] * R[j][b];
            B[i][j] = s;
        }
    m_box[0] = B[0][0], m_box[1] = B[1][1], m_box[2] = B[2][2];
    m_box[3] = B[0][1], m_box[4] = B[0][2], m_box[5] = B[1][2];
}

void mt_vector_enu_to_box(const double enu[3], const double axes[3][3], double box[3]) {
    for (int i = 0; i < 3; i++)
        box[i] = axes[i][0] * enu[0] + axes[i][1] * enu[1] + axes[i][2] * enu[2];
}
