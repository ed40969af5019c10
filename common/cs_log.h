/* Logging with levels and the MPI rank.
 *
 * Lines go to stderr as "cybershake[rank 3] warn: message". The level comes from
 * CYBERSHAKE_LOG (error, warn, info, debug) or from cs_log_set_level; by default only rank 0
 * prints info and debug so that N ranks do not repeat the same line N times. */
#ifndef CS_LOG_H
#define CS_LOG_H

typedef enum { CS_LOG_ERROR = 0, CS_LOG_WARN = 1, CS_LOG_INFO = 2, CS_LOG_DEBUG = 3 } cs_log_level;

void cs_log_init_from_env(void);
void cs_log_set_level(cs_log_level level);
cs_log_level cs_log_get_level(void);
/* rank < 0 means "not an MPI program"; size is the number of ranks. */
void cs_log_set_rank(int rank, int size);
int cs_log_rank(void);
/* When set, every rank prints info and debug, not only rank 0. */
void cs_log_set_all_ranks(int on);
/* A level's name ("error", "warn", "info", "debug") into *out: 0, or -1 when text names none
 * (an answer: the caller says what it read and the names). */
int cs_log_parse_level(const char *text, cs_log_level *out);

void cs_log(cs_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define cs_error_log(...) cs_log(CS_LOG_ERROR, __VA_ARGS__)
#define cs_warn(...)      cs_log(CS_LOG_WARN, __VA_ARGS__)
#define cs_info(...)      cs_log(CS_LOG_INFO, __VA_ARGS__)
#define cs_debug(...)     cs_log(CS_LOG_DEBUG, __VA_ARGS__)

#endif
