/*  snapshot.c - see snapshot.h. */
#include "snapshot.h"
#include "manifest.h"
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define S_VERSION 3

//  An optional size: written only when known (NON_NULL, as Paimon).
static void
s_set_size (json_t *root, const char *key, int64_t size)
{
    if (size >= 0)
        json_object_set_new (root, key, json_integer (size));
}

char *
zs_snapshot_encode (const zs_snapshot_t *snap)
{
    json_t *ids = json_array ();
    for (int i = 0; i < snap->n_user_ids; i++) {
        const zs_user_id_t *u = &snap->user_ids[i];
        json_t *item =
            json_pack ("{s:s, s:I, s:I}", "user", u->user, "identifier", (json_int_t) u->identifier,
                       "timeMillis", (json_int_t) u->time_millis);
        if (item && u->source_id[0])
            json_object_set_new (item, "sourceId", json_string (u->source_id));
        json_array_append_new (ids, item);
    }
    //  Paimon's field order (Snapshot.java), so a snapshot reads like one
    //  of theirs; the zsink extension last.
    json_t *root = json_pack ("{s:i, s:I, s:I, s:s}", "version", S_VERSION, "id",
                              (json_int_t) snap->id, "schemaId", (json_int_t) snap->schema_id,
                              "baseManifestList", snap->base_manifest_list);
    if (!root) {
        json_decref (ids);
        return NULL;
    }
    s_set_size (root, "baseManifestListSize", snap->base_list_size);
    json_object_set_new (root, "deltaManifestList", json_string (snap->delta_manifest_list));
    s_set_size (root, "deltaManifestListSize", snap->delta_list_size);
    //  another writer's, kept when a snapshot is re-encoded (zsink's own
    //  commits clear them)
    if (snap->changelog_manifest_list[0])
        json_object_set_new (root, "changelogManifestList",
                             json_string (snap->changelog_manifest_list));
    if (snap->index_manifest[0])
        json_object_set_new (root, "indexManifest", json_string (snap->index_manifest));
    json_object_set_new (root, "commitUser", json_string (snap->commit_user));
    json_object_set_new (root, "commitIdentifier", json_integer (snap->commit_identifier));
    json_object_set_new (root, "commitKind", json_string (snap->commit_kind));
    json_object_set_new (root, "timeMillis", json_integer (snap->time_millis));
    json_object_set_new (root, "totalRecordCount", json_integer (snap->total_record_count));
    json_object_set_new (root, "deltaRecordCount", json_integer (snap->delta_record_count));
    if (snap->source_id[0])
        json_object_set_new (root, "properties",
                             json_pack ("{s:s}", "zsink.source-id", snap->source_id));
    if (snap->has_user_ids)
        json_object_set_new (root, "committedIdentifiers", ids);
    else
        json_decref (ids);
    //  Indented like Paimon's: snapshots are few and read by people.
    char *text = json_dumps (root, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
    json_decref (root);
    return text;
}

//  Copy a required string member into a fixed field; too long is corrupt
//  (truncating a name would silently point at another file).
static int
s_get_str (json_t *obj, const char *key, char *dst, size_t dstlen, char *err, size_t errlen)
{
    json_t *v = json_object_get (obj, key);
    if (!json_is_string (v) || json_string_length (v) >= dstlen
        || strlen (json_string_value (v)) != json_string_length (v)) {
        snprintf (err, errlen, "field '%s' missing, not a string or too long", key);
        return -1;
    }
    memcpy (dst, json_string_value (v), json_string_length (v) + 1);
    return 0;
}

static int
s_get_int (json_t *obj, const char *key, int64_t min, int64_t *dst, char *err, size_t errlen)
{
    json_t *v = json_object_get (obj, key);
    //  Integers only: a double would silently lose precision above 2^53,
    //  and identifiers go up to INT64_MAX.
    if (!json_is_integer (v) || json_integer_value (v) < min) {
        snprintf (err, errlen, "field '%s' missing, not an integer or below %lld", key,
                  (long long) min);
        return -1;
    }
    *dst = json_integer_value (v);
    return 0;
}

//  The optional fields: sizes (-1 when absent), another writer's
//  changelog list and index manifest.
static int
s_get_opt (json_t *root, zs_snapshot_t *s, char *err, size_t errlen)
{
    s->base_list_size = s->delta_list_size = -1;
    static const char *const sizes[] = {"baseManifestListSize", "deltaManifestListSize"};
    int64_t *dst[] = {&s->base_list_size, &s->delta_list_size};
    for (int i = 0; i < 2; i++)
        if (json_object_get (root, sizes[i]) && !json_is_null (json_object_get (root, sizes[i]))
            && s_get_int (root, sizes[i], 0, dst[i], err, errlen) != 0)
            return -1;
    static const char *const names[] = {"changelogManifestList", "indexManifest"};
    char *to[] = {s->changelog_manifest_list, s->index_manifest};
    for (int i = 0; i < 2; i++)
        if (json_is_string (json_object_get (root, names[i]))
            && s_get_str (root, names[i], to[i], 128, err, errlen) != 0)
            return -1;
    return 0;
}

//  zsink's committedIdentifiers: absent in another writer's snapshot (then
//  filterCommitted scans back, as Paimon does); when there, well formed.
static int
s_get_user_ids (json_t *root, zs_snapshot_t *s, char *err, size_t errlen)
{
    json_t *ids = json_object_get (root, "committedIdentifiers");
    if (!ids)
        return 0;
    if (!json_is_array (ids) || json_array_size (ids) > ZS_MAX_USER_IDS) {
        snprintf (err, errlen, "field 'committedIdentifiers' not an array or longer than %d",
                  ZS_MAX_USER_IDS);
        return -1;
    }
    s->has_user_ids = true;
    size_t i;
    json_t *item;
    json_array_foreach (ids, i, item)
    {
        zs_user_id_t *u = &s->user_ids[i];
        if (!json_is_object (item) || s_get_str (item, "user", u->user, sizeof u->user, err, errlen)
            || s_get_int (item, "identifier", INT64_MIN, &u->identifier, err, errlen)
            || s_get_int (item, "timeMillis", 0, &u->time_millis, err, errlen)
            || (json_object_get (item, "sourceId")
                && s_get_str (item, "sourceId", u->source_id, sizeof u->source_id, err, errlen))) {
            char why[256];
            snprintf (why, sizeof why, "%s", err);
            snprintf (err, errlen, "committedIdentifiers[%zu]: %s", i,
                      json_is_object (item) ? why : "not an object");
            return -1;
        }
        s->n_user_ids++;
    }
    return 0;
}

int
zs_snapshot_decode (const char *text, zs_snapshot_t *out, char *err, size_t errlen)
{
    json_error_t jerr;
    //  Duplicate keys are refused: which of two "commitIdentifier"s wins
    //  would be up to the parser, and filterCommitted depends on it.
    json_t *root = json_loads (text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf (err, errlen, "not JSON: %s at line %d", jerr.text, jerr.line);
        return ZS_ECORRUPT;
    }
    zs_snapshot_t s;
    memset (&s, 0, sizeof s);
    int64_t version = 0;
    int rc = ZS_ECORRUPT;
    if (!json_is_object (root)) {
        snprintf (err, errlen, "not a JSON object");
        goto done;
    }
    if (s_get_int (root, "version", 0, &version, err, errlen) != 0)
        goto done;
    if (version != S_VERSION) {
        snprintf (err, errlen, "unsupported snapshot version %lld", (long long) version);
        goto done;
    }
    if (s_get_int (root, "id", 1, &s.id, err, errlen)
        || s_get_int (root, "schemaId", 0, &s.schema_id, err, errlen)
        || s_get_str (root, "baseManifestList", s.base_manifest_list, sizeof s.base_manifest_list,
                      err, errlen)
        || s_get_str (root, "deltaManifestList", s.delta_manifest_list,
                      sizeof s.delta_manifest_list, err, errlen)
        || s_get_str (root, "commitUser", s.commit_user, sizeof s.commit_user, err, errlen)
        || s_get_int (root, "commitIdentifier", INT64_MIN, &s.commit_identifier, err, errlen)
        || s_get_str (root, "commitKind", s.commit_kind, sizeof s.commit_kind, err, errlen)
        || s_get_int (root, "timeMillis", 0, &s.time_millis, err, errlen)
        || s_get_int (root, "totalRecordCount", 0, &s.total_record_count, err, errlen)
        || s_get_int (root, "deltaRecordCount", INT64_MIN, &s.delta_record_count, err, errlen)
        || s_get_opt (root, &s, err, errlen))
        goto done;
    //  They are joined to manifest/: a '/' or ".." could escape it.
    if (!zs_plain_name (s.base_manifest_list) || !zs_plain_name (s.delta_manifest_list)
        || (s.changelog_manifest_list[0] && !zs_plain_name (s.changelog_manifest_list))
        || (s.index_manifest[0] && !zs_plain_name (s.index_manifest))) {
        snprintf (err, errlen, "manifest list name is not a plain file name");
        goto done;
    }
    if (s_get_user_ids (root, &s, err, errlen) != 0)
        goto done;
    json_t *source_id = json_object_get (json_object_get (root, "properties"), "zsink.source-id");
    if (json_is_string (source_id))
        snprintf (s.source_id, sizeof s.source_id, "%s", json_string_value (source_id));
    *out = s;
    rc = 0;
done:
    json_decref (root);
    return rc;
}

//  Linear: at most ZS_MAX_USER_IDS entries.
int64_t
zs_snapshot_last_identifier (const zs_snapshot_t *snap, const char *commit_user)
{
    for (int i = 0; i < snap->n_user_ids; i++)
        if (strcmp (snap->user_ids[i].user, commit_user) == 0)
            return snap->user_ids[i].identifier;
    return -1;
}

void
zs_snapshot_set_user_id (zs_snapshot_t *snap, const char *user, int64_t identifier,
                         int64_t time_millis, const char *source_id)
{
    //  Names that do not fit are not zsink's (a UUID has 36 characters):
    //  another writer's, never looked up here.
    if (strlen (user) >= sizeof snap->user_ids[0].user)
        return;
    int slot = -1;
    for (int i = 0; i < snap->n_user_ids && slot < 0; i++)
        if (strcmp (snap->user_ids[i].user, user) == 0)
            slot = i;
    if (slot < 0 && snap->n_user_ids < ZS_MAX_USER_IDS)
        slot = snap->n_user_ids++;
    if (slot < 0) {
        //  Full: forget the user that committed longest ago. A job that has
        //  been silent through 64 other users' commits is long gone.
        slot = 0;
        for (int i = 1; i < snap->n_user_ids; i++)
            if (snap->user_ids[i].time_millis < snap->user_ids[slot].time_millis)
                slot = i;
    }
    zs_user_id_t *u = &snap->user_ids[slot];
    if (source_id)
        snprintf (u->source_id, sizeof u->source_id, "%s", source_id);
    else if (strcmp (u->user, user) != 0 || u->identifier != identifier)
        u->source_id[0] = '\0';
    snprintf (u->user, sizeof u->user, "%s", user);
    u->identifier = identifier;
    u->time_millis = time_millis;
}
