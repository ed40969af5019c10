/* The rule that cuts the device's sums over subfaults into runs (extract/accumulate_split.h):
 * it runs on the host, so its bounds are checked here, GPU or not. */
#include "accumulate_split.h"
#include "tf.h"

/* The waves a grid of `blocks` takes and the share of the last one that is busy. */
static double busy_share(long long blocks, int resident) {
    long long waves = (blocks + resident - 1) / resident;
    return (double)blocks / ((double)waves * resident);
}

TEST(accumulate_split_fills_the_last_wave) {
    /* bench05 on an H100: 128 variations x 4,224 subfaults, 1,265 frequencies (10 tiles),
     * ACC_RESIDENT blocks at once */
    int resident = ACC_RESIDENT, kblocks = 10, nb = 128;
    long long sub = 128LL * 4224;
    CHECK(busy_share((long long)nb * kblocks, resident) < 0.6); /* uncut: half the device idle */
    int s = accumulate_slices(sub, nb, kblocks, resident, 0);
    CHECK_MSG(s >= 2, "slices %d", s);
    long long blocks = (long long)s * nb * kblocks;
    CHECK_MSG(blocks >= (long long)ACC_WAVES * resident, "blocks %lld", blocks);
    CHECK_MSG(busy_share(blocks, resident) > 0.85, "busy %.3f", busy_share(blocks, resident));
    CHECK(blocks <= ACC_PART_BLOCKS);
    CHECK(sub / ((long long)nb * s) >= ACC_MIN_RUN);
}

TEST(accumulate_split_keeps_its_bounds) {
    /* every shape: the partial sums within ACC_PART_BLOCKS, runs of >= ACC_MIN_RUN subfaults,
     * uncut where the grid already spans ACC_WAVES waves */
    const int residents[] = {1, 64, 1056, 1188, 2376};
    const int nbs[] = {1, 3, 64, 128, 1000, 4096};
    const int kbs[] = {1, 2, 10, 31, 200};
    const long long per[] = {0, 1, 31, 32, 100, 756, 7700, 100000};
    for (size_t a = 0; a < sizeof residents / sizeof *residents; a++)
        for (size_t b = 0; b < sizeof nbs / sizeof *nbs; b++)
            for (size_t c = 0; c < sizeof kbs / sizeof *kbs; c++)
                for (size_t d = 0; d < sizeof per / sizeof *per; d++) {
                    int r = residents[a], nb = nbs[b], kb = kbs[c];
                    long long sub = per[d] * nb;
                    int s = accumulate_slices(sub, nb, kb, r, 0);
                    long long base = (long long)nb * kb;
                    CHECK(s >= 1 && s <= ACC_MAX_SLICES);
                    if (s == 1) continue;
                    CHECK_MSG(base < (long long)ACC_WAVES * r, "cut a full grid: %d", s);
                    CHECK_MSG(s * base <= ACC_PART_BLOCKS, "%d x %lld blocks", s, base);
                    CHECK_MSG(sub / ((long long)nb * s) >= ACC_MIN_RUN, "runs of %lld",
                              sub / ((long long)nb * s));
                }
    /* nothing to cut */
    CHECK(accumulate_slices(0, 128, 10, 1188, 0) == 1);
    CHECK(accumulate_slices(1000, 0, 10, 1188, 0) == 1);
    CHECK(accumulate_slices(1000, 1, 10, 0, 0) == 1);
}

TEST(accumulate_split_forced_runs_within_the_partial_room) {
    /* a small site's batch (too few subfaults to cut by the rule) cut as asked */
    CHECK(accumulate_slices(2 * 20, 2, 1, ACC_RESIDENT, 0) == 1);
    CHECK(accumulate_slices(2 * 20, 2, 1, ACC_RESIDENT, 3) == 3);
    CHECK(accumulate_slices(2 * 20, 2, 1, ACC_RESIDENT, 1000) == ACC_MAX_SLICES);
    /* never past the partial sums' room, whatever is asked */
    int s = accumulate_slices(4096LL * 100, 4096, 2, ACC_RESIDENT, 3);
    CHECK_MSG(s * 4096LL * 2 <= ACC_PART_BLOCKS, "%d runs", s);
    CHECK(accumulate_slices(4096LL * 100, 4096, 10, ACC_RESIDENT, 3) == 1);
}

/* The batch a GPU rank takes (extract/extract_batch_rule.h): the largest whose device memory
 * is within a quarter of the rank's share. */
#include "extract_batch_rule.h"

TEST(extract_batch_rule_takes_the_largest_within_a_quarter) {
    /* illustrative sizes: an H200 shared by 3 ranks (47 GB each) at 0.5 Hz, 4.9 / 3.0 / 2.0 GB
     * (measured at the median rupture: 4.92 GB in use at 512, 2.00 at 128) */
    const double half_hz[3] = {4.9e9, 3.0e9, 2.0e9};
    CHECK(extract_batch_rule(half_hz, 47e9) == 512);
    /* at 1 Hz, about 21 / 10.5 / 5.2 GB: 256 on the H200's share, 128 on an H100's (26.7 GB) */
    const double one_hz[3] = {21e9, 10.5e9, 5.2e9};
    CHECK(extract_batch_rule(one_hz, 47e9) == 256);
    CHECK(extract_batch_rule(one_hz, 26.7e9) == 128);
    /* no room at all still gives the smallest, which the rank then checks against its share */
    CHECK(extract_batch_rule(one_hz, 0) == 128);
    /* exactly a quarter fits */
    CHECK(extract_batch_rule(half_hz, 4 * 4.9e9) == 512);
    CHECK(extract_batch_choice(0) == 512 && extract_batch_choice(2) == EXTRACT_RUPTURE_BATCH);
}
