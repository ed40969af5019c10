/* Where the GPU's warps start in a row (a z column of nz nodes with gz ghost nodes above and
 * below, padded to a multiple of 32 floats, so every row begins a 128-byte line). A warp is 32
 * consecutive depths; a warp whose first depth begins a line loads each array in one request.
 * Plain C, shared by the CUDA back end and the unit tests.
 * align 1: the warps start on the row's first ghost node (zshift gz), so the ghosts above share
 *   the first line with nodes 0..29: ceil((nz + gz) / 32) warps per row;
 * align 2: each device array starts (32 - gz) floats into its allocation (shift), so depth 0
 *   begins a line and the warps start there (zshift 0): ceil(nz / 32) warps, but the ghost nodes
 *   above lie in the line before (one more line read per row);
 * align 0: warps on depth 0 with no shift (two nodes into a line: two requests per load).
 * Automatic (any other value): 2 where it saves a warp per row (nz % 32 of 31 or 0 with gz = 2:
 * 12 warps instead of 13 for nz = 384), 1 otherwise, where 1 keeps the ghosts in the row's own
 * lines. Measured on an H200 (docs/performance.md), elastic: nz = 384 24.1 G LUPS with 2, 23.4 G
 * with 1; nz = 364 24.3 G with 1, 24.0 G with 2; nz = 380 (whole lines with both ghosts) 25.1 G.
 * Returns the alignment chosen; *zshift: thread 0 of a row's warps sits at depth -zshift;
 * *shift: floats between an array's allocation and its start. */
#ifndef SGT_GPU_ROWS_H
#define SGT_GPU_ROWS_H

#define SGT_GPU_LINE 32 /* floats in a 128-byte line, threads in a warp */

static inline int sgt_gpu_row_warps(int nz, int zshift) {
    return (nz + zshift + SGT_GPU_LINE - 1) / SGT_GPU_LINE;
}

/* The first depth of the line that holds depth k >= 0, with warps starting at depth -zshift. */
static inline int sgt_gpu_line_start(int k, int zshift) {
    return (k + zshift) / SGT_GPU_LINE * SGT_GPU_LINE - zshift;
}

static inline int sgt_gpu_row_alignment(int align, int nz, int gz, int *zshift, int *shift) {
    if (align < 0 || align > 2)
        align = sgt_gpu_row_warps(nz, 0) < sgt_gpu_row_warps(nz, gz) ? 2 : 1;
    *zshift = align == 1 ? gz : 0;
    *shift = align == 2 ? (SGT_GPU_LINE - gz % SGT_GPU_LINE) % SGT_GPU_LINE : 0;
    return align;
}

#endif
