/* How many variations a GPU rank's batch holds (extract_run.c; bench/extract_gpu_part.c takes
 * the same rule). Small ruptures' variations share batches (extract_gpu.c; docs/extract.md,
 * "Small ruptures together"), and a batch's device time has a share that does not grow with
 * its variations: on an H200, batches of 504 gave 23% more variations/s than batches of 126 at
 * the production forecast's median rupture (756 points, 0.5 Hz) and 3% more at 4,224 and 7,700
 * points (docs/performance.md, "Small ruptures together"). So the batch is the largest of 512,
 * 256 and 128 whose device memory (sums, records, measures) takes at most a quarter of the
 * rank's share of the device, the rest left to the spectra the rank keeps. A rupture taken
 * alone still goes in batches of EXTRACT_RUPTURE_BATCH: one rupture of 4,224 or 7,700 points
 * in batches of 512 was 9-10% slower than in batches of 128. */
#ifndef EXTRACT_BATCH_RULE_H
#define EXTRACT_BATCH_RULE_H

#include "synth_gpu.h"

/* EXTRACT_GROUP_BATCHES: the GPU ranks' batches one message of small ruptures holds at most
 * (extract_run.c's grouping, the bench's messages). A message's first batch's making and its
 * last batch's measures wait for each other: on an H200 at 0.5 Hz (batches of 504), messages of
 * 4, 8 and 16 batches gave 39,033, 41,226 and 42,882 variations/s at 756 points and 6,769,
 * 7,104 and 7,244 at 7,700 (docs/performance.md); 8 keeps most of the gain with half the
 * points a message asks the spectra map to hold at once. */
enum { EXTRACT_RUPTURE_BATCH = 128, EXTRACT_BATCH_CHOICES = 3, EXTRACT_GROUP_BATCHES = 8 };

/* Choice i of the batch, largest first. */
static inline int extract_batch_choice(int i) {
    return 512 >> i;
}

/* bytes[i]: the device memory a batch of extract_batch_choice(i) takes; room: the rank's share
 * of the device (bytes). */
static inline int extract_batch_rule(const double bytes[EXTRACT_BATCH_CHOICES], double room) {
    for (int i = 0; i < EXTRACT_BATCH_CHOICES - 1; i++)
        if (bytes[i] <= 0.25 * room) return extract_batch_choice(i);
    return extract_batch_choice(EXTRACT_BATCH_CHOICES - 1);
}

/* The batch for this shape and these measures (NULL: the host makes them) in room bytes. */
static inline int extract_batch_for(const synth_gpu_shape *shape, long block,
                                    const synth_gpu_measures *m, double room) {
    double bytes[EXTRACT_BATCH_CHOICES];
    for (int i = 0; i < EXTRACT_BATCH_CHOICES; i++) {
        int b = extract_batch_choice(i);
        bytes[i] =
            synth_gpu_bytes(shape, block, b, 0) + (m ? synth_gpu_measures_bytes(shape, b, m) : 0);
    }
    return extract_batch_rule(bytes, room);
}

#endif
