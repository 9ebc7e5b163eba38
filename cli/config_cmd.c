/*  config_cmd.c - see config_cmd.h. The keys are the layers' own tables
    (opts.h), walked through zs_config_groups: this file prints them and
    knows none.
*/
#include "config_cmd.h"
#include "cmd.h"
#include "config.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink config keys [--json]\n"
                  "       zsink config show [-c JOB.yaml] [-D key=value ...] [--json]\n"
                  "keys lists every configuration key a job takes (in JOB.yaml, or as -D\n"
                  "key=value), by the layer that declares it: its type, its default and what it\n"
                  "does. Keys marked 'table option' are also properties of a Paimon table: unset\n"
                  "in a job, the table's own value holds (else the default shown). show prints\n"
                  "the configuration a job would run with, after validation (credentials are\n"
                  "never printed).\n");
}

//  The text of a key's default: the declared one, or (table.schema) the
//  default configuration's value.
static void
s_default (const zs_opt_t *o, const zs_config_t *dflt, char *buf, size_t len)
{
    if (o->dflt)
        snprintf (buf, len, "%s", o->dflt);
    else if (zs_config_get (dflt, o->key, buf, len) != 0)
        snprintf (buf, len, "%s", "");
}

static json_t *
s_key_json (const zs_opt_t *o, const char *layer, const char *dflt)
{
    char type[160];
    zs_opt_describe (o, type, sizeof type);
    return json_pack ("{s:s, s:s, s:s, s:s, s:s, s:b, s:b}", "key", o->key, "layer", layer, "type",
                      type, "default", dflt, "description", o->doc, "table_option",
                      (o->flags & ZS_OPT_TABLE) != 0, "secret", (o->flags & ZS_OPT_SECRET) != 0);
}

static void
s_key_text (const zs_opt_t *o, const char *dflt)
{
    char type[160];
    zs_opt_describe (o, type, sizeof type);
    printf ("  %s\n      %s; default: %s%s%s\n      %s\n", o->key, type, *dflt ? dflt : "(none)",
            o->flags & ZS_OPT_TABLE ? "; table option" : "",
            o->flags & ZS_OPT_SECRET ? "; secret" : "", o->doc);
}

static const char *const s_layers[][2] = {
    {"job", "the job: source, checkpoints, restarts, processes"},
    {"table", "the Paimon table (table/table_options.h)"},
    {"format", "the data files (format/format_options.h)"},
    {"io", "object storage (io/io_options.h)"},
};

static const char *
s_layer_title (const char *name)
{
    for (size_t i = 0; i < sizeof s_layers / sizeof s_layers[0]; i++)
        if (strcmp (s_layers[i][0], name) == 0)
            return s_layers[i][1];
    return name;
}

//  The family of keys source.kafka.properties.NAME, as one entry.
static const zs_opt_t s_kafka_family = {
    ZS_CONFIG_KAFKA_PROPS "<name>",
    ZS_OPT_STR,
    0,
    0,
    0,
    0,
    false,
    NULL,
    "",
    "any Kafka client property NAME (bootstrap.servers, group.id, …); credentials are refused",
    0,
    NULL,
    NULL};

static int
s_keys (bool json)
{
    zs_config_t *dflt = malloc (sizeof *dflt);
    json_t *all = json_array ();
    if (!dflt || !all) {
        fprintf (stderr, "zsink config keys: out of memory\n");
        free (dflt);
        json_decref (all);
        return 1;
    }
    zs_config_defaults (dflt);
    size_t n;
    const zs_opt_group_t *groups = zs_config_groups (&n);
    char text[ZS_SCHEMA_TEXT_MAX + ZS_PATH_MAX];
    for (size_t g = 0; g < n; g++) {
        if (!json)
            printf ("%s# %s\n", g ? "\n" : "", s_layer_title (groups[g].name));
        for (const zs_opt_t *o = groups[g].opts; o->key; o++) {
            s_default (o, dflt, text, sizeof text);
            if (json)
                json_array_append_new (all, s_key_json (o, groups[g].name, text));
            else
                s_key_text (o, text);
            if (g == 0 && !strcmp (o->key, "source.kafka.topic-pattern")) {
                if (json)
                    json_array_append_new (all, s_key_json (&s_kafka_family, "job", ""));
                else
                    s_key_text (&s_kafka_family, "");
            }
        }
    }
    if (json) {
        char *out = json_dumps (all, JSON_INDENT (2));
        printf ("%s\n", out ? out : "[]");
        free (out);
    }
    json_decref (all);
    free (dflt);
    return 0;
}

typedef struct {
    zs_config_args_t args;
    bool json;
} s_show_t;

static void
s_show_pair (const char *key, const char *value, void *arg)
{
    json_t *obj = arg;
    if (obj)
        json_object_set_new (obj, key, json_string (value));
    else
        printf ("%s: %s\n", key, value);
}

static int
s_show (const s_show_t *self)
{
    zs_config_t *cfg = malloc (sizeof *cfg);
    char err[ZS_ERRLEN];
    if (!cfg) {
        fprintf (stderr, "zsink config show: out of memory\n");
        return 1;
    }
    if (zs_config_args_build (&self->args, cfg, err, sizeof err) != 0) {
        fprintf (stderr, "zsink config show: %s\n", err);
        free (cfg);
        return 2;
    }
    json_t *obj = self->json ? json_object () : NULL;
    zs_config_foreach (cfg, s_show_pair, obj);
    if (obj) {
        char *out = json_dumps (obj, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
        printf ("%s\n", out ? out : "{}");
        free (out);
        json_decref (obj);
    }
    free (cfg);
    return 0;
}

static int
s_on_option (int opt, const char *arg, void *self)
{
    bool *json = self;
    *json = true; //  --json, the only other option
    return ZS_CMD_GO_ON;
}

int
zs_config_cmd (int argc, char **argv)
{
    if (argc < 2) {
        s_usage (stderr);
        return 2;
    }
    argc--;
    argv++;
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'}, {"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
    const char *sub = argv[0];
    bool show = !strcmp (sub, "show");
    if (!show && strcmp (sub, "keys") != 0) {
        if (strcmp (sub, "--help") && strcmp (sub, "-h")) {
            fprintf (stderr,
                     "zsink config: unknown subcommand '%s': keys or show (zsink config --help)\n",
                     sub);
            return 2;
        }
        s_usage (stdout);
        return 0;
    }
    s_show_t self = {.json = false};
    int rc = show ? zs_cmd_getopt_config (argc, argv, "hc:D:", longopts, s_usage, &self.args,
                                          s_on_option, &self.json)
                  : zs_cmd_getopt (argc, argv, "h", longopts, s_usage, s_on_option, &self.json);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    if (zs_cmd_no_operands (argc, argv, s_usage) != ZS_CMD_GO_ON)
        return 2;
    return show ? s_show (&self) : s_keys (self.json);
}
