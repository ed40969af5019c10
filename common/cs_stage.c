#include "cs_stage.h"

#include <curl/curl.h>
#include <errno.h>
#include <math.h>
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

void cs_fetch_defaults(cs_fetch_options *o) {
    o->retries = 5;
    o->retry_delay = 1;
    o->connect_timeout = 20;
    o->stall_timeout = 60;
    o->min_speed = 1024;
    o->deadline = 86400;
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

/* libcurl's words for a failure (its error buffer, else its code's text) and the HTTP status
 * when there was one: "Empty reply from server", "The requested URL returned error: 503, HTTP
 * 503". */
static void describe(char *out, size_t size, CURLcode c, const char *errbuf, long http) {
    const char *what = errbuf[0] ? errbuf : curl_easy_strerror(c);
    if (http)
        snprintf(out, size, "%s, HTTP %ld", what, http);
    else
        snprintf(out, size, "%s", what);
}

/* Seconds left before the deadline (at), or a large number when there is none (at <= 0). */
static double left_until(double at) {
    return at > 0 ? at - cs_now() : 1e18;
}

static void common_options(CURL *h, const char *url, const char *scheme, const cs_fetch_options *o,
                           double deadline_at, char *errbuf) {
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "file,http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, scheme);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)(o->connect_timeout * 1000));
    /* a transfer slower than min_speed bytes/s for stall_timeout seconds is abandoned (and
     * retried): a trickle as much as a stall */
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, (long)(o->min_speed < 1 ? 1 : o->min_speed));
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
                     (long)(o->stall_timeout < 1 ? 1 : o->stall_timeout));
    /* the whole transfer ends by the deadline of the fetch (retries included) */
    if (deadline_at > 0) {
        double left = left_until(deadline_at);
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)ceil((left > 0.001 ? left : 0.001) * 1000));
    }
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "cybershake-stage/1");
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
}

/* One attempt of a fetch: the answer's status line and validators (header callback), and DEST.part
 * written from the first byte of the body (write callback), appended to only when the server
 * answered the range asked for on the part it has. */
typedef struct {
    const char *part, *vpath, *url;
    int http;          /* an http(s) URL: answers have a status and validators */
    long long have;    /* bytes of the part this attempt asked the rest of (0: the whole) */
    const char *asked; /* the validator sent in If-Range (NULL: none) */
    FILE *f;
    long status; /* of the last response whose headers came */
    char etag[256], modified[128], range[128];
    int restart;  /* aborted: the answer does not continue the part; start from zero */
    int io_errno; /* aborted: the part or its validator could not be written */
    const char *io_what;
} fetch_attempt;

static void header_value(const char *line, size_t n, const char *name, char *out, size_t size) {
    size_t k = strlen(name);
    if (n <= k || strncasecmp(line, name, k)) return;
    const char *v = line + k;
    const char *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
        end--;
    size_t len = (size_t)(end - v);
    if (len >= size) len = 0; /* a value too long to keep is no validator */
    memcpy(out, v, len);
    out[len] = 0;
}

static size_t on_header(char *line, size_t size, size_t n, void *userdata) {
    fetch_attempt *a = userdata;
    n *= size;
    if (n > 5 && !strncmp(line, "HTTP/", 5)) {
        /* a new response (after a redirect, or the final one): its own headers only */
        const char *sp = memchr(line, ' ', n);
        a->status = sp ? strtol(sp + 1, NULL, 10) : 0;
        a->etag[0] = a->modified[0] = a->range[0] = 0;
        return n;
    }
    header_value(line, n, "ETag:", a->etag, sizeof a->etag);
    header_value(line, n, "Last-Modified:", a->modified, sizeof a->modified);
    header_value(line, n, "Content-Range:", a->range, sizeof a->range);
    return n;
}

/* The validator an answer gives for If-Range on a later attempt: a strong ETag, else the
 * Last-Modified date; "" when it has neither (a weak ETag W/"..." may not be used for ranges). */
static const char *validator_of(const fetch_attempt *a) {
    if (a->etag[0] && a->etag[0] == '"') return a->etag;
    return a->modified;
}

/* DEST.part.validator: the URL and the validator of the answer the part was written from, so
 * that a later attempt (or a later fetch) resumes the part only from the same file.
 * 0, or -1 with errno set: it runs inside libcurl's write callback, which passes the failure
 * on through the attempt (io_errno, io_what) and on_body's short count, not a cs_error. */
static int save_validator(fetch_attempt *a) {
    const char *v = a->http ? validator_of(a) : "";
    if (!v[0]) {
        if (unlink(a->vpath) && errno != ENOENT) return -1;
        return 0;
    }
    char text[4400];
    int n = snprintf(text, sizeof text, "%s\n%s\n", a->url, v);
    if (n < 0 || (size_t)n >= sizeof text) return unlink(a->vpath), 0;
    cs_error e;
    cs_error_clear(&e);
    return cs_atomic_write_file(a->vpath, text, (size_t)n, NULL, &e) ? -1 : 0;
}

/* The validator a part was written under, for this URL: 0 and *v filled, or -1 (none): a
 * lookup, whose "none" is not an error (the part is fetched from the start). */
static int load_validator(const char *vpath, const char *url, char *v, size_t size) {
    FILE *f = fopen(vpath, "r");
    if (!f) return -1;
    char line[4200];
    int ok = fgets(line, sizeof line, f) && !strcmp(cs_trim(line), url) && fgets(v, (int)size, f);
    fclose(f);
    if (!ok) return -1;
    cs_trim(v);
    /* a header value holds no control characters: anything else is not ours */
    for (const char *q = v; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f) return -1;
    return v[0] ? 0 : -1;
}

/* The first byte of a range answer, from its Content-Range ("bytes 1500000-2999999/3000000"),
 * or -1 when it names none (a value, not an error: the part is then not resumed). */
static long long range_start(const char *cr) {
    if (strncasecmp(cr, "bytes ", 6)) return -1;
    char *end;
    long long v = strtoll(cr + 6, &end, 10);
    return end > cr + 6 && *end == '-' ? v : -1;
}

static size_t on_body(char *data, size_t size, size_t n, void *userdata) {
    fetch_attempt *a = userdata;
    n *= size;
    if (!a->f) {
        const char *mode = "wb";
        if (a->have > 0 && a->status == 206) {
            /* the rest of the part, and only if it is the rest of the same file */
            const char *v = validator_of(a);
            if (range_start(a->range) != a->have || (v[0] && a->asked && strcmp(v, a->asked))) {
                a->restart = 1;
                return 0;
            }
            mode = "ab";
        }
        /* Anything else (a 200 to a range request: the file changed, or the server has no
         * ranges) is the whole file from its first byte: the part starts over. */
        a->f = fopen(a->part, mode);
        if (!a->f) {
            a->io_errno = errno, a->io_what = a->part;
            return 0;
        }
        if (!strcmp(mode, "wb")) {
            a->have = 0;
            /* the validator is written after the part is emptied: a part never has the
             * validator of another file */
            if (save_validator(a)) {
                a->io_errno = errno ? errno : EIO, a->io_what = a->vpath;
                return 0;
            }
        }
    }
    if (fwrite(data, 1, n, a->f) != n) {
        a->io_errno = errno ? errno : EIO, a->io_what = a->part;
        return 0;
    }
    return n;
}

/* A part that no later attempt may resume (empty, or without a validator) goes. */
static void drop_unresumable(const char *part, const char *vpath, const char *url) {
    char v[300];
    if (cs_file_size(part) <= 0 || load_validator(vpath, url, v, sizeof v)) {
        unlink(part);
        unlink(vpath);
    }
}

int cs_fetch(const char *url, const char *dest, const char *sha256, const cs_fetch_options *o,
             cs_error *err) {
    const char *scheme = scheme_of(url);
    if (!scheme)
        return cs_error_input(err, "URL", NULL, url,
                              "only file://, http:// and https:// are fetched");
    if (sha256 && strlen(sha256) != 64)
        return cs_error_input(err, "--sha256", NULL, sha256, "a SHA-256 is 64 hex digits");
    CS_CALL(err, curl_ready(err));
    char part[4200], vpath[4300];
    if ((size_t)snprintf(part, sizeof part, "%s.part", dest) >= sizeof part)
        return cs_error_input(err, dest, NULL, NULL, "path too long");
    snprintf(vpath, sizeof vpath, "%s.validator", part);
    double delay = o->retry_delay;
    double deadline_at = o->deadline > 0 ? cs_now() + o->deadline : 0;
    char last[CURL_ERROR_SIZE + 128] = "";
    int restarted = 0, attempts = 0, out_of_time = 0;
    for (int attempt_no = 0; attempt_no <= o->retries; attempt_no++) {
        attempts++;
        fetch_attempt a = {
            .part = part, .vpath = vpath, .url = url, .http = strcmp(scheme, "file") != 0};
        char asked[300] = "", range[64], ifrange[320];
        long long have = cs_file_size(part);
        /* A part is resumed only from the file it was written from: with the validator of
         * that answer, which the server checks (If-Range). Without one it starts over. */
        if (a.http && have > 0 && load_validator(vpath, url, asked, sizeof asked) == 0) {
            a.have = have;
            a.asked = asked;
        } else if (have >= 0) {
            unlink(part);
            unlink(vpath);
        }
        CURL *h = curl_easy_init();
        if (!h) return cs_error_set(err, CS_ERR_RESOURCE, "libcurl: no handle");
        char errbuf[CURL_ERROR_SIZE] = "";
        common_options(h, url, scheme, o, deadline_at, errbuf);
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(h, CURLOPT_HEADERDATA, &a);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &a);
        struct curl_slist *hl = NULL;
        if (a.have > 0) {
            snprintf(range, sizeof range, "%lld-", a.have);
            curl_easy_setopt(h, CURLOPT_RANGE, range);
            snprintf(ifrange, sizeof ifrange, "If-Range: %s", asked);
            hl = curl_slist_append(NULL, ifrange);
            curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
        }
        CURLcode c = curl_easy_perform(h);
        long http = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &http);
        curl_easy_cleanup(h);
        curl_slist_free_all(hl);
        if (a.f && fclose(a.f) && !a.io_errno) a.io_errno = errno, a.io_what = part;
        if (a.io_errno) {
            drop_unresumable(part, vpath, url);
            errno = a.io_errno;
            return cs_error_errno(err, a.io_what, "write the download");
        }
        if (c == CURLE_OK && !a.f) {
            /* an empty file: no body, so nothing was written */
            FILE *f = fopen(part, "wb");
            if (!f || fclose(f)) return cs_error_errno(err, part, "write the download");
        }
        if (a.restart || (c == CURLE_HTTP_RETURNED_ERROR && http == 416)) {
            /* The answer does not continue the part (another file, another range) or the
             * server cannot resume it: start from zero, once without counting an attempt. */
            unlink(part);
            unlink(vpath);
            snprintf(last, sizeof last, "the server did not resume the download (HTTP %ld)", http);
            if (!restarted++) attempt_no--, attempts--;
            continue;
        }
        if (c == CURLE_OK) {
            unlink(vpath);
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
        describe(last, sizeof last, c, errbuf, http);
        if (c == CURLE_UNSUPPORTED_PROTOCOL || c == CURLE_TOO_MANY_REDIRECTS) {
            drop_unresumable(part, vpath, url);
            return cs_error_input(err, url, NULL, NULL,
                                  "refused: %s (redirects may only stay on %s)", last, scheme);
        }
        if (!transient(c, http)) {
            drop_unresumable(part, vpath, url);
            return cs_error_input(err, url, NULL, NULL, "cannot be fetched: %s", last);
        }
        if (attempt_no < o->retries) {
            /* no time left for the pause and another try */
            if (left_until(deadline_at) <= delay) {
                out_of_time = 1;
                break;
            }
            if (!o->quiet)
                fprintf(stderr, "fetch %s: %s; %lld bytes kept, again in %.1f s\n", url, last,
                        cs_file_size(part) > 0 ? cs_file_size(part) : 0, delay);
            cs_sleep(delay);
            delay *= 2;
        }
    }
    drop_unresumable(part, vpath, url);
    if (out_of_time || left_until(deadline_at) <= 0)
        return cs_error_input(err, url, "deadline", NULL,
                              "not fetched within %g s (the fetch's deadline, retries "
                              "included; --deadline), %d attempt%s: %s",
                              o->deadline, attempts, attempts == 1 ? "" : "s", last);
    return cs_error_input(err, url, NULL, NULL, "cannot be fetched after %d attempt%s: %s",
                          attempts, attempts == 1 ? "" : "s", last);
}

/* One PUT: 0, or -1 with the reason in last and *again set when it is worth retrying. Not a
 * cs_error: the retry loop in cs_push decides which failure the user reads. */
static int put_once(const char *url, const char *scheme, FILE *f, long long size, const char *sha,
                    const cs_fetch_options *o, double deadline_at, char *last, size_t lsize,
                    int *again) {
    CURL *h = curl_easy_init();
    if (!h) {
        snprintf(last, lsize, "libcurl: no handle");
        *again = 0;
        return -1;
    }
    char errbuf[CURL_ERROR_SIZE] = "", hdr[128];
    common_options(h, url, scheme, o, deadline_at, errbuf);
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
    describe(last, lsize, c, errbuf, http);
    *again = transient(c, http);
    return -1;
}

int cs_push(const char *path, const char *url, const cs_fetch_options *o, cs_error *err) {
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
    double deadline_at = o->deadline > 0 ? cs_now() + o->deadline : 0;
    char last[CURL_ERROR_SIZE + 128] = "";
    int attempts = 0;
    for (int attempt = 0; attempt <= o->retries; attempt++) {
        attempts++;
        FILE *f = fopen(path, "rb");
        if (!f) return cs_error_errno(err, path, "read the product");
        int again = 0;
        int rc = put_once(url, scheme, f, cs_file_size(path), sha, o, deadline_at, last,
                          sizeof last, &again);
        fclose(f);
        if (!rc) {
            FILE *m = fmemopen(line, strlen(line), "rb");
            if (!m) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            rc = put_once(sum_url, scheme, m, (long long)strlen(line), sha, o, deadline_at, last,
                          sizeof last, &again);
            fclose(m);
        }
        if (!rc) {
            if (!o->quiet) printf("pushed %s -> %s (SHA-256 %s)\n", path, url, sha);
            return 0;
        }
        if (!again) return cs_error_input(err, url, NULL, NULL, "refused %s: %s", path, last);
        if (left_until(deadline_at) <= (attempt < o->retries ? delay : 0))
            return cs_error_input(err, url, "deadline", NULL,
                                  "%s not pushed within %g s (the push's deadline, retries "
                                  "included; --deadline), %d attempt%s: %s",
                                  path, o->deadline, attempts, attempts == 1 ? "" : "s", last);
        if (attempt < o->retries) {
            if (!o->quiet) fprintf(stderr, "push %s: %s; again in %.1f s\n", url, last, delay);
            cs_sleep(delay);
            delay *= 2;
        }
    }
    return cs_error_input(err, url, NULL, NULL, "cannot push %s after %d attempt%s: %s", path,
                          attempts, attempts == 1 ? "" : "s", last);
}

int cs_stage_input(const char *arg, char *local, size_t size, cs_error *err) {
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
        return cs_error_errno(err, dir, "create the staging folder");
    const char *q = strchr(url, '?');
    char path_part[4096];
    cs_copy(path_part, sizeof path_part, url);
    if (q) path_part[q - url] = 0;
    const char *base = strrchr(path_part, '/');
    /* [A-Za-z0-9._-] only, never starting with a dot: no way out of the staging folder */
    char name[256];
    cs_safe_name(base ? base + 1 : path_part, name, sizeof name);
    if ((size_t)snprintf(local, size, "%s/%s", dir, name) >= size)
        return cs_error_input(err, dir, NULL, NULL, "staging path too long");
    if (sha[0] && access(local, R_OK) == 0) {
        char have[CS_SHA256_HEX];
        cs_error e;
        cs_error_clear(&e);
        if (cs_sha256_file(local, have, &e) == 0 && !strcasecmp(have, sha)) return 0;
    }
    cs_fetch_options o;
    cs_fetch_defaults(&o);
    o.quiet = 1;
    return cs_fetch(url, local, sha[0] ? sha : NULL, &o, err);
}
