/* How the device's sums over subfaults (synth_gpu.cu, accumulate_kernel) are cut: each
 * variation's subfaults in `slices` contiguous runs, one block per (frequency tile, variation,
 * run), the runs' partial sums added in a fixed order afterwards. A batch of 128 variations
 * with ~1,300 frequencies is ~1,300 blocks, where an H100 holds 1,188 at once: a second,
 * nearly empty wave costs as long as the first. Cut into runs, the grid spans several waves,
 * and the last one's idle share is small. The rule reads the batch's shape only, not the
 * device's, so a batch's sums are the same bits on any GPU. Plain C, so it is unit-tested
 * without a GPU. */
#ifndef ACCUMULATE_SPLIT_H
#define ACCUMULATE_SPLIT_H

enum {
    ACC_THREADS = 128,       /* threads (frequencies) per block */
    ACC_WAVES = 8,           /* grids of fewer waves than this are cut */
    ACC_MIN_RUN = 32,        /* the fewest subfaults a run takes, on average */
    ACC_PART_BLOCKS = 16384, /* the most blocks whose partial sums are held at once */
    ACC_MAX_SLICES = 64,
    ACC_RESIDENT = 132 * 9 /* blocks an H100 or H200 holds at once (132 SMs, 9 a SM) */
};

/* The partial sums' bytes at most: a block's 3 series x ACC_THREADS frequencies (double2). */
#define ACC_PART_BYTES ((double)ACC_PART_BLOCKS * ACC_THREADS * 3 * 16)

/* Runs per variation for a batch of nb variations with `subfaults` staged in all, kblocks
 * frequency tiles, `resident` blocks held at once by the device: 1 where the grid already spans
 * ACC_WAVES waves (or the subfaults are too few to share); else enough runs for ACC_WAVES waves,
 * within ACC_PART_BLOCKS partial blocks and ACC_MIN_RUN subfaults a run. forced > 0 (tests of
 * the partial sums on a small site): that many runs, within ACC_PART_BLOCKS partial blocks. */
static inline int accumulate_slices(long long subfaults, int nb, int kblocks, int resident,
                                    int forced) {
    if (nb < 1 || kblocks < 1 || resident < 1 || (subfaults < 1 && forced < 1)) return 1;
    long long base = (long long)nb * kblocks, want = (long long)ACC_WAVES * resident;
    long long by_part = ACC_PART_BLOCKS / base, s;
    if (forced > 0) {
        s = forced;
    } else {
        if (base >= want) return 1;
        s = (want + base - 1) / base;
        long long by_run = subfaults / ((long long)nb * ACC_MIN_RUN);
        if (s > by_run) s = by_run;
    }
    if (s > by_part) s = by_part;
    if (s > ACC_MAX_SLICES) s = ACC_MAX_SLICES;
    return s < 2 ? 1 : (int)s;
}

#endif
