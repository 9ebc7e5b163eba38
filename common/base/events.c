/*  events.c - see events.h. */
#include "events.h"
#include "zs.h"
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define S_ROTATE_BYTES (4 << 20)

static struct {
    int fd;
    char path[ZS_PATH_MAX + 64];
    char name[64];
    off_t size;
} s_log = {.fd = -1};

void
zs_events_close (void)
{
    if (s_log.fd >= 0)
        close (s_log.fd);
    s_log.fd = -1;
}

bool
zs_events_on (void)
{
    return s_log.fd >= 0;
}

void
zs_events_open (const char *dir, const char *name)
{
    zs_events_close ();
    struct stat st;
    if (!dir || !*dir || stat (dir, &st) != 0 || !S_ISDIR (st.st_mode))
        return;
    snprintf (s_log.name, sizeof s_log.name, "%s", name);
    snprintf (s_log.path, sizeof s_log.path, "%s/events-%s.jsonl", dir, name);
    s_log.fd = open (s_log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    s_log.size = s_log.fd >= 0 && fstat (s_log.fd, &st) == 0 ? st.st_size : 0;
}

//  Past the size: the file becomes .1 and a new one starts.
static void
s_rotate (void)
{
    char old[sizeof s_log.path + 4];
    snprintf (old, sizeof old, "%s.1", s_log.path);
    close (s_log.fd);
    rename (s_log.path, old);
    s_log.fd = open (s_log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    s_log.size = 0;
}

void
zs_event (const char *event, const char *fields, ...)
{
    if (s_log.fd < 0)
        return;
    struct timeval tv;
    gettimeofday (&tv, NULL);
    char line[1024];
    int n = snprintf (line, sizeof line, "{\"t\":%lld.%03d,\"p\":\"%s\",\"pid\":%d,\"e\":\"%s\"",
                      (long long) tv.tv_sec * 1000 + tv.tv_usec / 1000, (int) (tv.tv_usec % 1000),
                      s_log.name, (int) getpid (), event);
    if (*fields && n < (int) sizeof line - 2) {
        line[n++] = ',';
        va_list ap;
        va_start (ap, fields);
        int m = vsnprintf (line + n, sizeof line - n - 2, fields, ap);
        va_end (ap);
        if (m < 0 || m >= (int) sizeof line - n - 2)
            return; //  too long to be whole: not written at all
        n += m;
    }
    line[n++] = '}';
    line[n++] = '\n';
    if (write (s_log.fd, line, (size_t) n) == n)
        s_log.size += n;
    if (s_log.size > S_ROTATE_BYTES)
        s_rotate ();
}

const char *
zs_event_str (const char *text, char *buf, size_t len)
{
    size_t k = 0;
    for (const unsigned char *c = (const unsigned char *) text; *c && k + 7 < len; c++) {
        if (*c == '"' || *c == '\\') {
            buf[k++] = '\\';
            buf[k++] = (char) *c;
        } else if (*c < 0x20)
            k += (size_t) snprintf (buf + k, len - k, "\\u%04x", *c);
        else
            buf[k++] = (char) *c;
    }
    buf[k] = 0;
    return buf;
}
