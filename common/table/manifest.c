/*  manifest.c - see manifest.h. */
#include "manifest.h"
#include <jansson.h>
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

char *
zs_manifest_encode (const zs_file_meta_t *files, size_t n)
{
    json_t *entries = json_array ();
    for (size_t i = 0; i < n; i++) {
        const zs_file_meta_t *f = &files[i];
        json_t *e = json_pack ("{s:s, s:s, s:I, s:I}", "kind", "ADD", "file", f->path, "rows",
                               (json_int_t) f->rows, "size", (json_int_t) f->size);
        if (f->has_id) {
            json_object_set_new (e, "minId", json_integer (f->min_id));
            json_object_set_new (e, "maxId", json_integer (f->max_id));
        }
        //  Stats text comes from our own writer; if it ever fails to parse
        //  the entry simply has none (they are hints, never needed to read).
        json_t *stats = f->stats[0] ? json_loads (f->stats, 0, NULL) : NULL;
        if (stats)
            json_object_set_new (e, "stats", stats);
        json_array_append_new (entries, e);
    }
    json_t *root = json_pack ("{s:o}", "entries", entries);
    if (!root)
        return NULL;
    //  Compact: manifests and lists grow with the table; people read them
    //  through `zsink table files`, not directly.
    char *text = json_dumps (root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref (root);
    return text;
}

//  Parse text into a root object holding an array under key.
static json_t *
s_load_array (const char *text, const char *key, json_t **array, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_loads (text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf (err, errlen, "not JSON: %s at line %d", jerr.text, jerr.line);
        return NULL;
    }
    *array = json_object_get (root, key);
    if (!json_is_array (*array)) {
        snprintf (err, errlen, "no '%s' array", key);
        json_decref (root);
        return NULL;
    }
    return root;
}

static bool
s_int (json_t *obj, const char *key, int64_t *dst)
{
    json_t *v = json_object_get (obj, key);
    if (!json_is_integer (v))
        return false;
    *dst = json_integer_value (v);
    return true;
}

int
zs_manifest_decode (const char *text, zs_manifest_entry_t **entries_p, size_t *n_p, char *err,
                    size_t errlen)
{
    json_t *arr;
    json_t *root = s_load_array (text, "entries", &arr, err, errlen);
    if (!root)
        return ZS_ECORRUPT;
    size_t n = json_array_size (arr);
    zs_manifest_entry_t *entries = n ? calloc (n, sizeof *entries) : NULL;
    if (n && !entries) {
        snprintf (err, errlen, "out of memory");
        json_decref (root);
        return -1;
    }
    size_t i;
    json_t *item;
    json_array_foreach (arr, i, item)
    {
        zs_manifest_entry_t *e = &entries[i];
        const char *kind = json_string_value (json_object_get (item, "kind"));
        const char *file = json_string_value (json_object_get (item, "file"));
        if (!kind || !file || (strcmp (kind, "ADD") != 0 && strcmp (kind, "DELETE") != 0)
            || strlen (file) >= sizeof e->file.path || !s_int (item, "rows", &e->file.rows)
            || !s_int (item, "size", &e->file.size) || e->file.rows < 0 || e->file.size < 0) {
            snprintf (err, errlen, "entries[%zu]: missing or bad field", i);
            goto fail;
        }
        char why[ZS_ERRLEN];
        if (zs_data_path_check (file, why, sizeof why) != 0) {
            snprintf (err, errlen, "entries[%zu]: %s", i, why);
            goto fail;
        }
        //  DELETE is decoded though appends never write it, so a table
        //  touched by a future compaction still reads correctly.
        e->add = strcmp (kind, "ADD") == 0;
        snprintf (e->file.path, sizeof e->file.path, "%s", file);
        //  The id range is there for files of a table with an id column.
        bool has_min = json_object_get (item, "minId") != NULL;
        bool has_max = json_object_get (item, "maxId") != NULL;
        if (has_min != has_max
            || (has_min
                && (!s_int (item, "minId", &e->file.min_id)
                    || !s_int (item, "maxId", &e->file.max_id)))) {
            snprintf (err, errlen, "entries[%zu]: bad minId/maxId", i);
            goto fail;
        }
        e->file.has_id = has_min;
        json_t *stats = json_object_get (item, "stats");
        if (stats) {
            char *json = json_is_object (stats) ? json_dumps (stats, JSON_COMPACT) : NULL;
            if (!json || strlen (json) >= sizeof e->file.stats) {
                free (json);
                snprintf (err, errlen, "entries[%zu]: bad stats", i);
                goto fail;
            }
            memcpy (e->file.stats, json, strlen (json) + 1);
            free (json);
        }
    }
    json_decref (root);
    *entries_p = entries;
    *n_p = n;
    return 0;
fail:
    free (entries);
    json_decref (root);
    return ZS_ECORRUPT;
}

char *
zs_manifest_list_encode (const zs_manifest_meta_t *metas, size_t n)
{
    json_t *arr = json_array ();
    for (size_t i = 0; i < n; i++)
        json_array_append_new (arr,
                               json_pack ("{s:s, s:I, s:I}", "file", metas[i].file, "addedFiles",
                                          (json_int_t) metas[i].added_files, "deletedFiles",
                                          (json_int_t) metas[i].deleted_files));
    json_t *root = json_pack ("{s:o}", "manifests", arr);
    if (!root)
        return NULL;
    char *text = json_dumps (root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref (root);
    return text;
}

int
zs_manifest_list_decode (const char *text, zs_manifest_meta_t **metas_p, size_t *n_p, char *err,
                         size_t errlen)
{
    json_t *arr;
    json_t *root = s_load_array (text, "manifests", &arr, err, errlen);
    if (!root)
        return ZS_ECORRUPT;
    size_t n = json_array_size (arr);
    zs_manifest_meta_t *metas = n ? calloc (n, sizeof *metas) : NULL;
    if (n && !metas) {
        snprintf (err, errlen, "out of memory");
        json_decref (root);
        return -1;
    }
    size_t i;
    json_t *item;
    json_array_foreach (arr, i, item)
    {
        zs_manifest_meta_t *m = &metas[i];
        const char *file = json_string_value (json_object_get (item, "file"));
        //  Too long is corrupt, not truncated: a cut name names another file.
        if (!file || strlen (file) >= sizeof m->file || !zs_plain_name (file)
            || !s_int (item, "addedFiles", &m->added_files)
            || !s_int (item, "deletedFiles", &m->deleted_files)) {
            snprintf (err, errlen, "manifests[%zu]: missing or bad field", i);
            free (metas);
            json_decref (root);
            return ZS_ECORRUPT;
        }
        snprintf (m->file, sizeof m->file, "%s", file);
    }
    json_decref (root);
    *metas_p = metas;
    *n_p = n;
    return 0;
}
