/*  s3_xml.h - the XML of S3's answers and of the one request body zsink
    sends (CompleteMultipartUpload), over libxml2. Private to s3.c.

    Elements are matched by local name, whatever their namespace (AWS puts
    everything in its 2006-03-01 S3 namespace, some servers put nothing). The parser is told to
   fetch nothing from the network and to substitute no entities: an answer is data, never a document
   that pulls in others.
*/
#ifndef ZS_S3_XML_H_INCLUDED
#define ZS_S3_XML_H_INCLUDED

#include "s3.h"

//  The <Code> of an <Error> document in code ("" when body is not one).
//  true when body is an <Error> document.
bool zs_s3_xml_error (const char *body, size_t len, char *code, size_t codelen);

//  One ListObjectsV2 page: fn for each key and common prefix, in key order.
//  *truncated and *next (the NextContinuationToken, malloc'd, NULL when
//  none) say whether and how to go on. 0, fn's value, or -1 + err.
int zs_s3_xml_list_page (const char *body, size_t len, zs_s3_list_fn *fn, void *arg,
                         bool *truncated, char **next, char *err, size_t errlen);

//  One ListMultipartUploads page: fn per open upload; *next_key and
//  *next_id (malloc'd) are the markers of the next page. 0, fn's value, -1.
int zs_s3_xml_uploads_page (const char *body, size_t len, zs_s3_upload_fn *fn, void *arg,
                            bool *truncated, char **next_key, char **next_id, char *err,
                            size_t errlen);

//  The UploadId of an InitiateMultipartUploadResult. 0 or -1 + err.
int zs_s3_xml_upload_id (const char *body, size_t len, char *id, size_t idlen, char *err,
                         size_t errlen);

//  The CompleteMultipartUpload body for these parts (malloc'd, NULL when
//  out of memory).
char *zs_s3_xml_complete_body (char (*etags)[80], int nparts);

//  "2026-12-04T20:10:01.123Z" -> ms since the epoch; 0 when unreadable.
int64_t zs_s3_xml_iso8601_ms (const char *text);

#endif
