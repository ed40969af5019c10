/* A seeded pseudo-random generator for everything stochastic in the toolkit (rupture
 * variations): xoshiro256** (Blackman and Vigna 2018) seeded through splitmix64, so a seed is
 * one 64-bit number and any stream can be regenerated alone from the ids it was derived from. */
#ifndef CS_RNG_H
#define CS_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
    int have_spare;
    double spare;
} cs_rng;

/* A seed from up to four ids (e.g. study seed, source, rupture, variation); order matters. */
uint64_t cs_rng_seed(uint64_t a, uint64_t b, uint64_t c, uint64_t d);
void cs_rng_init(cs_rng *r, uint64_t seed);
uint64_t cs_rng_next(cs_rng *r);
/* Uniform on [0, 1) with 53 random bits. */
double cs_rng_uniform(cs_rng *r);
/* Standard normal (polar Box-Muller). */
double cs_rng_normal(cs_rng *r);

#endif
