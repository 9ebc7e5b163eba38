/*  record_nested.h - JSON values of nested columns (ARRAY, MAP, ROW) into
    row values, for record.c (file source and Kafka JSON). Not for other
    modules.

    ARRAY from a JSON array; ROW from a JSON object by field name (a
    missing member is null; members naming no field are ignored, as for
    top-level columns); MAP from a JSON object whose member names are the
    keys' text (converted to the key type as a CSV field would be), or
    from an array of [key, value] pairs (what a non-string key needs to
    stay typed). Errors name the column path: "items[3].price",
    "attrs{\"k\"}" and the value.
*/
#ifndef ZS_RECORD_NESTED_H_INCLUDED
#define ZS_RECORD_NESTED_H_INCLUDED

#include "rowtype.h"
#include "varena.h"
#include <jansson.h>

//  A scalar from JSON (record.c): col->name is how errors name it.
int zs_record_json_scalar (const zs_column_t *col, json_t *v, zs_value_t *out, char *why,
                           size_t whylen);

//  v (not JSON null) into out for the nested column col; values into
//  arena. 0, or -1 with why.
int zs_record_json_nested (const zs_schema_t *schema, const zs_column_t *col, json_t *v,
                           zs_value_t *out, zs_varena_t *arena, char *why, size_t whylen);

#endif
