/* The device sums' single-precision phases and nodes (extract/phase_f32.h) against the same
 * quantities in double precision. The bounds are what the double path they replace gave once
 * its result was turned to float: half a float's step near 1/2 is 3e-8, a step near 1 is 1.2e-7,
 * and float sincospif is within about an ulp; each bound below is two to four of those. */
#include <math.h>
#include <stdint.h>

#include "phase_f32.h"
#include "tf.h"

/* A repeatable uniform in [0, 1). */
static double uniform(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

TEST(phase_f32_sincos_within_two_ulps) {
    double worst = 0, at = 0;
    for (long i = -2000000; i <= 2000000; i++) {
        float p = (float)(i * 2.5e-7); /* [-1/2, 1/2], every quarter's edge included */
        float s, c;
        phase_f32_sincos_turns(p, &s, &c);
        double a = 2 * M_PI * (double)p;
        double e = fmax(fabs(s - sin(a)), fabs(c - cos(a)));
        if (e > worst) worst = e, at = p;
    }
    /* the floats nearest +-1/2 and their neighbours past it */
    const float ends[] = {0.5f, -0.5f, nextafterf(0.5f, 1), nextafterf(-0.5f, -1), 0.125f, 0.375f};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        float s, c;
        phase_f32_sincos_turns(ends[i], &s, &c);
        double a = 2 * M_PI * (double)ends[i];
        double e = fmax(fabs(s - sin(a)), fabs(c - cos(a)));
        if (e > worst) worst = e, at = ends[i];
    }
    CHECK_MSG(worst <= 1.2e-7, "sin/cos of 2 pi p off by %.3g at p = %.9g", worst, at);
}

TEST(phase_f32_turns_match_the_double_phase) {
    /* a term's phase: k df (tinit + tc), df of records 800-3,300 s long, starts to 600 s */
    uint64_t seed = 7;
    double worst = 0;
    for (int trial = 0; trial < 2000; trial++) {
        double df = 1.0 / (800 + 2500 * uniform(&seed)), t = 600 * uniform(&seed);
        double phi = df * t;
        phi -= rint(phi);
        float hi, lo;
        phase_f32_split(phi, &hi, &lo);
        for (int k = 0; k < 4096; k += 1 + (int)(7 * uniform(&seed))) {
            double ref = (double)k * phi;
            ref -= rint(ref);
            double got = phase_f32_turns((float)k, hi, lo);
            double d = got - ref;
            d -= rint(d); /* a phase of +1/2 and one of -1/2 are the same */
            if (fabs(d) > worst) worst = fabs(d);
            /* past +-1/2 by at most half a float step of k hi (phase_f32.h) */
            double past = ldexp(fabs(k * phi), -24) + 3e-8;
            CHECK_MSG(fabs(got) <= 0.5 + past, "phase %.9g outside [-1/2, 1/2]", got);
        }
    }
    CHECK_MSG(worst <= 6e-8, "phase off by %.3g of a cycle", worst);
}

TEST(phase_f32_node_matches_the_double_node) {
    /* a coarse node: k df / dfc, the step under 1/2 (the direct sum is taken otherwise) */
    uint64_t seed = 11;
    double worst = 0;
    for (int trial = 0; trial < 2000; trial++) {
        double step = 0.5 * uniform(&seed);
        if (trial < 3) step = trial == 0 ? 0.25 : trial == 1 ? 0.125 : 1.0 / 3;
        float hi, lo;
        phase_f32_split(step, &hi, &lo);
        for (int k = 0; k < 4096; k += 1 + (int)(5 * uniform(&seed))) {
            double x = k * step;
            int m;
            float u = phase_f32_node((float)k, hi, lo, &m);
            /* the node is floor(x), or the integer x is within half a float step of */
            double past = ldexp(x, -24) + 1e-7;
            CHECK_MSG(m == (int)floor(x) || (m == (int)rint(x) && fabs(x - rint(x)) <= past),
                      "k %d step %.17g: node %d", k, step, m);
            CHECK_MSG(u >= -past && u <= 1 + past, "offset %.9g", u);
            double d = fabs(m + (double)u - x);
            if (d > worst) worst = d;
        }
    }
    CHECK_MSG(worst <= 6e-8, "node + offset off by %.3g", worst);
}

TEST(phase_f32_round_is_nearest) {
    const float xs[] = {0.f, 0.49f, 0.5f, 1.5f, 2.5f, -0.5f, -1.49f, 1000.7f, -2047.3f, 4194303.f};
    for (size_t i = 0; i < sizeof xs / sizeof *xs; i++) {
        int n;
        float r = phase_f32_round(xs[i], &n);
        CHECK_MSG(r == rintf(xs[i]) && n == (int)rintf(xs[i]), "round(%g) = %g, %d", xs[i], r, n);
    }
}
