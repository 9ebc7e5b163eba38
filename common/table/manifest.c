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

int
zs_data_path_check (const char *path, char *err, size_t errlen)
{
    const char *why = NULL;
    if (path[0] == '/')
        why = "absolute path";
    else if (strncmp (path, "bucket-", 7) != 0)
        why = "not under bucket-N/";
    else {
        const char *p = path + 7;
        const char *digits = p;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p == digits || *p != '/')
            why = "not under bucket-N/";
        else {
            //  Every remaining component must be a plain name: this also
            //  refuses "..", "." and empty components ("a//b", trailing /).
            for (const char *c = p + 1; !why; c = strchr (c, '/') + 1) {
                const char *end = strchr (c, '/');
                size_t len = end ? (size_t) (end - c) : strlen (c);
                if (len == 0 || (len == 1 && c[0] == '.')
                    || (len == 2 && c[0] == '.' && c[1] == '.'))
                    why = "empty, '.' or '..' path component";
                if (!end)
                    break;
            }
        }
    }
    //  Belt and braces: no ".." anywhere, even inside a name, so no later
    //  change to the component check can open a way out of the table.
    if (!why && strstr (path, ".."))
        why = "contains '..'";
    if (why) {
        snprintf (err, errlen, "data file path '%s': %s", path, why);
        return -1;
    }
    return 0;
}
