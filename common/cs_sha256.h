/* SHA-256 of files and byte streams, through OpenSSL's EVP interface.
 * Builds without OpenSSL (the GPU machine has none) still compile: the functions then report
 * that checksums are unavailable, and `cybershake check` computes them later. */
#ifndef CS_SHA256_H
#define CS_SHA256_H

#include <stddef.h>

#include "cs_error.h"

#define CS_SHA256_HEX 65 /* 64 hex digits and the terminator */

typedef struct cs_sha256 cs_sha256;

int cs_sha256_available(void);
int cs_sha256_begin(cs_sha256 **out, cs_error *err);
int cs_sha256_update(cs_sha256 *h, const void *data, size_t n, cs_error *err);
/* Writes the digest as lower-case hex and frees the state. */
int cs_sha256_end(cs_sha256 *h, char hex[CS_SHA256_HEX], cs_error *err);
void cs_sha256_discard(cs_sha256 *h);

int cs_sha256_file(const char *path, char hex[CS_SHA256_HEX], cs_error *err);
int cs_sha256_bytes(const void *data, size_t n, char hex[CS_SHA256_HEX], cs_error *err);

/* A file's own checksum, kept beside it as "PATH.sha256" in sha256sum's format ("HEX  NAME"), so
 * that the file can be verified where no study recorded it (and by `sha256sum -c`). */
void cs_sha256_sidecar_path(const char *path, char *out, size_t size);
/* Writes the sidecar of path (atomically). */
int cs_sha256_sidecar_write(const char *path, const char hex[CS_SHA256_HEX], cs_error *err);
/* Removes a sidecar that would no longer describe path (before path is replaced). */
void cs_sha256_sidecar_remove(const char *path);
/* Verifies path against its sidecar: 1 verified, 0 no sidecar, -1 an error (a mismatch names
 * the file, both checksums and the rule). hex, when not NULL, receives the file's checksum. */
int cs_sha256_sidecar_verify(const char *path, char hex[CS_SHA256_HEX], cs_error *err);

#endif
