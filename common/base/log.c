/*  log.c - see log.h. */
#include "log.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static char s_name[64] = "zsink";
static zs_log_level_t s_level = ZS_LOG_INFO;
static const char *s_level_names[] = {"DEBUG", "INFO ", "WARN ", "ERROR"};

void
zs_log_set_name (const char *name)
{
    snprintf (s_name, sizeof s_name, "%s", name);
    //  the level a supervisor asks of its children (log.level), from the
    //  first line on
    int level = zs_log_level_parse (getenv ("ZSINK_LOG_LEVEL"));
    if (level >= 0)
        s_level = (zs_log_level_t) level;
}

int
zs_log_level_parse (const char *name)
{
    static const char *names[] = {"debug", "info", "warn", "error"};
    for (int i = 0; name && i < 4; i++)
        if (strcasecmp (name, names[i]) == 0)
            return i;
    return -1;
}

void
zs_log_set_level (zs_log_level_t level)
{
    s_level = level;
}

void
zs_log (zs_log_level_t level, const char *fmt, ...)
{
    if (level < s_level)
        return;
    struct timeval tv;
    gettimeofday (&tv, NULL);
    struct tm tm;
    localtime_r (&tv.tv_sec, &tm);
    char line[4096];
    int n = (int) strftime (line, sizeof line, "%Y-%m-%d %H:%M:%S", &tm);
    n += snprintf (line + n, sizeof line - n, ".%03d %s [%s] ", (int) (tv.tv_usec / 1000),
                   s_level_names[level], s_name);
    va_list ap;
    va_start (ap, fmt);
    int m = vsnprintf (line + n, sizeof line - n - 1, fmt, ap);
    va_end (ap);
    //  vsnprintf reports what it would have written; clamp to what it did
    if (m < 0)
        m = 0;
    n += m;
    if (n > (int) sizeof line - 2)
        n = (int) sizeof line - 2;
    line[n++] = '\n';
    //  one write: whole lines even when processes share a pipe
    ssize_t rc = write (STDERR_FILENO, line, n);
    (void) rc;
}
