/* Progress of long work: steps done, rate and time left, printed through the log at most every
 * `interval` seconds (CYBERSHAKE_PROGRESS_INTERVAL, default 10 s), plus a closing line. */
#ifndef CS_PROGRESS_H
#define CS_PROGRESS_H

typedef struct {
    char label[64];
    char unit[32];
    long total;
    long done;
    double t0;
    double t_last_print;
    double interval;
} cs_progress;

double cs_now(void);           /* monotonic seconds */
void cs_sleep(double seconds); /* pauses this long (fractions of a second included) */
/* Formats seconds as "1h02m", "3m05s" or "12.3s". */
void cs_format_duration(double seconds, char *out, int size);

void cs_progress_begin(cs_progress *p, const char *label, long total, const char *unit);
void cs_progress_update(cs_progress *p, long done);
/* Prints the closing line and returns the elapsed seconds. */
double cs_progress_end(cs_progress *p);

#endif
