#include "sac.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"

/* Header layout: 70 floats, 35 ints, 5 logicals (words 0..109), then 24 eight-byte strings
 * (KEVNM is 16 bytes), 632 bytes in all. Undefined values are -12345. */
enum {
    F_DELTA = 0,
    F_DEPMIN = 1,
    F_DEPMAX = 2,
    F_B = 5,
    F_E = 6,
    F_O = 7,
    F_STLA = 31,
    F_STLO = 32,
    F_DEPMEN = 56,
    F_CMPAZ = 57,
    F_CMPINC = 58
};
enum {
    I_NZYEAR = 70,
    I_NZJDAY = 71,
    I_NZHOUR = 72,
    I_NZMIN = 73,
    I_NZSEC = 74,
    I_NZMSEC = 75,
    I_NVHDR = 76,
    I_NPTS = 79,
    I_IFTYPE = 85,
    I_IDEP = 86,
    I_IZTYPE = 87,
    L_LEVEN = 105,
    L_LPSPOL = 106,
    L_LOVROK = 107,
    L_LCALDA = 108
};
enum { K_STNM = 440, K_EVNM = 448, K_CMPNM = 600, K_NETWK = 608 };

static void put_string(unsigned char *h, int at, int len, const char *s) {
    memset(h + at, ' ', (size_t)len);
    size_t n = strlen(s);
    memcpy(h + at, s, n < (size_t)len ? n : (size_t)len);
}

int sac_write(const char *path, const sac_meta *m, const float *data, int n, cs_error *err) {
    unsigned char h[632];
    float fw[70];
    int32_t iw[40];
    for (int i = 0; i < 70; i++)
        fw[i] = -12345.0f;
    for (int i = 0; i < 40; i++)
        iw[i] = -12345;
    /* SAC's unit of velocity (IDEP = IVEL) is nm/s */
    float *nm = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    if (!nm) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d samples", n);
    double lo = 0, hi = 0, mean = 0;
    for (int i = 0; i < n; i++) {
        nm[i] = (float)(data[i] * 1e9);
        if (i == 0 || nm[i] < lo) lo = nm[i];
        if (i == 0 || nm[i] > hi) hi = nm[i];
        mean += nm[i];
    }
    fw[F_DELTA] = (float)m->dt;
    fw[F_DEPMIN] = (float)lo;
    fw[F_DEPMAX] = (float)hi;
    fw[F_DEPMEN] = (float)(n ? mean / n : 0);
    fw[F_B] = (float)m->begin;
    fw[F_E] = (float)(m->begin + (n - 1) * m->dt);
    /* the reference time is the rupture's origin (IZTYPE = IO, O = 0): a CyberShake rupture has
     * no date, so the reference is written as 1970-001 00:00:00.000, where a reader without
     * IZTYPE would put it anyway */
    fw[F_O] = 0;
    iw[I_NZYEAR - 70] = 1970;
    iw[I_NZJDAY - 70] = 1;
    iw[I_NZHOUR - 70] = 0, iw[I_NZMIN - 70] = 0, iw[I_NZSEC - 70] = 0, iw[I_NZMSEC - 70] = 0;
    iw[I_IZTYPE - 70] = 11; /* IO: the reference is the event's origin time */
    fw[F_STLA] = (float)m->stla;
    fw[F_STLO] = (float)m->stlo;
    fw[F_CMPAZ] = (float)m->cmpaz;
    fw[F_CMPINC] = (float)m->cmpinc;
    iw[I_NVHDR - 70] = 6;
    iw[I_NPTS - 70] = n;
    iw[I_IFTYPE - 70] = 1; /* ITIME: evenly spaced time series */
    iw[I_IDEP - 70] = 7;   /* IVEL: velocity in nm/s */
    iw[L_LEVEN - 70] = 1;
    iw[L_LPSPOL - 70] = 1;
    iw[L_LOVROK - 70] = 1;
    iw[L_LCALDA - 70] = 1;
    memcpy(h, fw, sizeof fw);
    memcpy(h + 280, iw, sizeof iw);
    for (int at = 440; at < 632; at += 8)
        put_string(h, at, 8, "-12345");
    put_string(h, K_STNM, 8, m->station);
    put_string(h, K_EVNM, 16, m->event);
    put_string(h, K_CMPNM, 8, m->component);
    put_string(h, K_NETWK, 8, "CS");
    cs_atomic_file a;
    int rc = cs_atomic_open(&a, path, err);
    if (rc) {
        free(nm);
        CS_TRACE(err);
        return rc;
    }
    int bad = fwrite(h, 1, sizeof h, a.f) != sizeof h ||
              fwrite(nm, sizeof(float), (size_t)n, a.f) != (size_t)n;
    free(nm);
    if (bad) {
        cs_atomic_abort(&a);
        return cs_error_errno(err, path, "write");
    }
    return cs_atomic_commit(&a, NULL, err);
}
