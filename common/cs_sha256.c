#include "cs_sha256.h"

#include <stdio.h>
#include <stdlib.h>

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
