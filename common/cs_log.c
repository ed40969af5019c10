#include "cs_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cs_log_level g_level = CS_LOG_INFO;
static int g_rank = -1;
static int g_size = 1;
static int g_all_ranks = 0;

static const char *level_names[] = {"error", "warn", "info", "debug"};

int cs_log_parse_level(const char *text, cs_log_level *out) {
    for (int i = 0; i < 4; i++)
        if (text && strcmp(text, level_names[i]) == 0) {
            *out = (cs_log_level)i;
            return 0;
        }
    return -1;
}

void cs_log_init_from_env(void) {
    const char *v = getenv("CYBERSHAKE_LOG");
    cs_log_level lvl;
    if (v && cs_log_parse_level(v, &lvl) == 0) g_level = lvl;
    const char *all = getenv("CYBERSHAKE_LOG_ALL_RANKS");
    if (all && strcmp(all, "1") == 0) g_all_ranks = 1;
}

void cs_log_set_level(cs_log_level level) {
    g_level = level;
}
cs_log_level cs_log_get_level(void) {
    return g_level;
}
void cs_log_set_rank(int rank, int size) {
    g_rank = rank;
    g_size = size;
}
int cs_log_rank(void) {
    return g_rank;
}
void cs_log_set_all_ranks(int on) {
    g_all_ranks = on;
}

void cs_log(cs_log_level level, const char *fmt, ...) {
    if (level > g_level) return;
    if (level >= CS_LOG_INFO && g_rank > 0 && !g_all_ranks) return;
    char line[4096];
    int n;
    if (g_rank >= 0 && g_size > 1)
        n = snprintf(line, sizeof line, "cybershake[rank %d] %s: ", g_rank, level_names[level]);
    else
        n = snprintf(line, sizeof line, "cybershake %s: ", level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    /* One fputs per line keeps lines from different ranks from interleaving mid-line. */
    size_t len = strlen(line);
    if (len + 1 < sizeof line && (len == 0 || line[len - 1] != '\n')) {
        line[len] = '\n';
        line[len + 1] = '\0';
    }
    fputs(line, stderr);
}
