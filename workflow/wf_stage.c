#include "wf_stage.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "cs_progress.h"
#include "cs_strutil.h"
#include "wf_plan.h"

void wf_fetch_defaults(wf_fetch_options *o) {
    o->retries = 5;
    o->retry_delay = 1;
    o->connect_timeout = 20;
    o->stall_timeout = 60;
    o->quiet = 0;
}

static int curl_ready(cs_error *err) {
    static int done = 0;
    if (!done && curl_global_init(CURL_GLOBAL_DEFAULT))
        return cs_error_set(err, CS_ERR_INTERNAL, "libcurl would not initialise");
    done = 1;
    return 0;
}

/* The scheme of a URL, which redirects must keep ("http", "https", "file"), or NULL. */
static const char *scheme_of(const char *url) {
    if (cs_starts_with(url, "https://")) return "https";
    if (cs_starts_with(url, "http://")) return "http";
    if (cs_starts_with(url, "file://")) return "file";
    return NULL;
}

/* What a failed transfer means: 1 worth another try, 0 final. */
static int transient(CURLcode c, long http) {
    if (c == CURLE_HTTP_RETURNED_ERROR || c == CURLE_OK)
        return http == 408 || http == 429 || http >= 500;
    return c == CURLE_OPERATION_TIMEDOUT || c == CURLE_COULDNT_CONNECT || c == CURLE_PARTIAL_FILE ||
           c == CURLE_RECV_ERROR || c == CURLE_SEND_ERROR || c == CURLE_GOT_NOTHING ||
           c == CURLE_COULDNT_RESOLVE_HOST;
}

static void common_options(CURL *h, const char *url, const char *scheme, const wf_fetch_options *o,
                           char *errbuf) {
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "file,http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, scheme);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)(o->connect_timeout * 1000));
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
                     (long)(o->stall_timeout < 1 ? 1 : o->stall_timeout));
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "cybershake-stage/1");
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
}

int wf_fetch(const char *url, const char *dest, const char *sha256, const wf_fetch_options *o,
             cs_error *err) {
    const char *scheme = scheme_of(url);
    if (!scheme)
        return cs_error_input(err, "URL", NULL, url,
                              "only file://, http:// and https:// are fetched");
    if (sha256 && strlen(sha256) != 64)
        return cs_error_input(err, "--sha256", NULL, sha256, "a SHA-256 is 64 hex digits");
    CS_CALL(err, curl_ready(err));
    char part[4200];
    snprintf(part, sizeof part, "%s.part", dest);
    double delay = o->retry_delay;
    char last[CURL_ERROR_SIZE + 128] = "";
    for (int attempt = 0; attempt <= o->retries; attempt++) {
        long long have = cs_file_size(part);
        if (have < 0) have = 0;
        FILE *f = fopen(part, have > 0 ? "ab" : "wb");
        if (!f) return cs_error_errno(err, part, "cannot write the download");
        CURL *h = curl_easy_init();
        if (!h) {
            fclose(f);
            return cs_error_set(err, CS_ERR_RESOURCE, "libcurl: no handle");
        }
        char errbuf[CURL_ERROR_SIZE] = "";
        common_options(h, url, scheme, o, errbuf);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, f);
        if (have > 0) curl_easy_setopt(h, CURLOPT_RESUME_FROM_LARGE, (curl_off_t)have);
        CURLcode c = curl_easy_perform(h);
        long http = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &http);
        curl_easy_cleanup(h);
        if (fclose(f)) c = CURLE_WRITE_ERROR;
        if (c == CURLE_RANGE_ERROR || (c == CURLE_HTTP_RETURNED_ERROR && http == 416)) {
            /* The server cannot resume (or the part is already whole): start over. */
            unlink(part);
            snprintf(last, sizeof last, "the server refused to resume (HTTP %ld)", http);
            continue;
        }
        if (c == CURLE_OK) {
            char sha[CS_SHA256_HEX];
            CS_CALL(err, cs_sha256_file(part, sha, err));
            if (sha256 && strcasecmp(sha, sha256)) {
                unlink(part);
                return cs_error_input(err, url, "SHA-256", sha,
                                      "differs from the %s it must have; the download is "
                                      "deleted",
                                      sha256);
            }
            CS_CALL(err, cs_atomic_publish(part, dest, NULL, err));
            if (!o->quiet)
                printf("fetched %s -> %s (%lld bytes, SHA-256 %s)\n", url, dest, cs_file_size(dest),
                       sha);
            return 0;
        }
        if (c == CURLE_UNSUPPORTED_PROTOCOL || c == CURLE_TOO_MANY_REDIRECTS)
            return cs_error_input(err, url, NULL, NULL,
                                  "refused: %s (redirects may only stay on %s)",
                                  errbuf[0] ? errbuf : curl_easy_strerror(c), scheme);
        snprintf(last, sizeof last, "%s%s%ld", errbuf[0] ? errbuf : curl_easy_strerror(c),
                 http ? ", HTTP " : "", http);
        if (!transient(c, http))
            return cs_error_input(err, url, NULL, NULL, "cannot be fetched: %s", last);
        if (attempt < o->retries) {
            if (!o->quiet)
                fprintf(stderr, "fetch %s: %s; %lld bytes kept, again in %.1f s\n", url, last,
                        cs_file_size(part), delay);
            cs_sleep(delay);
            delay *= 2;
        }
    }
    return cs_error_input(err, url, NULL, NULL, "cannot be fetched after %d attempts: %s",
                          o->retries + 1, last);
}

static int put_once(const char *url, const char *scheme, FILE *f, long long size, const char *sha,
                    const wf_fetch_options *o, char *last, size_t lsize, int *again) {
    CURL *h = curl_easy_init();
    if (!h) {
        snprintf(last, lsize, "libcurl: no handle");
        *again = 0;
        return -1;
    }
    char errbuf[CURL_ERROR_SIZE] = "", hdr[128];
    common_options(h, url, scheme, o, errbuf);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_READDATA, f);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size);
    snprintf(hdr, sizeof hdr, "X-Checksum-Sha256: %s", sha);
    struct curl_slist *hl = curl_slist_append(NULL, hdr);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    CURLcode c = curl_easy_perform(h);
    long http = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &http);
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    if (c == CURLE_OK && (http == 0 || (http >= 200 && http < 300))) return 0;
    snprintf(last, lsize, "%s%s%ld", errbuf[0] ? errbuf : curl_easy_strerror(c),
             http ? ", HTTP " : "", http);
    *again = transient(c, http);
    return -1;
}

int wf_push(const char *path, const char *url, const wf_fetch_options *o, cs_error *err) {
    const char *scheme = scheme_of(url);
    if (!scheme)
        return cs_error_input(err, "URL", NULL, url,
                              "only file://, http:// and https:// are pushed to");
    CS_CALL(err, curl_ready(err));
    char sha[CS_SHA256_HEX];
    CS_CALL(err, cs_sha256_file(path, sha, err));
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char line[4300];
    snprintf(line, sizeof line, "%s  %s\n", sha, base);
    char sum_url[4200];
    snprintf(sum_url, sizeof sum_url, "%s.sha256", url);
    double delay = o->retry_delay;
    char last[CURL_ERROR_SIZE + 128] = "";
    for (int attempt = 0; attempt <= o->retries; attempt++) {
        FILE *f = fopen(path, "rb");
        if (!f) return cs_error_errno(err, path, "cannot read the product");
        int again = 0;
        int rc = put_once(url, scheme, f, cs_file_size(path), sha, o, last, sizeof last, &again);
        fclose(f);
        if (!rc) {
            FILE *m = fmemopen(line, strlen(line), "rb");
            if (!m) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            rc = put_once(sum_url, scheme, m, (long long)strlen(line), sha, o, last, sizeof last,
                          &again);
            fclose(m);
        }
        if (!rc) {
            if (!o->quiet) printf("pushed %s -> %s (SHA-256 %s)\n", path, url, sha);
            return 0;
        }
        if (!again) return cs_error_input(err, url, NULL, NULL, "refused %s: %s", path, last);
        if (attempt < o->retries) {
            if (!o->quiet) fprintf(stderr, "push %s: %s; again in %.1f s\n", url, last, delay);
            cs_sleep(delay);
            delay *= 2;
        }
    }
    return cs_error_input(err, url, NULL, NULL, "cannot push %s after %d attempts: %s", path,
                          o->retries + 1, last);
}

int wf_stage_input(const char *arg, char *local, size_t size, cs_error *err) {
    if (!scheme_of(arg)) {
        if (cs_copy(local, size, arg)) return cs_error_input(err, arg, NULL, NULL, "path too long");
        return 0;
    }
    char url[4096], sha[80] = "";
    if (cs_copy(url, sizeof url, arg)) return cs_error_input(err, "URL", NULL, arg, "too long");
    char *frag = strchr(url, '#');
    if (frag) {
        *frag++ = 0;
        if (!cs_starts_with(frag, "sha256=") || strlen(frag + 7) != 64)
            return cs_error_input(err, arg, "fragment", frag,
                                  "the only fragment a staged URL takes is #sha256= and 64 hex "
                                  "digits");
        cs_copy(sha, sizeof sha, frag + 7);
    }
    char dir[4096];
    const char *env = getenv("CYBERSHAKE_STAGE_DIR");
    if (env && *env)
        cs_copy(dir, sizeof dir, env);
    else
        snprintf(dir, sizeof dir, "/tmp/cybershake-stage-%d", (int)getuid());
    if (mkdir(dir, 0700) && errno != EEXIST)
        return cs_error_errno(err, dir, "cannot create the staging folder");
    const char *q = strchr(url, '?');
    char path_part[4096];
    cs_copy(path_part, sizeof path_part, url);
    if (q) path_part[q - url] = 0;
    const char *base = strrchr(path_part, '/');
    /* [A-Za-z0-9._-] only, never starting with a dot: no way out of the staging folder */
    char name[256];
    wf_safe_name(base ? base + 1 : path_part, name, sizeof name);
    if ((size_t)snprintf(local, size, "%s/%s", dir, name) >= size)
        return cs_error_input(err, dir, NULL, NULL, "staging path too long");
    if (sha[0] && access(local, R_OK) == 0) {
        char have[CS_SHA256_HEX];
        cs_error e;
        cs_error_clear(&e);
        if (cs_sha256_file(local, have, &e) == 0 && !strcasecmp(have, sha)) return 0;
    }
    wf_fetch_options o;
    wf_fetch_defaults(&o);
    o.quiet = 1;
    return wf_fetch(url, local, sha[0] ? sha : NULL, &o, err);
}
