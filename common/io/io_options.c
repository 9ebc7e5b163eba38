/*  io_options.c - see io_options.h. */
#include "io_options.h"
#include <limits.h>
#include <stddef.h>

#define S_OFF(field) offsetof (zs_io_s3_opts_t, field)
#define S_SIZE(field) sizeof (((zs_io_s3_opts_t *) 0)->field)
#define S_TEXT(field) S_OFF (field), S_SIZE (field)

static const char *const s_booleans[] = {"true", "false", NULL};

const zs_opt_t zs_io_options[] = {
    {"s3.endpoint", ZS_OPT_STR, S_TEXT (endpoint), 0, 0, false, NULL, "",
     "S3 endpoint URL (unset: AWS_ENDPOINT_URL, else AWS's)", 0, NULL, NULL},
    {"s3.region", ZS_OPT_STR, S_TEXT (region), 0, 0, false, NULL, "",
     "S3 region (unset: AWS_REGION or AWS_DEFAULT_REGION)", 0, NULL, NULL},
    {"s3.path.style.access", ZS_OPT_ENUM, S_TEXT (path_style), 0, 0, true, s_booleans, "",
     "address buckets as ENDPOINT/BUCKET, not BUCKET.ENDPOINT (unset: true with s3.endpoint)", 0,
     NULL, NULL},
    {"s3.access-key", ZS_OPT_STR, S_TEXT (access_key), 0, 0, false, NULL, "",
     "S3 access key (unset: AWS_ACCESS_KEY_ID); a secret, never written out", ZS_OPT_SECRET, NULL,
     NULL},
    {"s3.secret-key", ZS_OPT_STR, S_TEXT (secret_key), 0, 0, false, NULL, "",
     "S3 secret key (unset: AWS_SECRET_ACCESS_KEY); a secret, never written out", ZS_OPT_SECRET,
     NULL, NULL},
    {"s3.connection.request.timeout", ZS_OPT_DURATION, S_OFF (request_timeout_ms), 0, 100,
     ZS_OPT_NOMAX, false, NULL, "30s", "time one attempt of one S3 request may take", 0, NULL,
     NULL},
    ZS_OPT_END,
};
