/*  s3.h - a small S3 client: the requests zsink's object-storage file I/O
    needs, over libcurl (keep-alive on one handle, requests signed by
    curl's own AWS SigV4), listings parsed with libxml2.

    A client is one connection's worth of state: use it from one thread at
    a time (the io layer keeps one per thread).

    Every request returns 0 when an HTTP answer came back, whatever its
    status (res->status says which), and -1 with err filled when none did
    after the client's retries. Transient failures are retried inside the
    client, with capped exponential backoff: no answer (connection refused
    or reset, timeout), 500, 502, 503 (SlowDown), 504. A request that may
    have been applied by the server although its answer was lost (it was
    sent, and no answer or a 5xx came back) sets res->unsure, even when a
    retry then got a definite answer: a conditional PUT retried after such a
    loss may see 412 for the object it stored itself. The caller resolves
    that by reading the object back (io_s3.c); the client never guesses.

    Secrets (the secret key, the Authorization header) are never logged and
    never appear in err.
*/
#ifndef ZS_S3_H_INCLUDED
#define ZS_S3_H_INCLUDED

#include "zs.h"

typedef struct {
    //  "http://127.0.0.1:8333" (scheme, host, port; no path). Empty: AWS's
    //  regional endpoint, s3.<region>.amazonaws.com over https.
    char endpoint[256];
    char region[64]; //  signing region; empty = "us-east-1"
    char access_key[128];
    char secret_key[128];
    bool path_style;    //  ENDPOINT/BUCKET/KEY rather than BUCKET.ENDPOINT-HOST/KEY
    int64_t timeout_ms; //  per attempt, whole request; 0 = 30000
    int max_attempts;   //  per request; 0 = 6
    int64_t backoff_ms; //  first retry's delay, doubled each time, capped at 2 s; 0 = 50
} zs_s3_conf_t;

//  The answer to one request.
typedef struct {
    long status;      //  HTTP status of the last attempt; 0 when none came
    bool unsure;      //  an earlier attempt may have been applied (see above)
    int attempts;     //  attempts made
    char etag[80];    //  ETag header, quotes kept ("\"abc\""), "" if none
    int64_t size;     //  Content-Length of a HEAD/GET answer (the object's,
                      //  for a ranged GET: from Content-Range), -1 unknown
    int64_t mtime_ms; //  Last-Modified, ms since the epoch; 0 unknown
    int64_t date_ms;  //  Date (the server's clock when it answered), ms; 0 unknown
    char code[64];    //  S3 error <Code> of an error answer ("PreconditionFailed")
} zs_s3_result_t;

typedef struct _zs_s3_t zs_s3_t;

//  NULL + err when the configuration is unusable (no credentials, a bad
//  endpoint).
zs_s3_t *zs_s3_new (const zs_s3_conf_t *conf, char *err, size_t errlen);
void zs_s3_destroy (zs_s3_t **self_p);

//  "s3://bucket/key/…" -> bucket and key (key may be empty, has no leading
//  '/', trailing '/' removed). 0, or -1 + err for anything else (no bucket,
//  a bucket name S3 refuses, "//" inside the key).
int zs_s3_parse_url (const char *url, char *bucket, size_t bucketlen, char *key, size_t keylen,
                     char *err, size_t errlen);

//  Conditions of a PUT (or of a multipart completion): NULL for none.
//  if_none_match "*": only if the key is absent (412 when present).
//  if_match ETAG: only if the object's current ETag is ETAG (412 otherwise,
//  404 when absent).
typedef struct {
    const char *if_none_match;
    const char *if_match;
} zs_s3_cond_t;

int zs_s3_put (zs_s3_t *self, const char *bucket, const char *key, const void *data, size_t len,
               const zs_s3_cond_t *cond, zs_s3_result_t *res, char *err, size_t errlen);

//  GET bytes [offset, offset+len) (len -1: to the end) into a malloc'd
//  buffer (*data_p, NUL-terminated past *len_p; NULL unless status 200/206).
//  A body larger than max_size fails (-1, err says so).
int zs_s3_get (zs_s3_t *self, const char *bucket, const char *key, int64_t offset, int64_t len,
               size_t max_size, char **data_p, size_t *len_p, zs_s3_result_t *res, char *err,
               size_t errlen);

int zs_s3_head (zs_s3_t *self, const char *bucket, const char *key, zs_s3_result_t *res, char *err,
                size_t errlen);

//  DELETE; S3 answers 204 whether or not the key existed.
int zs_s3_delete (zs_s3_t *self, const char *bucket, const char *key, zs_s3_result_t *res,
                  char *err, size_t errlen);

//  ListObjectsV2 of keys beginning with prefix, every page. With
//  delimiter "/", keys below the next '/' are rolled up into one common
//  prefix each (is_prefix true, size -1). fn returns 0 to go on, anything
//  else stops the listing and is returned. 0, fn's value, or -1 + err (an
//  error answer is -1 too: err names status and code).
typedef struct {
    const char *key; //  the whole key (or common prefix, ending in '/')
    int64_t size;
    int64_t mtime_ms;
    const char *etag;
    bool is_prefix;
} zs_s3_entry_t;
typedef int (zs_s3_list_fn) (const zs_s3_entry_t *entry, void *arg);
int zs_s3_list (zs_s3_t *self, const char *bucket, const char *prefix, const char *delimiter,
                zs_s3_list_fn *fn, void *arg, char *err, size_t errlen);

//  Multipart upload. Parts are numbered from 1; every part but the last
//  must be at least 5 MiB, on AWS and on SeaweedFS alike (the completion
//  answers 400 EntityTooSmall).
int zs_s3_mpu_create (zs_s3_t *self, const char *bucket, const char *key, char *upload_id,
                      size_t idlen, char *err, size_t errlen);
int zs_s3_mpu_put_part (zs_s3_t *self, const char *bucket, const char *key, const char *upload_id,
                        int part, const void *data, size_t len, char *etag, size_t etaglen,
                        char *err, size_t errlen);
//  Complete with the parts' ETags in order (etags[i] is part i+1). cond as
//  for a PUT where the server supports it. 0 with res->status (200 done;
//  412 condition failed), or -1 + err.
int zs_s3_mpu_complete (zs_s3_t *self, const char *bucket, const char *key, const char *upload_id,
                        char (*etags)[80], int nparts, const zs_s3_cond_t *cond,
                        zs_s3_result_t *res, char *err, size_t errlen);
//  Abort; an upload already gone (404 NoSuchUpload) is not an error.
int zs_s3_mpu_abort (zs_s3_t *self, const char *bucket, const char *key, const char *upload_id,
                     char *err, size_t errlen);
//  ListMultipartUploads under prefix: fn (key, upload_id, arg) per open upload.
typedef int (zs_s3_upload_fn) (const char *key, const char *upload_id, void *arg);
int zs_s3_mpu_list (zs_s3_t *self, const char *bucket, const char *prefix, zs_s3_upload_fn *fn,
                    void *arg, char *err, size_t errlen);

//  PUT bucket (tests and `zsink` set-up); an existing bucket of ours is fine.
int zs_s3_create_bucket (zs_s3_t *self, const char *bucket, char *err, size_t errlen);

//  Requests and bytes of this process's clients since start (bench figures).
typedef struct {
    int64_t requests;
    int64_t retries;
    int64_t bytes_up;
    int64_t bytes_down;
} zs_s3_stats_t;
void zs_s3_stats (zs_s3_stats_t *stats);

#endif
