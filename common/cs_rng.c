#include "cs_rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t cs_rng_seed(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    uint64_t ids[4] = {a, b, c, d}, h = 0x243f6a8885a308d3ULL;
    for (int i = 0; i < 4; i++) {
        uint64_t x = h ^ ids[i];
        h = splitmix64(&x);
    }
    return h;
}

void cs_rng_init(cs_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    r->have_spare = 0;
}

static uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

uint64_t cs_rng_next(cs_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double cs_rng_uniform(cs_rng *r) {
    return (double)(cs_rng_next(r) >> 11) * 0x1.0p-53;
}

double cs_rng_normal(cs_rng *r) {
    if (r->have_spare) {
        r->have_spare = 0;
        return r->spare;
    }
    double u, v, q;
    do {
        u = 2 * cs_rng_uniform(r) - 1;
        v = 2 * cs_rng_uniform(r) - 1;
        q = u * u + v * v;
    } while (q >= 1 || q == 0);
    double f = sqrt(-2 * log(q) / q);
    r->spare = v * f;
    r->have_spare = 1;
    return u * f;
}
