/*  log.h - one log line format for every process:

        2026-12-02 15:20:01.123 INFO  [coordinator] Completed checkpoint 3 for job …

    Lines go to stderr, unbuffered, one write(2) each, so lines of child
    processes interleave whole. Message texts that tests match are stable.
*/
#ifndef ZS_LOG_H_INCLUDED
#define ZS_LOG_H_INCLUDED

typedef enum { ZS_LOG_DEBUG = 0, ZS_LOG_INFO, ZS_LOG_WARN, ZS_LOG_ERROR } zs_log_level_t;

//  Name shown in brackets, e.g. "writer-2". Copied. Also takes the level
//  from env ZSINK_LOG_LEVEL when it names one (zsink cluster sets it from
//  log.level for its children).
void zs_log_set_name (const char *name);
//  "debug", "info", "warn" or "error" (any case): the level; else -1.
int zs_log_level_parse (const char *name);
void zs_log_set_level (zs_log_level_t level);
void zs_log (zs_log_level_t level, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

#define zs_debug(...) zs_log (ZS_LOG_DEBUG, __VA_ARGS__)
#define zs_info(...) zs_log (ZS_LOG_INFO, __VA_ARGS__)
#define zs_warn(...) zs_log (ZS_LOG_WARN, __VA_ARGS__)
#define zs_error(...) zs_log (ZS_LOG_ERROR, __VA_ARGS__)

#endif
