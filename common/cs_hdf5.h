/* Small HDF5 helpers: attributes of every kind we record, whole-dataset reads and writes, and
 * errors that name the file and dataset. */
#ifndef CS_HDF5_H
#define CS_HDF5_H

#include <hdf5.h>

#include "cs_error.h"

void cs_h5_quiet(void); /* stop HDF5 printing its own error stacks; we report our own */
/* Creates a file (truncating) and groups with no modification times recorded, so that equal
 * contents give equal bytes and equal checksums. */
hid_t cs_h5_create(const char *path);
hid_t cs_h5_group(hid_t loc, const char *name);

int cs_h5_attr_double(hid_t obj, const char *name, const double *v, int n);
int cs_h5_attr_int(hid_t obj, const char *name, const int *v, int n);
int cs_h5_attr_string(hid_t obj, const char *name, const char *v);

/* Reads attributes; missing or mistyped ones are errors naming file and attribute. */
int cs_h5_read_attr_double(hid_t obj, const char *file, const char *name, double *v, int n,
                           cs_error *err);
int cs_h5_read_attr_int(hid_t obj, const char *file, const char *name, int *v, int n,
                        cs_error *err);
int cs_h5_read_attr_string(hid_t obj, const char *file, const char *name, char *v, size_t size,
                           cs_error *err);

/* Creates and writes a dataset of `rank` dims; chunk may be NULL for contiguous storage. */
int cs_h5_write(hid_t loc, const char *name, hid_t file_type, hid_t mem_type, int rank,
                const hsize_t *dims, const hsize_t *chunk, const void *data);
/* Creates a dataset without writing it: space allocated at creation and never filled (the
 * caller writes every element), the same layout whether written by one process or many. */
hid_t cs_h5_dataset(hid_t loc, const char *name, hid_t file_type, int rank, const hsize_t *dims,
                    const hsize_t *chunk);
/* Dimensions of a dataset (rank must match). */
int cs_h5_dims(hid_t loc, const char *file, const char *name, int rank, hsize_t *dims,
               cs_error *err);
int cs_h5_read(hid_t loc, const char *file, const char *name, hid_t mem_type, void *data,
               cs_error *err);

#endif
