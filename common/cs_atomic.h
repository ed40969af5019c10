/* Atomic output files: everything is written under a temporary name in the destination's
 * folder (".NAME.tmp.XXXXXX"), flushed to disk, checksummed, and renamed into place; the folder
 * is synced after the rename. A killed run leaves at most a hidden temporary file, never a file
 * under the final name that looks complete. */
#ifndef CS_ATOMIC_H
#define CS_ATOMIC_H

#include <stdio.h>

#include "cs_error.h"
#include "cs_sha256.h"

typedef struct {
    char final_path[4096];
    char tmp_path[4096];
    FILE *f;
} cs_atomic_file;

/* Opens a temporary file next to `path` for writing through a->f. */
int cs_atomic_open(cs_atomic_file *a, const char *path, cs_error *err);
/* Flushes, syncs, checksums (sha may be NULL) and renames into place. a->f is closed. */
int cs_atomic_commit(cs_atomic_file *a, char sha[CS_SHA256_HEX], cs_error *err);
/* Closes and removes the temporary file (after an error). Safe to call twice. */
void cs_atomic_abort(cs_atomic_file *a);

/* For libraries that open files by name themselves (HDF5): a fresh temporary name next to path
 * (the file is created empty so the name is reserved), and the publication step once the
 * library has closed it. */
int cs_atomic_reserve(const char *path, char *tmp, size_t tmp_size, cs_error *err);
int cs_atomic_publish(const char *tmp, const char *path, char sha[CS_SHA256_HEX], cs_error *err);

/* Writes a whole buffer atomically. */
int cs_atomic_write_file(const char *path, const void *data, size_t n, char sha[CS_SHA256_HEX],
                         cs_error *err);

/* Size of a file in bytes, or -1 when it cannot be read. */
long long cs_file_size(const char *path);

#endif
