/*  schema.c - see schema.h. */
#include "schema.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *
zs_schema_to_json (const zs_schema_t *self, int64_t time_millis)
{
    json_t *fields = json_array ();
    for (int i = 0; i < self->n; i++) {
        char type[64];
        snprintf (type, sizeof type, "%s%s", zs_type_name (self->cols[i].type),
                  self->cols[i].nullable ? "" : " NOT NULL");
        json_array_append_new (fields, json_pack ("{s:i, s:s, s:s}", "id", i, "name",
                                                  self->cols[i].name, "type", type));
    }
    json_t *root = json_pack ("{s:i, s:i, s:o, s:i, s:[], s:[], s:{}, s:I}", "version", 1, "id", 0,
                              "fields", fields, "highestFieldId", self->n - 1, "partitionKeys",
                              "primaryKeys", "options", "timeMillis", (json_int_t) time_millis);
    if (!root)
        return NULL;
    char *text = json_dumps (root, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
    json_decref (root);
    return text;
}

int
zs_schema_from_json (zs_schema_t *self, const char *text, char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    self->id_col = -1;
    json_error_t jerr;
    json_t *root = json_loads (text, 0, &jerr);
    if (!root) {
        snprintf (err, errlen, "not JSON (line %d: %s)", jerr.line, jerr.text);
        return ZS_ECORRUPT;
    }
    json_t *fields = json_object_get (root, "fields");
    if (!json_is_integer (json_object_get (root, "id")) || !json_is_array (fields)
        || json_array_size (fields) == 0) {
        snprintf (err, errlen, "no id or no fields");
        json_decref (root);
        return ZS_ECORRUPT;
    }
    if (json_array_size (fields) > ZS_MAX_COLUMNS) {
        snprintf (err, errlen, "more than %d fields", ZS_MAX_COLUMNS);
        json_decref (root);
        return ZS_ECORRUPT;
    }
    //  Rebuild the text form and let the one parser check it: one set of
    //  rules for names and types, wherever a schema comes from.
    size_t cap = json_array_size (fields) * (ZS_COLUMN_NAME_MAX + 32) + 1;
    char *spec = calloc (1, cap);
    int rc = spec ? 0 : ZS_ERR;
    size_t used = 0;
    for (size_t i = 0; rc == 0 && i < json_array_size (fields); i++) {
        json_t *f = json_array_get (fields, i);
        const char *name = json_string_value (json_object_get (f, "name"));
        const char *type = json_string_value (json_object_get (f, "type"));
        if (!name || !type || strlen (name) >= ZS_COLUMN_NAME_MAX || strlen (type) > 24
            || strchr (name, ',') || strchr (type, ',')) {
            snprintf (err, errlen, "field %zu: missing or bad name/type", i + 1);
            rc = ZS_ECORRUPT;
            break;
        }
        used += (size_t) snprintf (spec + used, cap - used, "%s%s %s", i ? ", " : "", name, type);
    }
    if (rc == 0 && zs_schema_parse (self, spec, err, errlen) != 0)
        rc = ZS_ECORRUPT;
    free (spec);
    json_decref (root);
    if (!spec && rc == ZS_ERR)
        snprintf (err, errlen, "out of memory");
    return rc;
}
