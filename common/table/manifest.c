/*  manifest.c - the names a manifest may hold (manifest.h); the Avro
    codecs are in manifest_avro.c. */
#include "manifest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
zs_plain_name (const char *name)
{
    return name[0] && !strchr (name, '/') && strcmp (name, ".") != 0 && strcmp (name, "..") != 0;
}

//  A partition directory component "k=v": not empty, '=' after a key, no
//  NUL or '/' (the caller split on it). Such a component is never "." or
//  "..", so a ".." inside a value ("p=a..b") is harmless.
static bool
s_partition_component (const char *c, size_t len)
{
    const char *eq = memchr (c, '=', len);
    return len > 0 && eq && eq > c;
}

int
zs_data_path_split (const char *path, size_t *dir_len, int *bucket, const char **name, char *err,
                    size_t errlen)
{
    const char *why = NULL;
    const char *c = path;
    int depth = 0;
    if (path[0] == '/')
        why = "absolute path";
    //  the partition directories, up to "bucket-"
    while (!why && strncmp (c, "bucket-", 7) != 0) {
        const char *end = strchr (c, '/');
        if (!end || !s_partition_component (c, (size_t) (end - c)) || ++depth > ZS_PARTITION_MAX)
            why = "not under [k=v/…]bucket-N/";
        else
            c = end + 1;
    }
    const char *p = c + 7, *digits = p;
    while (!why && *p >= '0' && *p <= '9')
        p++;
    if (!why && (p == digits || p - digits > 7 || *p != '/'))
        why = "not under [k=v/…]bucket-N/";
    //  the file name: a plain name, and (belt and braces) no ".." anywhere
    //  in it, so no later change to the check can open a way out of the
    //  table
    if (!why && (!zs_plain_name (p + 1) || strstr (p + 1, "..")))
        why = strchr (p + 1, '/') ? "a directory below the bucket" : "not a plain file name";
    if (why) {
        snprintf (err, errlen, "data file path '%s': %s", path, why);
        return -1;
    }
    *dir_len = c > path ? (size_t) (c - path - 1) : 0;
    *bucket = atoi (digits);
    *name = p + 1;
    return 0;
}

int
zs_data_path_check (const char *path, char *err, size_t errlen)
{
    size_t dir_len;
    int bucket;
    const char *name;
    return zs_data_path_split (path, &dir_len, &bucket, &name, err, errlen);
}
