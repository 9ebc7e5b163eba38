/*  config_dirs.c - see config.h (zs_config_check_dirs): can the job write
    where its path keys say? Beside config.c, which parses and checks the
    keys' text and touches no disk.
*/
#include "config.h"
#include "fs.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

//  One directory of key (optional: only if it is there): ZS_EREFUSED when
//  it is permanently not writable.
static int
s_check_dir (const char *key, const char *dir, bool optional, char *err, size_t errlen)
{
    struct stat st;
    if (optional && (stat (dir, &st) != 0 || !S_ISDIR (st.st_mode)))
        return 0; //  not there yet: made under its parent, checked already
    if (!optional && zs_config_not_dir (key, dir, err, errlen) != 0)
        return ZS_EREFUSED;
    char why[ZS_ERRLEN + ZS_PATH_MAX];
    if (zs_fs_probe_dir (dir, why, sizeof why) == 0 || !zs_fs_errno_permanent (errno))
        return 0;
    if (err && errlen)
        snprintf (err, errlen, "%s: %s (no restart can change that)", key, why);
    return ZS_EREFUSED;
}

int
zs_config_not_dir (const char *key, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (strncmp (path, "s3://", 5) == 0 || stat (path, &st) != 0 || S_ISDIR (st.st_mode))
        return 0;
    if (err && errlen)
        snprintf (err, errlen, "%s: %s is %s, not a directory%s", key, path,
                  S_ISREG (st.st_mode) ? "a file" : "something else",
                  strcmp (key, "table.path") == 0 ? " (a Paimon table is a directory)" : "");
    return -1;
}

int
zs_config_check_dirs (const zs_config_t *cfg, bool table, bool checkpoints, char *err,
                      size_t errlen)
{
    static const char *const table_dirs[] = {"bucket-0", "snapshot", "manifest", "schema",
                                             ".locks"};
    //  an object store has no directories to probe: its first request
    //  answers for it (a 403 names the key there)
    if (strncmp (cfg->table_path, "s3://", 5) == 0)
        table = false;
    int rc = table ? s_check_dir ("table.path", cfg->table_path, false, err, errlen) : 0;
    for (size_t i = 0; table && rc == 0 && i < sizeof table_dirs / sizeof table_dirs[0]; i++) {
        char dir[ZS_PATH_MAX + 16];
        snprintf (dir, sizeof dir, "%s/%s", cfg->table_path, table_dirs[i]);
        rc = s_check_dir ("table.path", dir, true, err, errlen);
    }
    if (rc == 0 && checkpoints && strncmp (cfg->checkpoints_dir, "s3://", 5) != 0)
        rc = s_check_dir ("state.checkpoints.dir", cfg->checkpoints_dir, false, err, errlen);
    return rc;
}
