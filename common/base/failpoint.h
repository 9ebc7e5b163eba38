/*  failpoint.h - named fail points (etcd gofail style).

    Enabled by the environment, ZSINK_FAILPOINTS="name=action[,name=action…]"
    where action is one of
        crash          _exit(137) at once, like kill -9
        crash:K        crash on the K-th hit (1-based)
        error / error:K   the point returns -1 (the caller fails as if the
                          operation failed)
        delay:MS       sleep MS milliseconds, then continue
        delay:MS:K     the same, only on the K-th hit
        drop / drop:K  for message points: the message is not sent
    A point fires once for actions with K (on exactly the K-th hit); without
    K, every hit. Unknown names in the variable are an error at start (so a
    typo cannot silently test nothing).

    Use:   if (zs_failpoint ("committer.before-commit")) return -1;
    zs_failpoint returns 0 normally, -1 for "error", 1 for "drop".
*/
#ifndef ZS_FAILPOINT_H_INCLUDED
#define ZS_FAILPOINT_H_INCLUDED

#include "zs.h"

//  Parse ZSINK_FAILPOINTS (or the given spec when not NULL). 0 or -1 + err.
int zs_failpoint_init (const char *spec, char *err, size_t errlen);
//  Evaluate a point: may not return (crash), may sleep (delay).
int zs_failpoint (const char *name);
//  Hits of a point since the last zs_failpoint_init, counted only while
//  some point is enabled (tests use it); -1 for an unknown name.
int64_t zs_failpoint_hits (const char *name);
//  The registry: every known point with one line on what it exercises.
typedef struct {
    const char *name;
    const char *what;
} zs_failpoint_info_t;
const zs_failpoint_info_t *zs_failpoint_list (size_t *n);

#endif
