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

#endif
