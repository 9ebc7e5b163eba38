/*  fsloss_lib.c - put a directory tree back the way a power cut would have left
    it, from the journal fs.c keeps (ZSINK_FS_JOURNAL; lines described in
    fs.c's header comment).

    The model is the strict POSIX one, which is also what ext4/xfs promise
    and no more:
    - a file's bytes are safe up to the size it had at its last fsync; the
      rest is dropped (the file is truncated, as if the page cache died);
    - a change to a directory (a name created, renamed, linked, removed, a
      subdirectory made) is safe only if that directory was fsynced after
      it; otherwise it is undone, newest first. A replaced or removed file
      comes back from the shadow link fs.c made before replacing it.
    Files that existed before the journal started are taken as durable.

    Two passes. Backwards over the journal, a directory is "synced" once
    its D line has been passed (it comes later in time): every name change
    in it met from then on is safe, every one met before is undone on the
    spot, so undos run newest first. Then forwards: each journaled file
    (by inode) learns its last fsynced size and every name it got; after
    the undos each name still holding that inode is truncated to it.

    Only valid once every process that wrote the journal is dead.
*/
#include "fsloss.h"
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    char type;
    char *f[3]; //  fields after the type, NULL when absent
} s_line_t;

typedef struct {
    unsigned long long ino;
    long long synced; //  bytes safe (0 if never fsynced)
    char **paths;
    size_t n_paths;
    bool dead; //  its inode number was reused by a later file
} s_file_t;

static bool
s_in (char **set, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp (set[i], s) == 0)
            return true;
    return false;
}

//  Is the directory holding path in the synced set?
static bool
s_dir_synced (char **set, size_t n, const char *path)
{
    const char *slash = strrchr (path, '/');
    if (!slash)
        return false;
    char dir[ZS_PATH_MAX];
    size_t len = slash == path ? 1 : (size_t) (slash - path);
    if (len >= sizeof dir)
        return false;
    memcpy (dir, path, len);
    dir[len] = '\0';
    return s_in (set, n, dir);
}

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st, (void) flag, (void) ftw;
    return remove (path);
}

static void
s_rm_tree (const char *path)
{
    nftw (path, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static s_file_t *
s_file_find (s_file_t *files, size_t n, unsigned long long ino)
{
    //  Newest first: a reused inode number belongs to the latest file.
    for (size_t i = n; i-- > 0;)
        if (!files[i].dead && files[i].ino == ino)
            return &files[i];
    return NULL;
}

static void
s_file_add_path (s_file_t *f, const char *path)
{
    char **grown = realloc (f->paths, (f->n_paths + 1) * sizeof *grown);
    if (!grown)
        return;
    f->paths = grown;
    f->paths[f->n_paths++] = (char *) path;
}

//  Split the journal text (modified in place) into lines.
static s_line_t *
s_parse (char *text, size_t *n_p, char *err, size_t errlen)
{
    size_t cap = 64, n = 0;
    s_line_t *lines = malloc (cap * sizeof *lines);
    char *save = NULL;
    for (char *l = lines ? strtok_r (text, "\n", &save) : NULL; l;
         l = strtok_r (NULL, "\n", &save)) {
        if (n == cap) {
            s_line_t *grown = realloc (lines, 2 * cap * sizeof *lines);
            if (!grown)
                break;
            lines = grown;
            cap *= 2;
        }
        s_line_t *line = &lines[n];
        memset (line, 0, sizeof *line);
        line->type = l[0];
        char *field = strchr (l, '\t');
        for (int i = 0; field && i < 3; i++) {
            *field++ = '\0';
            line->f[i] = field;
            field = strchr (field, '\t');
        }
        static const char *types = "CSDRLUM";
        static const int fields[] = {2, 2, 1, 3, 2, 2, 1};
        const char *t = line->type ? strchr (types, line->type) : NULL;
        if (!t || !line->f[fields[t - types] - 1]) {
            snprintf (err, errlen, "journal line %zu: malformed", n + 1);
            free (lines);
            return NULL;
        }
        n++;
    }
    if (!lines)
        snprintf (err, errlen, "out of memory");
    *n_p = n;
    return lines;
}

//  Backwards: undo every directory change not followed by an fsync of its
//  directory.
static void
s_undo_names (s_line_t *lines, size_t n, zs_fs_loss_t *loss)
{
    char **synced = calloc (n + 1, sizeof *synced);
    size_t n_synced = 0;
    for (size_t i = n; i-- > 0;) {
        s_line_t *l = &lines[i];
        if (l->type == 'D') {
            if (synced && !s_in (synced, n_synced, l->f[0]))
                synced[n_synced++] = l->f[0];
            continue;
        }
        const char *name = l->type == 'R' || l->type == 'L' ? l->f[1]
                           : l->type == 'C'                 ? l->f[1]
                                                            : l->f[0];
        if (l->type == 'S' || (synced && s_dir_synced (synced, n_synced, name)))
            continue;
        switch (l->type) {
        case 'C': //  the new name goes
            unlink (l->f[1]);
            loss->creates++;
            break;
        case 'R': //  back to the old name; the replaced file returns
            rename (l->f[1], l->f[0]);
            if (strcmp (l->f[2], "-") != 0)
                link (l->f[2], l->f[1]);
            loss->renames++;
            break;
        case 'L':
            unlink (l->f[1]);
            loss->links++;
            break;
        case 'U':
            if (strcmp (l->f[1], "-") != 0)
                link (l->f[1], l->f[0]);
            loss->unlinks++;
            break;
        case 'M': //  a lost directory takes everything under it along
            s_rm_tree (l->f[0]);
            loss->mkdirs++;
            break;
        }
    }
    free (synced);
}

//  Forwards: every journaled file back to its last fsynced size.
static void
s_truncate_unsynced (s_line_t *lines, size_t n, zs_fs_loss_t *loss)
{
    s_file_t *files = calloc (n + 1, sizeof *files);
    size_t n_files = 0;
    for (size_t i = 0; files && i < n; i++) {
        s_line_t *l = &lines[i];
        if (l->type == 'C') {
            unsigned long long ino = strtoull (l->f[0], NULL, 10);
            s_file_t *old = s_file_find (files, n_files, ino);
            if (old)
                old->dead = true;
            files[n_files].ino = ino;
            s_file_add_path (&files[n_files++], l->f[1]);
        } else if (l->type == 'S') {
            s_file_t *f = s_file_find (files, n_files, strtoull (l->f[0], NULL, 10));
            if (f)
                f->synced = strtoll (l->f[1], NULL, 10);
        } else if (l->type == 'R' || l->type == 'L') {
            for (size_t k = 0; k < n_files; k++)
                if (!files[k].dead && s_in (files[k].paths, files[k].n_paths, l->f[0])
                    && !s_in (files[k].paths, files[k].n_paths, l->f[1]))
                    s_file_add_path (&files[k], l->f[1]);
        }
    }
    for (size_t k = 0; files && k < n_files; k++) {
        s_file_t *f = &files[k];
        for (size_t p = 0; !f->dead && p < f->n_paths; p++) {
            struct stat st;
            if (lstat (f->paths[p], &st) != 0 || st.st_ino != f->ino || st.st_size <= f->synced)
                continue;
            if (truncate (f->paths[p], f->synced) == 0) {
                loss->truncated++;
                loss->bytes_dropped += st.st_size - f->synced;
            }
            break; //  one name is enough: they share the inode
        }
        free (f->paths);
    }
    free (files);
}

int
zs_fs_lose_unsynced (const char *journal, zs_fs_loss_t *loss, char *err, size_t errlen)
{
    memset (loss, 0, sizeof *loss);
    size_t len;
    char *text = zs_fs_read_file (journal, (size_t) 1 << 30, &len, err, errlen);
    if (!text)
        return -1;
    size_t n;
    s_line_t *lines = s_parse (text, &n, err, errlen);
    if (!lines) {
        free (text);
        return -1;
    }
    loss->lines = (int64_t) n;
    s_undo_names (lines, n, loss);
    s_truncate_unsynced (lines, n, loss);
    free (lines);
    free (text);
    //  Consumed: the shadows and the journal go, so a restarted job can
    //  journal afresh into the same place.
    char shadow[ZS_PATH_MAX + 16];
    snprintf (shadow, sizeof shadow, "%s.shadow", journal);
    s_rm_tree (shadow);
    unlink (journal);
    return 0;
}
