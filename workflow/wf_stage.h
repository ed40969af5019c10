/* Staging through libcurl: inputs fetched from file://, http:// or https:// URLs into local
 * files, products pushed to a URL (HTTP PUT / WebDAV) with their checksum.
 *
 * A fetch writes DEST.part, resumes it with an HTTP range request after an interrupted
 * transfer, retries time-outs, dropped connections, 429 and 5xx answers with a doubling pause,
 * follows redirects only to the URL's own scheme, verifies TLS, checks the SHA-256 it was given
 * and only then renames DEST.part to DEST: a file under DEST is always complete and verified. */
#ifndef WF_STAGE_H
#define WF_STAGE_H

#include "cs_error.h"
#include "cs_sha256.h"

typedef struct {
    int retries;            /* attempts after the first (5) */
    double retry_delay;     /* s, first pause, doubling (1) */
    double connect_timeout; /* s (20) */
    double stall_timeout;   /* s without a byte before a transfer is abandoned (60) */
    int quiet;
} wf_fetch_options;

void wf_fetch_defaults(wf_fetch_options *o);
/* sha256: the 64 hex digits DEST must have, or NULL (then its checksum is only printed). */
int wf_fetch(const char *url, const char *dest, const char *sha256, const wf_fetch_options *o,
             cs_error *err);
/* PUTs FILE to URL and its checksum to URL.sha256 (sha256sum's format); the SHA-256 also goes
 * in an X-Checksum-Sha256 header. Same retries as a fetch. */
int wf_push(const char *path, const char *url, const wf_fetch_options *o, cs_error *err);

/* An input named by a path or by a URL. A URL (file, http, https; a "#sha256=HEX" fragment
 * gives the checksum its download must have, and is never sent) is fetched into the staging
 * folder ($CYBERSHAKE_STAGE_DIR, or /tmp/cybershake-stage-UID) under its sanitised base name,
 * reused when it is already there with that checksum; *local is then its path. A path is
 * copied to *local as it is. */
int wf_stage_input(const char *arg, char *local, size_t size, cs_error *err);

#endif
