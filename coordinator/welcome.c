/*  welcome.c - the coordinator's Welcome to a participant that said Hello:
    the job's parallelism and its whole configuration (every key
    zs_config_foreach gives, none cut short), so that one place configures
    the job. No partial configuration ever goes out: out of memory, the
    participant gets nothing and asks again.
*/
#include "coord.h"
#include "log.h"
#include <stdlib.h>
#include <string.h>

//  The Welcome's configuration: every key zs_config_foreach gives, none
//  cut short (the table's schema and the Kafka client's properties may be
//  long, and a Kafka job has many keys).
typedef struct {
    Zsink__KeyValue *items;
    Zsink__KeyValue **ptrs;
    size_t n, cap;
    bool oom;
} kv_list_t;

//  zs_config_foreach callback: copy one key into the Welcome's list
static void
s_collect (const char *key, const char *value, void *arg)
{
    kv_list_t *kv = arg;
    if (kv->n == kv->cap) {
        size_t ncap = kv->cap ? kv->cap * 2 : 64;
        Zsink__KeyValue *items = realloc (kv->items, ncap * sizeof *items);
        if (!items) {
            kv->oom = true;
            return;
        }
        kv->items = items;
        kv->cap = ncap;
    }
    Zsink__KeyValue *item = &kv->items[kv->n];
    zsink__key_value__init (item);
    item->key = strdup (key);
    item->value = strdup (value);
    if (!item->key || !item->value) {
        free (item->key);
        free (item->value);
        kv->oom = true;
        return;
    }
    kv->n++;
}

static void
s_kv_free (kv_list_t *kv)
{
    for (size_t i = 0; i < kv->n; i++) {
        free (kv->items[i].key);
        free (kv->items[i].value);
    }
    free (kv->items);
    free (kv->ptrs);
}

void
zs_coord_welcome (coord_t *self, const char *rid)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_WELCOME);
    Zsink__Welcome *welcome = &m.body.welcome;
    welcome->parallelism = self->n;
    //  hand out the whole configuration: one place configures the job
    kv_list_t kv = {0};
    zs_config_foreach (&self->cfg, s_collect, &kv);
    kv.ptrs = calloc (kv.n ? kv.n : 1, sizeof *kv.ptrs);
    if (kv.oom || !kv.ptrs) {
        //  no partial configuration ever goes out: the participant asks again
        zs_error ("out of memory building a Welcome");
        s_kv_free (&kv);
        return;
    }
    for (size_t i = 0; i < kv.n; i++)
        kv.ptrs[i] = &kv.items[i];
    welcome->n_config = kv.n;
    welcome->config = kv.ptrs;
    zs_env_stamp (&m.env, &self->from, 1);
    zs_env_send (self->router, rid, &m.env);
    s_kv_free (&kv);
}
