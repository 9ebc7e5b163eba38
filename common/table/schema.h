/*  schema.h - the table's schema file, <table>/schema/schema-0: Paimon's
    JSON form of the row type (base/rowtype.h).
*/
#ifndef ZS_SCHEMA_H_INCLUDED
#define ZS_SCHEMA_H_INCLUDED

#include "rowtype.h"

//  schema-0 JSON, Paimon's shape: {"version":1,"id":0,"fields":[{"id":0,
//  "name":"id","type":"BIGINT NOT NULL"},…],"highestFieldId":…,
//  "partitionKeys":[],"primaryKeys":[],"options":{},"timeMillis":…}.
//  malloc'd, NULL when out of memory.
char *zs_schema_to_json (const zs_schema_t *self, int64_t time_millis);

//  Decode schema-0 JSON. 0, or ZS_ECORRUPT with err saying what is wrong.
int zs_schema_from_json (zs_schema_t *self, const char *text, char *err, size_t errlen);

#endif
