/* Staging through libcurl: inputs fetched from file://, http:// and https:// URLs into local
 * files, products pushed to a URL (HTTP PUT / WebDAV) with their checksum.
 *
 * A fetch writes DEST.part from the first byte of the answer's body (a fetch that gets no body
 * leaves no part). An http(s) answer's validator (a strong ETag, else Last-Modified) is kept
 * beside it in DEST.part.validator with the URL; a later attempt resumes the part only with
 * that validator, as a range request with If-Range: a 206 that continues the part is appended,
 * a 200 (the file changed, or the server has no ranges) restarts the part from zero, and a part
 * without a validator (or of another URL, or a file:// URL) is started over: a part is never
 * spliced from two versions of a file. Time-outs, dropped connections, 429 and 5xx answers are
 * retried with a doubling pause, all within the fetch's deadline; redirects are followed only
 * to the URL's own scheme; TLS is verified; the SHA-256 it was given is checked and only then
 * is DEST.part renamed to DEST: a file under DEST is always complete and verified. A failed
 * fetch leaves a part only where a later fetch may resume it. */
#ifndef CS_STAGE_H
#define CS_STAGE_H

#include "cs_error.h"
#include "cs_sha256.h"

typedef struct {
    int retries;            /* attempts after the first (5) */
    double retry_delay;     /* s, first pause, doubling (1) */
    double connect_timeout; /* s (20) */
    double stall_timeout;   /* s slower than min_speed before a transfer is abandoned (60) */
    double min_speed;       /* bytes/s: a transfer slower than this for stall_timeout is
                               abandoned and retried, a trickle as much as a stall (1024) */
    double deadline;        /* s: the whole fetch or push, retries and pauses included, ends by
                               then (86400; 0: none) */
    int quiet;
} cs_fetch_options;

void cs_fetch_defaults(cs_fetch_options *o);
/* sha256: the 64 hex digits DEST must have, or NULL (then its checksum is only printed). */
int cs_fetch(const char *url, const char *dest, const char *sha256, const cs_fetch_options *o,
             cs_error *err);
/* PUTs FILE to URL and its checksum to URL.sha256 (sha256sum's format); the SHA-256 also goes
 * in an X-Checksum-Sha256 header. Same retries as a fetch. */
int cs_push(const char *path, const char *url, const cs_fetch_options *o, cs_error *err);

/* An input named by a path or by a URL. A URL (file, http, https; a "#sha256=HEX" fragment
 * gives the checksum its download must have, and is never sent) is fetched into the staging
 * folder ($CYBERSHAKE_STAGE_DIR, or /tmp/cybershake-stage-UID) under its sanitised base name,
 * reused when it is already there with that checksum; *local is then its path. A path is
 * copied to *local as it is. */
int cs_stage_input(const char *arg, char *local, size_t size, cs_error *err);

#endif
