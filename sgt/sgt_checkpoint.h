/* Checkpoints of a solver run: every `checkpoint_every` steps each rank writes its
 * time-dependent arrays (velocities, stresses, memory variables, PML memory variables, receiver
 * state) into its own HDF5 file, under a temporary name renamed into place; once every rank
 * has, rank 0 replaces the manifest that names the step. The strain is not in it: by then the
 * SGT file being written holds every sample of those steps (sgt_strain_writer.h), and a
 * resumed run continues that file. A run
 * killed at any moment leaves either the previous complete checkpoint or the new one, never a
 * mixture. A rerun of the same inputs, on this decomposition or another, resumes from the
 * manifest's step and writes the same bytes as an uninterrupted run (sgt_checkpoint_regrid.h).
 *
 * The run is identified by a fingerprint of everything that shapes the result: the resolved
 * parameters, the save points and receivers, the time function, the model file's size and time
 * (or the material file's checksum) and the code version; not the decomposition. A checkpoint of
 * another run is refused with a message, never silently used. */
#ifndef SGT_CHECKPOINT_H
#define SGT_CHECKPOINT_H

#include "sgt_run.h"

void sgt_checkpoint_fingerprint(const sgt_config *c, const sgt_state *s, const sgt_run_result *res,
                                char out[17]);
/* Writes the checkpoint after `steps_done` steps (collective). */
int sgt_checkpoint_write(const sgt_config *c, const sgt_backend *be, sgt_state *s, int steps_done,
                         const char *fingerprint, cs_error *err);
/* Loads the latest checkpoint of this run when there is one and restarting is allowed;
 * *steps_done is 0 otherwise (collective). */
int sgt_checkpoint_restore(const sgt_config *c, const sgt_backend *be, sgt_state *s,
                           const char *fingerprint, int *steps_done, cs_error *err);
/* Removes the checkpoints once the output is in place (collective). */
void sgt_checkpoint_remove(const sgt_config *c, const sgt_state *s);

#endif
