/*  opts.h - the generic option engine: a layer declares its options in one
    table of zs_opt_t (key, type, where the value is kept in the layer's own
    struct, default, range, one-line description), and this module parses,
    prints, checks and lists them. It knows no key: the job layer
    (common/job/config.c) puts the layers' tables side by side as groups
    over zs_config_t, and each layer reads its own struct.

    Value forms are Flink's: durations "2s", "500ms", "1min"; sizes "128mb",
    "64kb" (binary multiples, a bare number is bytes); booleans true/false.

    Invariants:
    1. zs_opt_get's text parses back with zs_opt_set to the identical field
       value (round trip): durations as "<n>ms", sizes as plain bytes,
       booleans as true/false, an unset number (-1) as "".
    2. A failed zs_opt_set leaves the field untouched.
    3. The default text of every option parses with zs_opt_set (test_config
       sets every default through it: zs_opts_defaults).
*/
#ifndef ZS_OPTS_H_INCLUDED
#define ZS_OPTS_H_INCLUDED

#include "zs.h"

typedef enum {
    ZS_OPT_INT,      //  int, whole number
    ZS_OPT_I64,      //  int64_t, whole number
    ZS_OPT_DURATION, //  int64_t milliseconds
    ZS_OPT_SIZE,     //  int64_t bytes
    ZS_OPT_BOOL,     //  bool
    ZS_OPT_ENUM,     //  char[size], one of choices ("" too when unset_ok)
    ZS_OPT_STR,      //  char[size], free text
    ZS_OPT_PATH,     //  char[size], a local path (no scheme but file:///)
    ZS_OPT_STORE,    //  char[size], a local path as ZS_OPT_PATH, or s3://BUCKET/KEY
    ZS_OPT_CUSTOM,   //  set and get say (the job's table.schema)
} zs_opt_type_t;

//  Flags of an option.
#define ZS_OPT_SECRET 1 //  never printed nor handed on (credentials)
#define ZS_OPT_TABLE                                                                               \
    2                 //  also a property of the table (its schema's options):
                      //  unset in a job (the table's value, else dflt)
#define ZS_OPT_LIST 4 //  YAML may give it as a list: items joined with ';'

typedef struct zs_opt_s zs_opt_t;
struct zs_opt_s {
    const char *key;
    zs_opt_type_t type;
    size_t offset;              //  of the field in the layer's struct
    size_t size;                //  bytes of a text field (ENUM, STR, PATH, STORE)
    int64_t min, max;           //  legal range of numeric values
    bool unset_ok;              //  "" means unset: -1 for a number
    const char *const *choices; //  ZS_OPT_ENUM: the legal values, NULL-terminated
    const char *dflt;           //  the default as text ("": empty or unset)
    const char *doc;            //  one line: what it does
    unsigned flags;             //  ZS_OPT_SECRET, ZS_OPT_TABLE, ZS_OPT_LIST
    //  ZS_OPT_CUSTOM: set from text (0 or -1 + err, base untouched on
    //  failure) and print as text (0 or -1). base is the group's struct.
    int (*set) (void *base, const zs_opt_t *o, const char *value, char *err, size_t errlen);
    int (*get) (const void *base, const zs_opt_t *o, char *buf, size_t len);
};
#define ZS_OPT_NOMAX INT64_MAX

//  A layer's table ends with an entry whose key is NULL (ZS_OPT_END).
#define ZS_OPT_END                                                                                 \
    {                                                                                              \
        NULL, ZS_OPT_INT, 0, 0, 0, 0, false, NULL, NULL, NULL, 0, NULL, NULL                       \
    }

//  One layer's table, kept at offset in a bigger struct (zs_config_t).
typedef struct {
    const zs_opt_t *opts;
    size_t offset;
    const char *name; //  the layer's ("table"), for listing
} zs_opt_group_t;

//  The option of key among the groups, and its group in *group (may be
//  NULL). NULL when no group has it.
const zs_opt_t *zs_opts_find (const zs_opt_group_t *groups, size_t n_groups, const char *key,
                              const zs_opt_group_t **group);

//  Set the field of o in base (the group's struct) from text. 0, or -1 with
//  err naming the key and what is wrong ("parallelism: '0' out of range
//  (1..64)").
int zs_opt_set (const zs_opt_t *o, void *base, const char *value, char *err, size_t errlen);
//  The field's value as text, in the form zs_opt_set reads back. 0, or -1
//  when buf is too small.
int zs_opt_get (const zs_opt_t *o, const void *base, char *buf, size_t len);
//  The field against the option's rules (a struct filled by hand or by an
//  older peer): range, choices, path scheme. 0 or -1 + err naming the key.
int zs_opt_check (const zs_opt_t *o, const void *base, char *err, size_t errlen);
//  Is the field unset (-1, "", false)?
bool zs_opt_unset (const zs_opt_t *o, const void *base);
//  Copy o's field from src to dst (same struct type).
void zs_opt_copy (const zs_opt_t *o, void *dst, const void *src);
//  What values o takes, for a listing: "duration", "1..64", "zstd|none".
void zs_opt_describe (const zs_opt_t *o, char *buf, size_t len);

//  Every option of the table (up to ZS_OPT_END) at its default (dflt through zs_opt_set; with
//  unset, ZS_OPT_TABLE options are left unset instead). 0, or -1 + err (a
//  default that does not parse: a programming error the tests catch).
int zs_opts_defaults (const zs_opt_t *opts, void *base, bool unset, char *err, size_t errlen);

//  err (errlen bytes; nothing when NULL or 0) as printf formats it: how
//  the parsers here and the job's configuration say what is wrong.
void zs_errf (char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

//  Parse "2s", "500ms", "1min", "3 s", "0" into milliseconds. 0 or -1.
int zs_parse_duration_ms (const char *text, int64_t *ms);
//  Parse "128mb", "64kb", "1gb", "1000" into bytes. 0 or -1.
int zs_parse_size (const char *text, int64_t *bytes);
//  A port "P" or a range "A-B" (1..65535) into [*lo, *hi]. 0, or -1 when it
//  is neither.
int zs_parse_port_range (const char *spec, int *lo, int *hi);
//  Length of the URI scheme text starts with ("s3" of "s3://b"), 0 if none.
size_t zs_opt_scheme_len (const char *text);

#endif
