/* Fuzz harnesses for the parsers of user input (docs/contributing.md, "Fuzzing").
 *
 * A harness takes one input as bytes, hands it to the real library parser (through a file in
 * the run's scratch folder where the parser reads files) and frees whatever came back. A parser
 * may refuse the input, but must then say why: a failure with an empty message is a finding too
 * (fuzz_check_error aborts on it, so the driver saves the input). Crashes, leaks and undefined
 * behaviour are caught by the sanitizers the fuzz build uses. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "cs_error.h"

/* Writes data to NAME in the run's scratch folder; the path stays valid until the next call. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);
/* A path under the repository (fixed companion inputs such as the traces of fuzz_faults). */
const char *fuzz_repo_path(const char *relative);
/* The scratch folder of this run. */
const char *fuzz_scratch(void);
/* A parser's verdict: 0, or a status with a message naming what was wrong. Aborts otherwise. */
void fuzz_check_error(const char *harness, int rc, const cs_error *err);
/* Around a harness's one-time setup (made by the first input a process runs): the input's hang
 * clock stopped, then started again, so that the setup's time, which is no parser's, does not
 * count. */
void fuzz_stop_clock(void);
void fuzz_restart_clock(void);

int fuzz_params(const uint8_t *data, size_t size);
int fuzz_wf_config(const uint8_t *data, size_t size);
int fuzz_sites(const uint8_t *data, size_t size);
int fuzz_faults(const uint8_t *data, size_t size);
int fuzz_traces(const uint8_t *data, size_t size);
int fuzz_geometry(const uint8_t *data, size_t size);
int fuzz_geometry_name(const uint8_t *data, size_t size);
int fuzz_area(const uint8_t *data, size_t size);
int fuzz_srf(const uint8_t *data, size_t size);
int fuzz_fk1d(const uint8_t *data, size_t size);
int fuzz_depth_table(const uint8_t *data, size_t size);
int fuzz_ucvm1d(const uint8_t *data, size_t size);
int fuzz_points(const uint8_t *data, size_t size);
int fuzz_stf(const uint8_t *data, size_t size);
/* HDF5 inputs: the bytes are a program of edits (fuzz_h5_edit) applied to a valid file that the
 * harness writes with the toolkit's own writer; raw byte damage would mostly exercise libhdf5's
 * own decoder, which is not this project's code. */
int fuzz_model_hdf5(const uint8_t *data, size_t size);
int fuzz_material(const uint8_t *data, size_t size);
int fuzz_sgt_set(const uint8_t *data, size_t size);

/* Applies the edits that data encodes to the HDF5 file at path: attributes and datasets set to
 * extreme values, removed, re-typed or re-shaped. Returns 0, or -1 when the file cannot be
 * edited (the harness then skips the input). */
int fuzz_h5_edit(const char *path, const uint8_t *data, size_t size);

#endif
