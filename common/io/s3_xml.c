/*  s3_xml.c - S3's XML answers read with libxml2's tree API (see s3_xml.h).

    A page is at most 1000 entries of a few hundred bytes: reading it into
    a tree is simpler than a streaming reader and costs nothing that
    matters next to the request that fetched it.
*/
#include "s3_xml.h"
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static xmlDocPtr
s_parse (const char *body, size_t len)
{
    if (!body || len == 0 || len > INT32_MAX)
        return NULL;
    return xmlReadMemory (body, (int) len, NULL, NULL,
                          XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

static bool
s_is (xmlNodePtr node, const char *name)
{
    return node->type == XML_ELEMENT_NODE && strcmp ((const char *) node->name, name) == 0;
}

//  The first child element of node named name, or NULL.
static xmlNodePtr
s_child (xmlNodePtr node, const char *name)
{
    for (xmlNodePtr c = node ? node->children : NULL; c; c = c->next)
        if (s_is (c, name))
            return c;
    return NULL;
}

//  The text of node's child name, malloc'd ("" for an empty element),
//  NULL when there is no such child.
static char *
s_text (xmlNodePtr node, const char *name)
{
    xmlNodePtr c = s_child (node, name);
    if (!c)
        return NULL;
    xmlChar *t = xmlNodeGetContent (c);
    char *copy = strdup (t ? (const char *) t : "");
    xmlFree (t);
    return copy;
}

static bool
s_text_is (xmlNodePtr node, const char *name, const char *value)
{
    char *t = s_text (node, name);
    bool eq = t && strcmp (t, value) == 0;
    free (t);
    return eq;
}

bool
zs_s3_xml_error (const char *body, size_t len, char *code, size_t codelen)
{
    if (codelen)
        code[0] = 0;
    xmlDocPtr doc = s_parse (body, len);
    xmlNodePtr root = doc ? xmlDocGetRootElement (doc) : NULL;
    bool is_error = root && s_is (root, "Error");
    if (is_error) {
        char *t = s_text (root, "Code");
        if (t && codelen)
            snprintf (code, codelen, "%s", t);
        free (t);
    }
    xmlFreeDoc (doc);
    return is_error;
}

int64_t
zs_s3_xml_iso8601_ms (const char *text)
{
    struct tm tm = {0};
    int ms = 0;
    if (!text
        || sscanf (text, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                   &tm.tm_min, &tm.tm_sec)
               != 6)
        return 0;
    const char *frac = strchr (text, '.');
    if (frac && frac[1] >= '0' && frac[1] <= '9') {
        int digits = 0;
        for (const char *p = frac + 1; *p >= '0' && *p <= '9' && digits < 3; p++, digits++)
            ms = ms * 10 + (*p - '0');
        for (; digits < 3; digits++)
            ms *= 10;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (int64_t) timegm (&tm) * 1000 + ms;
}

//  --------------------------------------------------------------------------
//  ListObjectsV2

typedef struct {
    char *key;
    char *etag;
    int64_t size;
    int64_t mtime_ms;
    bool is_prefix;
} s_entry_t;

static int
s_entry_cmp (const void *a, const void *b)
{
    return strcmp (((const s_entry_t *) a)->key, ((const s_entry_t *) b)->key);
}

//  Collects a page's Contents and CommonPrefixes into entries (key order).
static int
s_collect (xmlNodePtr root, s_entry_t **entries_p, size_t *n_p, char *err, size_t errlen)
{
    size_t n = 0, cap = 0;
    s_entry_t *entries = NULL;
    for (xmlNodePtr c = root->children; c; c = c->next) {
        bool is_prefix = s_is (c, "CommonPrefixes");
        if (!is_prefix && !s_is (c, "Contents"))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            s_entry_t *grown = realloc (entries, cap * sizeof *entries);
            if (!grown)
                goto oom;
            entries = grown;
        }
        s_entry_t *e = &entries[n];
        memset (e, 0, sizeof *e);
        e->is_prefix = is_prefix;
        e->key = s_text (c, is_prefix ? "Prefix" : "Key");
        if (!e->key) {
            snprintf (err, errlen, "s3: a listing entry without %s", is_prefix ? "Prefix" : "Key");
            goto fail;
        }
        n++;
        e->size = -1;
        if (!is_prefix) {
            char *size = s_text (c, "Size");
            char *mtime = s_text (c, "LastModified");
            e->size = size ? strtoll (size, NULL, 10) : -1;
            e->mtime_ms = zs_s3_xml_iso8601_ms (mtime);
            e->etag = s_text (c, "ETag");
            free (size);
            free (mtime);
        }
    }
    if (n) //  an empty listing has no array (qsort must not get NULL)
        qsort (entries, n, sizeof *entries, s_entry_cmp);
    *entries_p = entries;
    *n_p = n;
    return 0;
oom:
    snprintf (err, errlen, "s3: out of memory reading a listing");
fail:
    for (size_t i = 0; i < n; i++) {
        free (entries[i].key);
        free (entries[i].etag);
    }
    free (entries);
    return -1;
}

int
zs_s3_xml_list_page (const char *body, size_t len, zs_s3_list_fn *fn, void *arg, bool *truncated,
                     char **next, char *err, size_t errlen)
{
    *truncated = false;
    *next = NULL;
    xmlDocPtr doc = s_parse (body, len);
    xmlNodePtr root = doc ? xmlDocGetRootElement (doc) : NULL;
    if (!root || !s_is (root, "ListBucketResult")) {
        snprintf (err, errlen, "s3: a ListObjectsV2 answer that is not a ListBucketResult");
        xmlFreeDoc (doc);
        return -1;
    }
    s_entry_t *entries = NULL;
    size_t n = 0;
    int rc = s_collect (root, &entries, &n, err, errlen);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        zs_s3_entry_t entry = {entries[i].key, entries[i].size, entries[i].mtime_ms,
                               entries[i].etag ? entries[i].etag : "", entries[i].is_prefix};
        rc = fn (&entry, arg);
    }
    for (size_t i = 0; i < n; i++) {
        free (entries[i].key);
        free (entries[i].etag);
    }
    free (entries);
    if (rc == 0) {
        *truncated = s_text_is (root, "IsTruncated", "true");
        *next = s_text (root, "NextContinuationToken");
        if (*truncated && (!*next || !**next)) {
            snprintf (err, errlen, "s3: a truncated listing without NextContinuationToken");
            rc = -1;
        }
    }
    xmlFreeDoc (doc);
    return rc;
}

//  --------------------------------------------------------------------------
//  Multipart uploads

int
zs_s3_xml_uploads_page (const char *body, size_t len, zs_s3_upload_fn *fn, void *arg,
                        bool *truncated, char **next_key, char **next_id, char *err, size_t errlen)
{
    *truncated = false;
    *next_key = *next_id = NULL;
    xmlDocPtr doc = s_parse (body, len);
    xmlNodePtr root = doc ? xmlDocGetRootElement (doc) : NULL;
    if (!root || !s_is (root, "ListMultipartUploadsResult")) {
        snprintf (err, errlen, "s3: a ListMultipartUploads answer that is not one");
        xmlFreeDoc (doc);
        return -1;
    }
    int rc = 0;
    for (xmlNodePtr c = root->children; c && rc == 0; c = c->next) {
        if (!s_is (c, "Upload"))
            continue;
        char *key = s_text (c, "Key");
        char *id = s_text (c, "UploadId");
        if (key && id)
            rc = fn (key, id, arg);
        else {
            snprintf (err, errlen, "s3: an Upload without Key or UploadId");
            rc = -1;
        }
        free (key);
        free (id);
    }
    if (rc == 0) {
        *truncated = s_text_is (root, "IsTruncated", "true");
        *next_key = s_text (root, "NextKeyMarker");
        *next_id = s_text (root, "NextUploadIdMarker");
        if (*truncated && (!*next_key || !**next_key)) {
            snprintf (err, errlen, "s3: a truncated upload listing without NextKeyMarker");
            rc = -1;
        }
    }
    xmlFreeDoc (doc);
    return rc;
}

int
zs_s3_xml_upload_id (const char *body, size_t len, char *id, size_t idlen, char *err, size_t errlen)
{
    xmlDocPtr doc = s_parse (body, len);
    xmlNodePtr root = doc ? xmlDocGetRootElement (doc) : NULL;
    char *t =
        root && s_is (root, "InitiateMultipartUploadResult") ? s_text (root, "UploadId") : NULL;
    int rc = -1;
    if (!t || !*t)
        snprintf (err, errlen, "s3: CreateMultipartUpload answered without an UploadId");
    else if (strlen (t) >= idlen)
        snprintf (err, errlen, "s3: an UploadId of %zu bytes (room for %zu)", strlen (t),
                  idlen - 1);
    else {
        snprintf (id, idlen, "%s", t);
        rc = 0;
    }
    free (t);
    xmlFreeDoc (doc);
    return rc;
}

//  XML-escapes text (ETags are quoted hex, but an ETag is the server's).
static size_t
s_escape (char *out, const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        const char *rep = *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : NULL;
        if (rep) {
            memcpy (out + n, rep, strlen (rep));
            n += strlen (rep);
        } else
            out[n++] = *p;
    }
    return n;
}

char *
zs_s3_xml_complete_body (char (*etags)[80], int nparts)
{
    static const char head[] = "<CompleteMultipartUpload>";
    static const char tail[] = "</CompleteMultipartUpload>";
    //  each part: fixed tags (~60) + number (<= 11) + escaped ETag (<= 5 * 79)
    size_t cap = sizeof head + sizeof tail + (size_t) (nparts > 0 ? nparts : 0) * 480;
    char *body = malloc (cap);
    if (!body)
        return NULL;
    size_t n = (size_t) sprintf (body, "%s", head);
    for (int i = 0; i < nparts; i++) {
        char tag[80];
        snprintf (tag, sizeof tag, "%s", etags[i]);
        n += (size_t) sprintf (body + n, "<Part><PartNumber>%d</PartNumber><ETag>", i + 1);
        n += s_escape (body + n, tag);
        n += (size_t) sprintf (body + n, "</ETag></Part>");
    }
    sprintf (body + n, "%s", tail);
    return body;
}
