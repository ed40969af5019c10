#include <errno.h>
#include "cs_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cs_log.h"
#include "cs_strutil.h"

double cs_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cs_sleep(double seconds) {
    if (!(seconds > 0)) return;
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

void cs_format_duration(double s, char *out, int size) {
    if (s < 0) s = 0;
    if (s < 60)
        snprintf(out, (size_t)size, "%.1fs", s);
    else if (s < 3600)
        snprintf(out, (size_t)size, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(out, (size_t)size, "%dh%02dm", (int)(s / 3600), ((int)s % 3600) / 60);
}

void cs_progress_begin(cs_progress *p, const char *label, long total, const char *unit) {
    cs_copy(p->label, sizeof p->label, label);
    cs_copy(p->unit, sizeof p->unit, unit);
    p->total = total;
    p->done = 0;
    p->t0 = p->t_last_print = cs_now();
    p->interval = 10.0;
    const char *env = getenv("CYBERSHAKE_PROGRESS_INTERVAL");
    if (env) p->interval = atof(env);
}

static void print_line(cs_progress *p, double now) {
    double el = now - p->t0;
    double rate = el > 0 ? (double)p->done / el : 0.0;
    char left[32] = "?";
    if (rate > 0 && p->total > 0) cs_format_duration((double)(p->total - p->done) / rate, left, 32);
    double pct = p->total > 0 ? 100.0 * (double)p->done / (double)p->total : 0.0;
    cs_info("%s: %s %ld/%ld (%.1f%%), %.3g %s/s, %s left", p->label, p->unit, p->done, p->total,
            pct, rate, p->unit, left);
}

void cs_progress_update(cs_progress *p, long done) {
    p->done = done;
    double now = cs_now();
    if (now - p->t_last_print >= p->interval && done < p->total) {
        p->t_last_print = now;
        print_line(p, now);
    }
}

double cs_progress_end(cs_progress *p) {
    double el = cs_now() - p->t0;
    char d[32];
    cs_format_duration(el, d, sizeof d);
    double rate = el > 0 ? (double)p->done / el : 0.0;
    cs_info("%s: %ld %s in %s (%.3g %s/s)", p->label, p->done, p->unit, d, rate, p->unit);
    return el;
}
