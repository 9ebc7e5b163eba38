/*  schema.c - see schema.h.

    Paimon spells the types zsink has as BOOLEAN, INT, BIGINT, FLOAT,
    DOUBLE, STRING (VARCHAR(2147483647)), BYTES (VARBINARY(2147483647)),
    DATE, TIMESTAMP(3), TIMESTAMP(6), each with " NOT NULL" when so;
    the row type's own text parser (rowtype.c) reads them once the two
    long forms are mapped to their short ones.
*/
#include "schema.h"
#include "partition.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

//  The options of a table zsink creates: what makes it the table zsink
//  writes, spelt out (a reader must not depend on a default that another
//  Paimon version may change).
static const char *const s_options[][2] = {
    {"bucket", "-1"},
    {"file.format", "parquet"},
    {"file.compression", "zstd"},
    {"manifest.format", "avro"},
    {"manifest.compression", "zstd"},
};

char *
zs_schema_to_json (const zs_schema_t *row, int64_t time_millis)
{
    return zs_schema_to_json_with (row, time_millis, NULL);
}

char *
zs_schema_to_json_with (const zs_schema_t *row, int64_t time_millis, const char *default_name)
{
    json_t *fields = json_array ();
    for (int i = 0; i < row->n; i++) {
        char type[64];
        snprintf (type, sizeof type, "%s%s", zs_type_name (row->cols[i].type),
                  row->cols[i].nullable ? "" : " NOT NULL");
        json_array_append_new (fields, json_pack ("{s:i, s:s, s:s}", "id", i, "name",
                                                  row->cols[i].name, "type", type));
    }
    json_t *options = json_object ();
    for (size_t i = 0; i < sizeof s_options / sizeof s_options[0]; i++)
        json_object_set_new (options, s_options[i][0], json_string (s_options[i][1]));
    if (default_name && *default_name)
        json_object_set_new (options, "partition.default-name", json_string (default_name));
    json_t *keys = json_array ();
    for (int i = 0; i < row->n_partition; i++)
        json_array_append_new (keys, json_string (row->cols[row->partition[i]].name));
    json_t *root =
        json_pack ("{s:i, s:i, s:o, s:i, s:o, s:[], s:o, s:I}", "version", 3, "id", 0, "fields",
                   fields, "highestFieldId", row->n - 1, "partitionKeys", keys, "primaryKeys",
                   "options", options, "timeMillis", (json_int_t) time_millis);
    if (!root)
        return NULL;
    char *text = json_dumps (root, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
    json_decref (root);
    return text;
}

//  A field's type as the row type's parser takes it: Paimon's long forms
//  of STRING and BYTES mapped to the short ones. NULL when it is not text
//  (ARRAY, MAP, ROW are objects).
static const char *
s_type_text (json_t *t, char *buf, size_t len)
{
    const char *text = json_string_value (t);
    if (!text)
        return NULL;
    static const char *const longs[][2] = {{"VARCHAR(2147483647)", "STRING"},
                                           {"VARBINARY(2147483647)", "BYTES"}};
    for (size_t i = 0; i < 2; i++) {
        size_t n = strlen (longs[i][0]);
        if (strncasecmp (text, longs[i][0], n) == 0) {
            snprintf (buf, len, "%s%s", longs[i][1], text + n);
            return buf;
        }
    }
    return text;
}

//  Each column's field id (the "id" of its field): present, not negative,
//  unique. highestFieldId when given, else the largest id.
static int
s_field_ids (zs_table_schema_t *self, json_t *fields, char *err, size_t errlen)
{
    self->highest_field_id = -1;
    for (size_t i = 0; i < json_array_size (fields); i++) {
        json_t *id = json_object_get (json_array_get (fields, i), "id");
        json_int_t v = json_is_integer (id) ? json_integer_value (id) : -1;
        if (v < 0 || v > INT32_MAX) {
            snprintf (err, errlen, "column '%s': no field id", self->row.cols[i].name);
            return ZS_ECORRUPT;
        }
        for (size_t k = 0; k < i; k++)
            if (self->field_id[k] == (int) v) {
                snprintf (err, errlen, "columns '%s' and '%s' have the same field id %d",
                          self->row.cols[k].name, self->row.cols[i].name, (int) v);
                return ZS_ECORRUPT;
            }
        self->field_id[i] = (int) v;
        if ((int) v > self->highest_field_id)
            self->highest_field_id = (int) v;
    }
    return 0;
}

//  The columns: rebuilt as the text form and parsed by the one parser, so
//  one set of rules holds for names and types wherever a schema comes from.
static int
s_fields (zs_table_schema_t *self, json_t *fields, char *err, size_t errlen)
{
    if (!json_is_array (fields) || json_array_size (fields) == 0) {
        snprintf (err, errlen, "no fields");
        return ZS_ECORRUPT;
    }
    if (json_array_size (fields) > ZS_MAX_COLUMNS) {
        snprintf (err, errlen, "more than %d fields", ZS_MAX_COLUMNS);
        return ZS_ECORRUPT;
    }
    size_t cap = json_array_size (fields) * (ZS_COLUMN_NAME_MAX + 48) + 1;
    char *spec = calloc (1, cap);
    if (!spec) {
        snprintf (err, errlen, "out of memory");
        return ZS_ERR;
    }
    int rc = 0;
    size_t used = 0;
    for (size_t i = 0; rc == 0 && i < json_array_size (fields); i++) {
        json_t *f = json_array_get (fields, i);
        const char *name = json_string_value (json_object_get (f, "name"));
        char buf[64];
        const char *type = s_type_text (json_object_get (f, "type"), buf, sizeof buf);
        if (!name || strlen (name) >= ZS_COLUMN_NAME_MAX || strchr (name, ',')) {
            snprintf (err, errlen, "field %zu: missing or bad name", i + 1);
            rc = ZS_ECORRUPT;
        } else if (!type || strlen (type) > 40 || strchr (type, ',')) {
            snprintf (err, errlen, "column '%s': type %s is not one zsink reads", name,
                      type ? type : "(a nested type)");
            rc = ZS_ECORRUPT;
        } else
            used +=
                (size_t) snprintf (spec + used, cap - used, "%s%s %s", i ? ", " : "", name, type);
    }
    if (rc == 0 && zs_schema_parse (&self->row, spec, err, errlen) != 0)
        rc = ZS_ECORRUPT;
    free (spec);
    return rc == 0 ? s_field_ids (self, fields, err, errlen) : rc;
}

//  Partition or primary keys: counted, the first kept for messages.
static int
s_keys (zs_table_schema_t *self, json_t *keys, int *n)
{
    *n = 0;
    if (!keys)
        return 0;
    if (!json_is_array (keys))
        return -1;
    *n = (int) json_array_size (keys);
    const char *first = json_string_value (json_array_get (keys, 0));
    if (first && !self->first_key[0])
        snprintf (self->first_key, sizeof self->first_key, "%s", first);
    return 0;
}

//  partitionKeys onto the row type (row.partition, column indexes).
static int
s_partition_keys (zs_table_schema_t *self, json_t *keys, char *err, size_t errlen)
{
    zs_schema_t *row = &self->row;
    row->n_partition = 0;
    for (size_t i = 0; i < json_array_size (keys); i++) {
        const char *name = json_string_value (json_array_get (keys, i));
        int col = -1;
        for (int c = 0; name && c < row->n && col < 0; c++)
            if (strcmp (row->cols[c].name, name) == 0)
                col = c;
        if (col < 0 || row->n_partition == ZS_PARTITION_MAX) {
            snprintf (err, errlen, "partition key %zu '%s': %s", i + 1, name ? name : "(not text)",
                      col < 0 ? "names no column" : "more keys than zsink takes");
            return ZS_ECORRUPT;
        }
        for (int k = 0; k < row->n_partition; k++)
            if (row->partition[k] == col) {
                snprintf (err, errlen, "partition key '%s' is named twice", name);
                return ZS_ECORRUPT;
            }
        row->partition[row->n_partition++] = col;
    }
    return 0;
}

static int
s_options_read (zs_table_schema_t *self, json_t *options, char *err, size_t errlen)
{
    if (!options)
        return 0;
    if (!json_is_object (options)) {
        snprintf (err, errlen, "options is not an object");
        return ZS_ECORRUPT;
    }
    const char *key;
    json_t *value;
    json_object_foreach (options, key, value)
    {
        const char *v = json_string_value (value);
        if (!v || strlen (key) >= sizeof self->option_key[0]
            || strlen (v) >= sizeof self->option_value[0]) {
            snprintf (err, errlen, "option '%.64s': not text or too long", key);
            return ZS_ECORRUPT;
        }
        if (self->n_options == ZS_SCHEMA_OPTIONS_MAX) {
            snprintf (err, errlen, "more than %d options", ZS_SCHEMA_OPTIONS_MAX);
            return ZS_ECORRUPT;
        }
        snprintf (self->option_key[self->n_options], sizeof self->option_key[0], "%s", key);
        snprintf (self->option_value[self->n_options++], sizeof self->option_value[0], "%s", v);
    }
    return 0;
}

int
zs_schema_from_json (zs_table_schema_t *self, const char *text, char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    self->row.id_col = -1;
    json_error_t jerr;
    json_t *root = json_loads (text, 0, &jerr);
    if (!root) {
        snprintf (err, errlen, "not JSON (line %d: %s)", jerr.line, jerr.text);
        return ZS_ECORRUPT;
    }
    json_t *id = json_object_get (root, "id");
    int rc = 0;
    if (!json_is_integer (id) || json_integer_value (id) < 0) {
        snprintf (err, errlen, "no id");
        rc = ZS_ECORRUPT;
    }
    if (rc == 0)
        rc = s_fields (self, json_object_get (root, "fields"), err, errlen);
    if (rc == 0
        && (s_keys (self, json_object_get (root, "partitionKeys"), &self->n_partition_keys)
            || s_keys (self, json_object_get (root, "primaryKeys"), &self->n_primary_keys))) {
        snprintf (err, errlen, "partitionKeys or primaryKeys is not an array");
        rc = ZS_ECORRUPT;
    }
    if (rc == 0)
        rc = s_partition_keys (self, json_object_get (root, "partitionKeys"), err, errlen);
    if (rc == 0)
        rc = s_options_read (self, json_object_get (root, "options"), err, errlen);
    self->id = rc == 0 ? (int64_t) json_integer_value (id) : 0;
    json_t *high = json_object_get (root, "highestFieldId");
    if (rc == 0 && json_is_integer (high) && json_integer_value (high) > self->highest_field_id
        && json_integer_value (high) <= INT32_MAX)
        self->highest_field_id = (int) json_integer_value (high);
    json_t *t = json_object_get (root, "timeMillis");
    self->time_millis = json_is_integer (t) ? (int64_t) json_integer_value (t) : 0;
    json_decref (root);
    return rc;
}

const char *
zs_schema_option (const zs_table_schema_t *self, const char *key, const char *dflt)
{
    for (int i = 0; i < self->n_options; i++)
        if (strcmp (self->option_key[i], key) == 0)
            return self->option_value[i];
    return dflt;
}

//  What an option must be for zsink to write the table (its default as
//  Paimon 2.0's CoreOptions has it when absent).
static const struct {
    const char *key, *dflt, *need, *why;
} s_needs[] = {
    {"bucket", "-1", "-1", "a fixed number of buckets (zsink writes bucket-unaware tables)"},
    {"file.format", "parquet", "parquet", "zsink writes Parquet data files"},
    {"manifest.format", "avro", "avro", "zsink writes Avro manifests"},
    {"deletion-vectors.enabled", "false", "false", "deletion vectors are not supported"},
    {"data-evolution.enabled", "false", "false", "data evolution is not supported"},
    {"row-tracking.enabled", "false", "false", "row tracking is not supported"},
    {"data-file.external-paths", "", "", "external data paths are not supported"},
    {"partition.legacy-name", "true", "true",
     "zsink names partition directories as Paimon's legacy names only"},
};

int
zs_schema_writable (const zs_table_schema_t *self, char *why, size_t len)
{
    if (self->n_primary_keys > 0) {
        snprintf (why, len,
                  "it has primary keys (%s…): a primary-key table, zsink writes append tables",
                  self->first_key);
        return -1;
    }
    zs_partition_t part;
    char perr[ZS_ERRLEN];
    if (zs_partition_init (&part, &self->row,
                           zs_schema_option (self, "partition.default-name", NULL), perr,
                           sizeof perr)
        != 0) {
        snprintf (why, len, "%s", perr);
        return -1;
    }
    for (size_t i = 0; i < sizeof s_needs / sizeof s_needs[0]; i++) {
        const char *v = zs_schema_option (self, s_needs[i].key, s_needs[i].dflt);
        if (strcasecmp (v, s_needs[i].need) != 0) {
            snprintf (why, len, "option '%s' is '%s': %s", s_needs[i].key, v, s_needs[i].why);
            return -1;
        }
    }
    return 0;
}
