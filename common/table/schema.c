/*  schema.c - see schema.h.

    Paimon spells the types zsink has as its DataType.asSQLString does:
    BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(10, 2),
    CHAR(3), STRING (or VARCHAR(2147483647)), VARCHAR(20), BINARY(4),
    BYTES (or VARBINARY(2147483647)), VARBINARY(8), DATE, TIME(0),
    TIMESTAMP(3), TIMESTAMP(3) WITH LOCAL TIME ZONE, each with " NOT NULL"
    when so; zs_column_type writes exactly these, and the row type's own
    text parser (rowtype.c) reads them.
*/
#include "schema.h"
#include "partition.h"
#include "rowfmt.h"
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

//  A column's or node's type as Paimon's DataType.serializeJson writes
//  it: a string for a scalar ("INT NOT NULL"); {"type": "ARRAY[ NOT
//  NULL]", "element": ...}, {"type": "MAP", "key": ..., "value": ...},
//  {"type": "ROW", "fields": [{"id", "name", "type"}, ...]} for nested
//  ones. ROW fields take ids from *next as Paimon's ReassignFieldId
//  does: a field's own type first (its nested fields), then the field.
static json_t *
s_type_json (const zs_schema_t *row, const zs_column_t *col, int *next)
{
    const char *nn = col->nullable ? "" : " NOT NULL";
    char type[ZS_TYPE_TEXT_MAX + 12], sql[ZS_TYPE_TEXT_MAX];
    if (!zs_type_is_nested (col->type)) {
        snprintf (type, sizeof type, "%s%s", zs_column_type (col, sql, sizeof sql), nn);
        return json_string (type);
    }
    snprintf (type, sizeof type, "%s%s", zs_type_name (col->type), nn);
    json_t *o = json_pack ("{s:s}", "type", type);
    if (col->type == ZS_TYPE_ARRAY)
        json_object_set_new (o, "element", s_type_json (row, zs_schema_child (row, col, 0), next));
    else if (col->type == ZS_TYPE_MAP) {
        json_object_set_new (o, "key", s_type_json (row, zs_schema_child (row, col, 0), next));
        json_object_set_new (o, "value", s_type_json (row, zs_schema_child (row, col, 1), next));
    } else {
        json_t *fields = json_array ();
        for (int i = 0; i < col->nchild; i++) {
            const zs_column_t *f = zs_schema_child (row, col, i);
            json_t *t = s_type_json (row, f, next);
            int id = ++*next;
            json_array_append_new (
                fields, json_pack ("{s:i, s:s, s:o}", "id", id, "name", f->name, "type", t));
        }
        json_object_set_new (o, "fields", fields);
    }
    return o;
}

char *
zs_schema_to_json (const zs_schema_t *row, int64_t time_millis)
{
    return zs_schema_to_json_with (row, time_millis, NULL);
}

char *
zs_schema_to_json_with (const zs_schema_t *row, int64_t time_millis, const char *default_name)
{
    json_t *fields = json_array ();
    int next = -1; //  the highest field id given so far
    for (int i = 0; i < row->n; i++) {
        int id = ++next;
        json_t *type = s_type_json (row, &row->cols[i], &next);
        json_array_append_new (fields, json_pack ("{s:i, s:s, s:o}", "id", id, "name",
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
                   fields, "highestFieldId", next, "partitionKeys", keys, "primaryKeys", "options",
                   options, "timeMillis", (json_int_t) time_millis);
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

//  A field's type (string or object) as the row type's text form, appended
//  to out; NOT NULL kept. 0, or -1 when it is not a type zsink reads.
static int
s_type_spec (json_t *t, zs_strbuf_t *out, int depth)
{
    char buf[80];
    const char *text = s_type_text (t, buf, sizeof buf);
    if (text) {
        if (strlen (text) > 60 || strchr (text, '<'))
            return -1;
        zs_strbuf_appends (out, text);
        return 0;
    }
    const char *kind = json_string_value (json_object_get (t, "type"));
    if (!json_is_object (t) || !kind || depth >= ZS_MAX_DEPTH)
        return -1;
    bool not_null = strstr (kind, "NOT NULL") != NULL;
    size_t klen = strcspn (kind, " ");
    json_t *e = json_object_get (t, "element"), *k = json_object_get (t, "key"),
           *v = json_object_get (t, "value"), *f = json_object_get (t, "fields");
    int rc = 0;
    if (klen == 5 && strncmp (kind, "ARRAY", 5) == 0 && e) {
        zs_strbuf_appends (out, "ARRAY<");
        rc = s_type_spec (e, out, depth + 1);
    } else if (klen == 3 && strncmp (kind, "MAP", 3) == 0 && k && v) {
        zs_strbuf_appends (out, "MAP<");
        rc = s_type_spec (k, out, depth + 1);
        zs_strbuf_appends (out, ", ");
        rc = rc ? rc : s_type_spec (v, out, depth + 1);
    } else if (klen == 3 && strncmp (kind, "ROW", 3) == 0 && json_is_array (f)
               && json_array_size (f) > 0) {
        zs_strbuf_appends (out, "ROW<");
        for (size_t i = 0; rc == 0 && i < json_array_size (f); i++) {
            json_t *fi = json_array_get (f, i);
            const char *name = json_string_value (json_object_get (fi, "name"));
            if (!name || strlen (name) >= ZS_COLUMN_NAME_MAX || strpbrk (name, ",<>`"))
                return -1;
            zs_strbuf_appends (out, i ? ", `" : "`");
            zs_strbuf_appends (out, name);
            zs_strbuf_appends (out, "` ");
            rc = s_type_spec (json_object_get (fi, "type"), out, depth + 1);
        }
    } else
        return -1;
    zs_strbuf_appends (out, ">");
    if (not_null)
        zs_strbuf_appends (out, " NOT NULL");
    return rc;
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
    zs_strbuf_t spec = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < json_array_size (fields); i++) {
        json_t *f = json_array_get (fields, i);
        const char *name = json_string_value (json_object_get (f, "name"));
        json_t *type = json_object_get (f, "type");
        if (!name || strlen (name) >= ZS_COLUMN_NAME_MAX || strchr (name, ',')) {
            snprintf (err, errlen, "field %zu: missing or bad name", i + 1);
            rc = ZS_ECORRUPT;
            break;
        }
        zs_strbuf_appends (&spec, i ? ", " : "");
        zs_strbuf_appends (&spec, name);
        zs_strbuf_appends (&spec, " ");
        if (s_type_spec (type, &spec, 0) != 0) {
            const char *t = json_string_value (type);
            snprintf (err, errlen, "column '%s': type %s is not one zsink reads", name,
                      t ? t : "(a nested type)");
            rc = ZS_ECORRUPT;
        }
    }
    if (rc == 0 && spec.oom) {
        snprintf (err, errlen, "out of memory");
        rc = ZS_ERR;
    }
    if (rc == 0 && zs_schema_parse (&self->row, spec.data, err, errlen) != 0)
        rc = ZS_ECORRUPT;
    zs_strbuf_free (&spec);
    return rc == 0 ? s_field_ids (self, fields, err, errlen) : rc;
}

//  Partition or primary keys: counted (an array, or none).
static int
s_keys (json_t *keys, int *n)
{
    *n = 0;
    if (!keys)
        return 0;
    if (!json_is_array (keys))
        return -1;
    *n = (int) json_array_size (keys);
    return 0;
}

//  primaryKeys onto the columns (primary_key, column indexes): each names
//  a column, once (Paimon's SchemaValidation refuses any other).
static int
s_primary_keys (zs_table_schema_t *self, json_t *keys, char *err, size_t errlen)
{
    const zs_schema_t *row = &self->row;
    for (int i = 0; i < self->n_primary_keys; i++) {
        const char *name = json_string_value (json_array_get (keys, (size_t) i));
        int col = -1;
        for (int c = 0; name && c < row->n && col < 0; c++)
            if (strcmp (row->cols[c].name, name) == 0)
                col = c;
        for (int k = 0; col >= 0 && k < i; k++)
            if (self->primary_key[k] == col)
                col = -2;
        if (col < 0) {
            snprintf (err, errlen, "primary key %d '%s': %s", i + 1, name ? name : "(not text)",
                      col == -1 ? "names no column" : "named twice");
            return ZS_ECORRUPT;
        }
        self->primary_key[i] = col;
    }
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
        && (s_keys (json_object_get (root, "partitionKeys"), &self->n_partition_keys)
            || s_keys (json_object_get (root, "primaryKeys"), &self->n_primary_keys))) {
        snprintf (err, errlen, "partitionKeys or primaryKeys is not an array");
        rc = ZS_ECORRUPT;
    }
    if (rc == 0)
        rc = s_partition_keys (self, json_object_get (root, "partitionKeys"), err, errlen);
    if (rc == 0 && self->n_primary_keys > self->row.n) {
        snprintf (err, errlen, "%d primary keys, %d columns", self->n_primary_keys, self->row.n);
        rc = ZS_ECORRUPT;
    }
    if (rc == 0)
        rc = s_primary_keys (self, json_object_get (root, "primaryKeys"), err, errlen);
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
zs_schema_primary_format (const zs_table_schema_t *self, char *buf, size_t len)
{
    zs_strbuf_t keys = {0};
    for (int i = 0; i < self->n_primary_keys; i++) {
        zs_strbuf_appends (&keys, i ? "," : "");
        zs_strbuf_appends (&keys, self->row.cols[self->primary_key[i]].name);
    }
    int n = snprintf (buf, len, "%.*s", (int) keys.len, keys.data ? keys.data : "");
    bool cut = keys.oom || n < 0 || (size_t) n >= len;
    zs_strbuf_free (&keys);
    return cut ? -1 : 0;
}

int
zs_schema_append_table (const zs_table_schema_t *self, char *why, size_t len)
{
    if (self->n_primary_keys == 0)
        return 0;
    char keys[256];
    zs_schema_primary_format (self, keys, sizeof keys);
    snprintf (why, len, "a primary-key table (primary key %s): %s", keys, ZS_SCHEMA_APPEND_TABLES);
    return -1;
}

int
zs_schema_writable (const zs_table_schema_t *self, char *why, size_t len)
{
    char pk[ZS_ERRLEN];
    if (zs_schema_append_table (self, pk, sizeof pk) != 0) {
        snprintf (why, len, "it is %s", pk);
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
