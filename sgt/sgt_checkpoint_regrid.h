/* Checkpoints across decompositions. Each rank's checkpoint file records where its arrays sit in
 * the grid (its first node, extent, ghost widths, strides, owned columns, PML slabs and receiver
 * rows); a run resumed on another decomposition (other rank counts, 2 x 1 for 1 x 2, ...) builds
 * each of its arrays from the files of the ranks that owned those columns. Every value a step
 * reads is an owned value of some rank (the overlap's stresses are the neighbour's own, computed
 * redundantly), so the resumed run writes the bytes an uninterrupted run writes. */
#ifndef SGT_CHECKPOINT_REGRID_H
#define SGT_CHECKPOINT_REGRID_H

#include <hdf5.h>

#include "sgt_run.h"

/* The path of rank `rank`'s checkpoint file after `steps` steps. */
void sgt_checkpoint_rank_file(const sgt_config *c, int steps, int rank, char *path, size_t size);
/* Records the rank's place in the grid as attributes of its checkpoint file (and the rows of its
 * receivers as a dataset); 0 or -1. */
int sgt_checkpoint_layout_write(hid_t f, const sgt_state *s);
/* 1 when the file was written by a rank with exactly this state's layout, PML slabs and
 * receivers (its arrays can then be read whole), 0 otherwise. */
int sgt_checkpoint_layout_same(hid_t f, const sgt_state *s);
/* Fills every time-dependent array of this rank from the `old_ranks` files of step `steps`,
 * written on another decomposition; each file's fingerprint must be `fp`. */
int sgt_checkpoint_read_regrid(const sgt_config *c, const sgt_backend *be, sgt_state *s, int steps,
                               int old_ranks, const char *fp, cs_error *err);

#endif
