/*  yamlkv.h - a YAML file of options as flat "dotted.key: value" pairs.

    The file may be flat ("execution.checkpointing.interval: 2s") or nested
    (execution: {checkpointing: {interval: 2s}}); both flatten to the same
    dotted keys. A plain ~, null or empty value is "" (unset). A list is
    taken only for keys the caller says may be lists: its items joined
    with ';'. Anything else is an error naming the file and the line:
    - a YAML syntax error, with its line and column (libyaml's marks);
    - a key given twice, flat or nested ("a.b" and "a: {b:}" alike), with
      both lines;
    - lists, aliases, non-scalar keys, more than one document, a top level
      that is not a mapping.
    It knows no key: the caller's fn says what a key is.
*/
#ifndef ZS_YAMLKV_H_INCLUDED
#define ZS_YAMLKV_H_INCLUDED

#include "zs.h"

//  One pair: 0, or -1 + err (the caller's message; the file and line are
//  put in front of it).
typedef int zs_yaml_pair_fn (void *arg, const char *key, const char *value, char *err,
                             size_t errlen);
//  May key be given as a YAML list?
typedef bool zs_yaml_list_fn (void *arg, const char *key);

//  Read path, calling fn for each pair in the file's order. 0, or -1 + err
//  ("FILE:LINE: …", "FILE:LINE:COLUMN: YAML syntax error: …").
int zs_yaml_flatten (const char *path, zs_yaml_pair_fn *fn, zs_yaml_list_fn *is_list, void *arg,
                     char *err, size_t errlen);

#endif
