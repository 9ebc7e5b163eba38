/*  io_options.h - the object store's options (Paimon's s3.* keys, the
    ones zsink reads), declared once: the struct a job's configuration
    embeds, and the table (opts.h) that parses, prints and lists them.
    "" = unset: the environment's AWS_* decides (zs_io_s3_setup). The
    credentials are secrets (ZS_OPT_SECRET): never printed nor handed on.
*/
#ifndef ZS_IO_OPTIONS_H_INCLUDED
#define ZS_IO_OPTIONS_H_INCLUDED

#include "opts.h"

typedef struct {
    char endpoint[256];         //  s3.endpoint
    char region[64];            //  s3.region
    char path_style[8];         //  s3.path.style.access: "", "true", "false"
    char access_key[128];       //  s3.access-key (secret)
    char secret_key[128];       //  s3.secret-key (secret)
    int64_t request_timeout_ms; //  s3.connection.request.timeout (30s)
} zs_io_s3_opts_t;

extern const zs_opt_t zs_io_options[];

#endif
