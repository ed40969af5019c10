#include "cs_sha256.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_atomic.h"

#ifdef CS_HAVE_OPENSSL
#include <openssl/evp.h>

struct cs_sha256 {
    EVP_MD_CTX *ctx;
};

int cs_sha256_available(void) {
    return 1;
}

int cs_sha256_begin(cs_sha256 **out, cs_error *err) {
    *out = NULL;
    cs_sha256 *h = malloc(sizeof *h);
    if (!h) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    h->ctx = EVP_MD_CTX_new();
    if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1) {
        cs_sha256_discard(h);
        return cs_error_set(err, CS_ERR_INTERNAL, "OpenSSL could not start a SHA-256 digest");
    }
    *out = h;
    return 0;
}

int cs_sha256_update(cs_sha256 *h, const void *data, size_t n, cs_error *err) {
    if (EVP_DigestUpdate(h->ctx, data, n) != 1)
        return cs_error_set(err, CS_ERR_INTERNAL, "OpenSSL SHA-256 update failed");
    return 0;
}

int cs_sha256_end(cs_sha256 *h, char hex[CS_SHA256_HEX], cs_error *err) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    int ok = EVP_DigestFinal_ex(h->ctx, md, &len) == 1 && len == 32;
    cs_sha256_discard(h);
    if (!ok) return cs_error_set(err, CS_ERR_INTERNAL, "OpenSSL SHA-256 final failed");
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[64] = '\0';
    return 0;
}

void cs_sha256_discard(cs_sha256 *h) {
    if (!h) return;
    EVP_MD_CTX_free(h->ctx);
    free(h);
}
#else
struct cs_sha256 {
    int unused;
};
int cs_sha256_available(void) {
    return 0;
}
int cs_sha256_begin(cs_sha256 **out, cs_error *err) {
    *out = NULL;
    return cs_error_set(err, CS_ERR_RESOURCE,
                        "this build has no SHA-256 (built without OpenSSL); run 'cybershake "
                        "check' on a full build to checksum the outputs");
}
int cs_sha256_update(cs_sha256 *h, const void *data, size_t n, cs_error *err) {
    (void)h, (void)data, (void)n;
    return cs_error_set(err, CS_ERR_INTERNAL, "no SHA-256 in this build");
}
int cs_sha256_end(cs_sha256 *h, char hex[CS_SHA256_HEX], cs_error *err) {
    (void)h;
    hex[0] = '\0';
    return cs_error_set(err, CS_ERR_INTERNAL, "no SHA-256 in this build");
}
void cs_sha256_discard(cs_sha256 *h) {
    (void)h;
}
#endif

int cs_sha256_bytes(const void *data, size_t n, char hex[CS_SHA256_HEX], cs_error *err) {
    cs_sha256 *h;
    int rc;
    CS_CALL(err, cs_sha256_begin(&h, err));
    CS_CALL_GOTO(rc, err, cs_sha256_update(h, data, n, err), fail);
    return cs_sha256_end(h, hex, err);
fail:
    cs_sha256_discard(h);
    return rc;
}

int cs_sha256_file(const char *path, char hex[CS_SHA256_HEX], cs_error *err) {
    cs_sha256 *h;
    int rc = 0;
    CS_CALL(err, cs_sha256_begin(&h, err));
    FILE *f = fopen(path, "rb");
    if (!f) {
        cs_sha256_discard(h);
        return cs_error_errno(err, path, "open for checksum");
    }
    enum { CHUNK = 1 << 20 };
    unsigned char *buf = malloc(CHUNK);
    if (!buf) {
        fclose(f);
        cs_sha256_discard(h);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    size_t got;
    while ((got = fread(buf, 1, CHUNK, f)) > 0) {
        rc = cs_sha256_update(h, buf, got, err);
        if (rc) {
            CS_TRACE(err);
            break;
        }
    }
    if (!rc && ferror(f)) rc = cs_error_errno(err, path, "read for checksum");
    free(buf);
    fclose(f);
    if (rc) {
        cs_sha256_discard(h);
        return rc;
    }
    return cs_sha256_end(h, hex, err);
}

void cs_sha256_sidecar_path(const char *path, char *out, size_t size) {
    snprintf(out, size, "%s.sha256", path);
}

int cs_sha256_sidecar_write(const char *path, const char hex[CS_SHA256_HEX], cs_error *err) {
    char side[4200];
    cs_sha256_sidecar_path(path, side, sizeof side);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, side, err));
    fprintf(a.f, "%s  %s\n", hex, base);
    return cs_atomic_commit(&a, NULL, err);
}

void cs_sha256_sidecar_remove(const char *path) {
    char side[4200];
    cs_sha256_sidecar_path(path, side, sizeof side);
    unlink(side);
}

int cs_sha256_sidecar_verify(const char *path, char hex[CS_SHA256_HEX], cs_error *err) {
    char side[4200], line[256] = "", want[CS_SHA256_HEX] = "", got[CS_SHA256_HEX];
    cs_sha256_sidecar_path(path, side, sizeof side);
    FILE *f = fopen(side, "r");
    if (!f) {
        if (errno == ENOENT) return 0;
        cs_error_errno(err, side, "cannot read the checksum file");
        return -1;
    }
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    size_t n = ok ? strspn(line, "0123456789abcdef") : 0;
    if (n != CS_SHA256_HEX - 1 || (line[n] != ' ' && line[n] != '\n')) {
        cs_error_input(err, side, NULL, NULL,
                       "is not a checksum file (64 lower-case hex digits, two spaces and "
                       "the file's name)");
        return -1;
    }
    memcpy(want, line, CS_SHA256_HEX - 1);
    want[CS_SHA256_HEX - 1] = 0;
    if (cs_sha256_file(path, got, err)) {
        CS_TRACE(err);
        return -1; /* not a status: 0 and 1 are answers (cs_sha256.h), so an error is -1 */
    }
    if (hex) memcpy(hex, got, CS_SHA256_HEX);
    if (strcmp(got, want)) {
        cs_error_input(err, path, "SHA-256", got,
                       "differs from %s, written with the file (%s): the file changed "
                       "or was damaged after it was made",
                       want, side);
        return -1;
    }
    return 1;
}
