#include "cs_fault.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Arrivals of this process at the point the environment names; other points are not counted. */
static long arrivals;

/* Whether `point` is what `want` ("POINT" or "POINT:N") names; *nth is N (1 when not given). */
static int names_point(const char *want, const char *point, long *nth) {
    const char *colon = strrchr(want, ':');
    long nth_given = 1;
    size_t len = strlen(want);
    /* "POINT:N" when what follows the last colon is a count; point names hold colons too */
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        nth_given = atol(colon + 1);
        len = (size_t)(colon - want);
    }
    *nth = nth_given;
    return strlen(point) == len && !strncmp(point, want, len);
}

void cs_fault_point(const char *point) {
    const char *pause = getenv("CYBERSHAKE_FAULT_PAUSE_AT");
    long nth;
    /* stopped, not killed: the test looks at the world meanwhile and sends SIGCONT */
    if (pause && *pause && names_point(pause, point, &nth)) {
        fprintf(stderr, "cybershake: fault injection: paused at %s\n", point);
        fflush(stderr);
        raise(SIGSTOP);
    }
    const char *want = getenv("CYBERSHAKE_FAULT_KILL_AT");
    if (!want || !*want || !names_point(want, point, &nth)) return;
    if (++arrivals < nth) return;
    fprintf(stderr, "cybershake: fault injection: killed at %s (point %s, arrival %ld)\n", want,
            point, arrivals);
    fflush(stderr);
    const char *group = getenv("CYBERSHAKE_FAULT_KILL_GROUP");
    pid_t own = getpgrp();
    if (group && atol(group) > 1) {
        pid_t g = (pid_t)atol(group);
        if (g != own) {
            kill(-g, SIGKILL);   /* the driver first: a step's group does not hold it */
            kill(-own, SIGKILL); /* then the step's group: mpirun and its ranks, this one too */
        }
        kill(-g, SIGKILL);
    }
    raise(SIGKILL);
}

void cs_fault_point2(const char *prefix, const char *name) {
    if (!getenv("CYBERSHAKE_FAULT_KILL_AT") && !getenv("CYBERSHAKE_FAULT_PAUSE_AT")) return;
    char point[256];
    snprintf(point, sizeof point, "%s:%s", prefix, name);
    cs_fault_point(point);
}
