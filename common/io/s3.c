/*  s3.c - the S3 client (see s3.h for the contract).

    How it keeps it:
    1. One CURL easy handle per client, reset (curl_easy_reset keeps its
       live connections) and set up again for every attempt: keep-alive
       without one request's options leaking into the next.
    2. Signing is curl's (CURLOPT_AWS_SIGV4 "aws:amz:REGION:s3"). curl
       7.88 signs the value of our x-amz-content-sha256 header as the
       payload's hash and sends no such header of its own (without one,
       SeaweedFS refuses a PUT: SignatureDoesNotMatch). So a request with a
       body says UNSIGNED-PAYLOAD, one without the empty string's SHA-256.
       (A body's own SHA-256 would let the server check the bytes - it
       does, XAmzContentSHA256Mismatch - at the cost of libcrypto and a
       hash of every object.) A body is given as CURLOPT_POSTFIELDS, the
       method by CURLOPT_CUSTOMREQUEST.
    3. libcurl 7.88 signs the URL's path and query as they are written, not
       canonicalized. So this file writes them canonically itself: every
       key byte but RFC 3986's unreserved ones and '/' as %XX (uppercase),
       query parameters in byte order of their names, every value encoded
       the same way ('/' too), and "name=" for a parameter without a value.
       CURLOPT_PATH_AS_IS keeps curl from squashing "/./" in a key.
    4. An attempt's failure is retried (capped exponential backoff) when it
       may pass: no answer (connect, send, receive, timeout) or 500, 502,
       503, 504. A CompleteMultipartUpload answered 200 with an <Error>
       body (S3 does that) is retried as a 5xx. Anything else is final.
    5. res->unsure: a request that changes something (PUT, POST, DELETE)
       whose attempt was sent whole (headers and body) and got no answer or
       a 5xx may have been applied. Once set it stays set for the request.
       A connection that was refused never sent anything: not unsure.
    6. The secret key goes to curl (CURLOPT_PASSWORD) and nowhere else: not
       into a log line, not into err. curl's own error texts name host and
       port, never the credentials.
*/
#include "s3.h"
#include "s3_xml.h"
#include "log.h"
#include <curl/curl.h>
#include <libxml/parser.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define S_BACKOFF_CAP_MS 2000
#define S_ERRBODY_MAX (64 * 1024)     //  what is kept of an error answer's body
#define S_LIST_MAX (64 * 1024 * 1024) //  a listing page's body, at most
#define S_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

struct _zs_s3_t {
    zs_s3_conf_t conf; //  defaults filled in
    CURL *curl;
    char scheme[8]; //  "http" or "https"
    char host[256]; //  host[:port] of the endpoint
    char sigv4[96]; //  "aws:amz:REGION:s3"
};

static _Atomic int64_t s_requests, s_retries, s_bytes_up, s_bytes_down;
static pthread_once_t s_once = PTHREAD_ONCE_INIT;
static CURLcode s_global_rc;

static void
s_global_init (void)
{
    s_global_rc = curl_global_init (CURL_GLOBAL_DEFAULT);
    xmlInitParser ();
}

void
zs_s3_stats (zs_s3_stats_t *stats)
{
    stats->requests = atomic_load (&s_requests);
    stats->retries = atomic_load (&s_retries);
    stats->bytes_up = atomic_load (&s_bytes_up);
    stats->bytes_down = atomic_load (&s_bytes_down);
}

//  --------------------------------------------------------------------------
//  Construction

//  "http[s]://host[:port][/]" -> scheme and host; 0 or -1 + err.
static int
s_endpoint (zs_s3_t *self, const char *endpoint, char *err, size_t errlen)
{
    if (!*endpoint) {
        snprintf (self->scheme, sizeof self->scheme, "https");
        snprintf (self->host, sizeof self->host, "s3.%s.amazonaws.com", self->conf.region);
        return 0;
    }
    const char *rest = NULL;
    if (strncmp (endpoint, "http://", 7) == 0) {
        snprintf (self->scheme, sizeof self->scheme, "http");
        rest = endpoint + 7;
    } else if (strncmp (endpoint, "https://", 8) == 0) {
        snprintf (self->scheme, sizeof self->scheme, "https");
        rest = endpoint + 8;
    } else {
        snprintf (err, errlen,
                  "s3: endpoint '%s' is not an http:// or https:// URL of a host and port",
                  endpoint);
        return -1;
    }
    size_t n = strspn (rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789.-_:[]");
    bool tail_ok = rest[n] == 0 || (rest[n] == '/' && rest[n + 1] == 0);
    if (n == 0 || !tail_ok || n >= sizeof self->host) {
        snprintf (err, errlen, "s3: endpoint '%s': want scheme://host[:port] and no path",
                  endpoint);
        return -1;
    }
    memcpy (self->host, rest, n);
    self->host[n] = 0;
    return 0;
}

zs_s3_t *
zs_s3_new (const zs_s3_conf_t *conf, char *err, size_t errlen)
{
    pthread_once (&s_once, s_global_init);
    if (s_global_rc != CURLE_OK) {
        snprintf (err, errlen, "s3: curl_global_init: %s", curl_easy_strerror (s_global_rc));
        return NULL;
    }
    if (!conf->access_key[0] || !conf->secret_key[0]) {
        snprintf (err, errlen, "s3: no credentials (the access key or the secret key is empty)");
        return NULL;
    }
    zs_s3_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "s3: out of memory");
        return NULL;
    }
    self->conf = *conf;
    zs_s3_conf_t *c = &self->conf;
    if (!c->region[0])
        snprintf (c->region, sizeof c->region, "us-east-1");
    c->timeout_ms = c->timeout_ms > 0 ? c->timeout_ms : 30000;
    c->max_attempts = c->max_attempts > 0 ? c->max_attempts : 6;
    c->backoff_ms = c->backoff_ms > 0 ? c->backoff_ms : 50;
    snprintf (self->sigv4, sizeof self->sigv4, "aws:amz:%s:s3", c->region);
    if (strchr (c->region, ':')) {
        snprintf (err, errlen, "s3: region '%s' has a ':'", c->region);
        zs_s3_destroy (&self);
        return NULL;
    }
    if (s_endpoint (self, c->endpoint, err, errlen)) {
        zs_s3_destroy (&self);
        return NULL;
    }
    self->curl = curl_easy_init ();
    if (!self->curl) {
        snprintf (err, errlen, "s3: curl_easy_init failed");
        zs_s3_destroy (&self);
        return NULL;
    }
    return self;
}

void
zs_s3_destroy (zs_s3_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_s3_t *self = *self_p;
    if (self->curl)
        curl_easy_cleanup (self->curl);
    //  the secret does not outlive the client in freed memory
    memset (self->conf.secret_key, 0, sizeof self->conf.secret_key);
    free (self);
    *self_p = NULL;
}

//  --------------------------------------------------------------------------
//  Bucket names and s3:// URLs

//  S3's rules for a bucket name; NULL when fine, else why not.
static const char *
s_bucket_refused (const char *b)
{
    size_t n = strlen (b);
    if (n < 3 || n > 63)
        return "not 3 to 63 characters";
    if (strspn (b, "abcdefghijklmnopqrstuvwxyz0123456789.-") != n)
        return "only lowercase letters, digits, '.' and '-' are allowed";
    bool alnum_first = (b[0] >= 'a' && b[0] <= 'z') || (b[0] >= '0' && b[0] <= '9');
    bool alnum_last = (b[n - 1] >= 'a' && b[n - 1] <= 'z') || (b[n - 1] >= '0' && b[n - 1] <= '9');
    if (!alnum_first || !alnum_last)
        return "must begin and end with a letter or a digit";
    if (strstr (b, "..") || strstr (b, ".-") || strstr (b, "-."))
        return "'..', '.-' and '-.' are not allowed";
    int a, b2, c, d;
    char tail;
    if (sscanf (b, "%d.%d.%d.%d%c", &a, &b2, &c, &d, &tail) == 4)
        return "must not look like an IP address";
    if (strncmp (b, "xn--", 4) == 0)
        return "must not begin with 'xn--'";
    return NULL;
}

int
zs_s3_parse_url (const char *url, char *bucket, size_t bucketlen, char *key, size_t keylen,
                 char *err, size_t errlen)
{
    if (!url || strncmp (url, "s3://", 5) != 0) {
        snprintf (err, errlen, "s3: '%s' is not an s3://bucket/key URL", url ? url : "(null)");
        return -1;
    }
    const char *b = url + 5;
    size_t blen = strcspn (b, "/");
    if (blen == 0) {
        snprintf (err, errlen, "s3: '%s' has no bucket", url);
        return -1;
    }
    char name[64];
    if (blen >= sizeof name) {
        snprintf (err, errlen, "s3: bucket of '%s' is longer than 63 characters", url);
        return -1;
    }
    memcpy (name, b, blen);
    name[blen] = 0;
    const char *why = s_bucket_refused (name);
    if (why) {
        snprintf (err, errlen, "s3: bucket '%s' of '%s': %s", name, url, why);
        return -1;
    }
    const char *k = b[blen] == '/' ? b + blen + 1 : b + blen;
    size_t klen = strlen (k);
    if (klen && k[klen - 1] == '/')
        klen--;
    if (*k == '/' || strstr (k, "//")) {
        snprintf (err, errlen, "s3: '%s' has an empty path segment ('//')", url);
        return -1;
    }
    if (klen > 1024) {
        snprintf (err, errlen, "s3: key of '%s' is longer than S3's 1024 bytes", url);
        return -1;
    }
    if (blen >= bucketlen || klen >= keylen) {
        snprintf (err, errlen, "s3: '%s' is too long for the caller's buffers", url);
        return -1;
    }
    memcpy (bucket, name, blen + 1);
    memcpy (key, k, klen);
    key[klen] = 0;
    return 0;
}

//  --------------------------------------------------------------------------
//  URLs: keys and query strings written as SigV4 canonicalizes them (3.)

static bool
s_unreserved (unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
           || c == '.' || c == '_' || c == '~';
}

//  Appends text to out, %XX-encoded; '/' kept when keep_slash. out must
//  have room for 3 * strlen (text) + 1 more bytes. Returns bytes written.
static size_t
s_encode (char *out, const char *text, bool keep_slash)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *) text; *p; p++) {
        if (s_unreserved (*p) || (keep_slash && *p == '/'))
            out[n++] = (char) *p;
        else {
            out[n++] = '%';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    out[n] = 0;
    return n;
}

//  A query parameter; value NULL leaves it out, "" writes "name=".
typedef struct {
    const char *name;
    const char *value;
} s_param_t;

//  The canonical query of params, which the caller lists in byte order of
//  their names (they are constants): malloc'd, NULL when out of memory.
static char *
s_query (const s_param_t *params, size_t n)
{
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        if (params[i].value)
            cap += strlen (params[i].name) + 3 * strlen (params[i].value) + 2;
    char *q = malloc (cap);
    if (!q)
        return NULL;
    size_t len = 0;
    q[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (!params[i].value)
            continue;
        len += (size_t) sprintf (q + len, "%s%s=", len ? "&" : "", params[i].name);
        len += s_encode (q + len, params[i].value, false);
    }
    return q;
}

//  --------------------------------------------------------------------------
//  One request, its attempts and their answers

typedef struct {
    const char *method; //  GET HEAD PUT POST DELETE
    const char *bucket;
    const char *key;   //  NULL: the bucket itself
    const char *query; //  canonical, NULL for none
    const void *body;  //  PUT and POST only (NULL: empty)
    size_t body_len;
    const char *content_type;
    const char *range; //  "bytes=A-B" or NULL
    const zs_s3_cond_t *cond;
    size_t max_size;  //  a 2xx body larger than this fails
    bool error_in_ok; //  a 200 may carry an <Error> (CompleteMultipartUpload)
} s_req_t;

typedef struct {
    char *data;
    size_t len, cap;
    size_t max;
    bool too_big;
    long status; //  of the attempt, known once the headers came
    zs_s3_result_t *res;
} s_buf_t;

static void
s_buf_clear (s_buf_t *buf)
{
    free (buf->data);
    buf->data = NULL;
    buf->len = buf->cap = 0;
    buf->too_big = false;
    buf->status = 0;
}

//  res as it is when no request was made.
static void
s_res_clear (zs_s3_result_t *res)
{
    memset (res, 0, sizeof *res);
    res->size = -1;
}

static size_t
s_on_body (char *ptr, size_t size, size_t nmemb, void *arg)
{
    s_buf_t *buf = arg;
    size_t n = size * nmemb;
    bool ok = buf->status >= 200 && buf->status < 300;
    size_t limit = ok ? buf->max : S_ERRBODY_MAX;
    if (buf->len + n > limit) {
        if (!ok)
            return n; //  the start of an error answer is enough
        buf->too_big = true;
        return 0;
    }
    if (buf->len + n + 1 > buf->cap) {
        size_t cap = buf->cap ? buf->cap : 4096;
        while (cap < buf->len + n + 1)
            cap *= 2;
        char *grown = realloc (buf->data, cap);
        if (!grown)
            return 0;
        buf->data = grown;
        buf->cap = cap;
    }
    memcpy (buf->data + buf->len, ptr, n);
    buf->len += n;
    buf->data[buf->len] = 0;
    return n;
}

//  "Name: value\r\n" -> value (trimmed) into out when name matches.
static bool
s_header_is (const char *line, size_t n, const char *name, char *out, size_t outlen)
{
    size_t nl = strlen (name);
    if (n <= nl || strncasecmp (line, name, nl) != 0 || line[nl] != ':')
        return false;
    const char *v = line + nl + 1;
    const char *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    snprintf (out, outlen, "%.*s", (int) (end - v), v);
    return true;
}

static size_t
s_on_header (char *line, size_t size, size_t nmemb, void *arg)
{
    s_buf_t *buf = arg;
    zs_s3_result_t *res = buf->res;
    size_t n = size * nmemb;
    char value[256];
    long status;
    if (n > 5 && strncmp (line, "HTTP/", 5) == 0) {
        //  a new answer's status line (a 100 Continue comes before the real one)
        const char *sp = memchr (line, ' ', n);
        status = sp ? strtol (sp + 1, NULL, 10) : 0;
        buf->status = status;
        res->etag[0] = 0;
        res->size = -1;
        res->mtime_ms = 0;
        res->date_ms = 0;
    } else if (s_header_is (line, n, "ETag", value, sizeof value))
        snprintf (res->etag, sizeof res->etag, "%s", value);
    else if (s_header_is (line, n, "Content-Length", value, sizeof value) && res->size < 0)
        res->size = strtoll (value, NULL, 10);
    else if (s_header_is (line, n, "Content-Range", value, sizeof value)) {
        //  "bytes A-B/TOTAL" or "bytes */TOTAL": the object's size
        const char *slash = strchr (value, '/');
        res->size = slash && slash[1] != '*' ? strtoll (slash + 1, NULL, 10) : -1;
    } else if (s_header_is (line, n, "Last-Modified", value, sizeof value)) {
        time_t t = curl_getdate (value, NULL);
        res->mtime_ms = t > 0 ? (int64_t) t * 1000 : 0;
    } else if (s_header_is (line, n, "Date", value, sizeof value)) {
        time_t t = curl_getdate (value, NULL);
        res->date_ms = t > 0 ? (int64_t) t * 1000 : 0;
    }
    return n;
}

//  The request's URL (malloc'd): path style (the endpoint, then
//  /BUCKET/KEY), or virtual-host style (BUCKET. before the endpoint's host,
//  then /KEY).
static char *
s_url (zs_s3_t *self, const s_req_t *req)
{
    const char *key = req->key ? req->key : "";
    size_t cap = strlen (self->scheme) + strlen (self->host) + strlen (req->bucket)
                 + 3 * strlen (key) + (req->query ? strlen (req->query) : 0) + 16;
    char *url = malloc (cap);
    if (!url)
        return NULL;
    size_t n;
    if (self->conf.path_style)
        n = (size_t) sprintf (url, "%s://%s/%s%s", self->scheme, self->host, req->bucket,
                              req->key ? "/" : "");
    else
        n = (size_t) sprintf (url, "%s://%s.%s/", self->scheme, req->bucket, self->host);
    n += s_encode (url + n, key, true);
    if (req->query && *req->query)
        sprintf (url + n, "?%s", req->query);
    return url;
}

//  Appends "name: value" to *h; on failure frees the list (*h NULL).
static void
s_add (struct curl_slist **h, const char *name, const char *value)
{
    char line[200];
    snprintf (line, sizeof line, "%s: %s", name, value);
    struct curl_slist *grown = *h ? curl_slist_append (*h, line) : NULL;
    if (!grown)
        curl_slist_free_all (*h);
    *h = grown;
}

//  The request's headers (NULL when out of memory). curl signs every
//  header given here, so none may be one that only removes curl's own
//  ("Expect:" would be signed and not sent). A body over 1 MiB waits for
//  100 Continue: a refused conditional PUT does not upload it.
static struct curl_slist *
s_headers (const s_req_t *req)
{
    bool body = req->body || !strcmp (req->method, "PUT") || !strcmp (req->method, "POST");
    struct curl_slist *h = curl_slist_append (NULL, body ? "x-amz-content-sha256: UNSIGNED-PAYLOAD"
                                                         : "x-amz-content-sha256: " S_EMPTY_SHA256);
    //  else curl announces a POSTFIELDS body as a form
    if (body)
        s_add (&h, "Content-Type",
               req->content_type ? req->content_type : "application/octet-stream");
    if (req->range)
        s_add (&h, "Range", req->range);
    if (req->cond && req->cond->if_none_match)
        s_add (&h, "If-None-Match", req->cond->if_none_match);
    if (req->cond && req->cond->if_match)
        s_add (&h, "If-Match", req->cond->if_match);
    return h;
}

//  Sets the handle up for one attempt (1., 2.) and runs it.
static CURLcode
s_attempt (zs_s3_t *self, const s_req_t *req, const char *url, struct curl_slist *headers,
           s_buf_t *buf, char *curlerr)
{
    CURL *c = self->curl;
    curl_easy_reset (c);
    curl_easy_setopt (c, CURLOPT_URL, url);
    curl_easy_setopt (c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt (c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt (c, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt (c, CURLOPT_TIMEOUT_MS, (long) self->conf.timeout_ms);
    curl_easy_setopt (c, CURLOPT_CONNECTTIMEOUT_MS,
                      (long) (self->conf.timeout_ms < 10000 ? self->conf.timeout_ms : 10000));
    curl_easy_setopt (c, CURLOPT_AWS_SIGV4, self->sigv4);
    curl_easy_setopt (c, CURLOPT_USERNAME, self->conf.access_key);
    curl_easy_setopt (c, CURLOPT_PASSWORD, self->conf.secret_key);
    curl_easy_setopt (c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt (c, CURLOPT_ERRORBUFFER, curlerr);
    curl_easy_setopt (c, CURLOPT_HEADERFUNCTION, s_on_header);
    curl_easy_setopt (c, CURLOPT_HEADERDATA, buf);
    curl_easy_setopt (c, CURLOPT_WRITEFUNCTION, s_on_body);
    curl_easy_setopt (c, CURLOPT_WRITEDATA, buf);
    //  A conditional request goes on a connection of its own: on a reused
    //  one whose answer is lost, libcurl sends the request again by itself,
    //  unseen, and the 412 that follows would be for our own write with
    //  nothing telling us so (io_s3.c reads back only when res->unsure).
    //  On a new connection libcurl never re-sends.
    if (req->cond && (req->cond->if_none_match || req->cond->if_match))
        curl_easy_setopt (c, CURLOPT_FRESH_CONNECT, 1L);
    if (!strcmp (req->method, "HEAD"))
        curl_easy_setopt (c, CURLOPT_NOBODY, 1L);
    else if (!strcmp (req->method, "PUT") || !strcmp (req->method, "POST")) {
        curl_easy_setopt (c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) req->body_len);
        curl_easy_setopt (c, CURLOPT_POSTFIELDS, req->body ? req->body : "");
        curl_easy_setopt (c, CURLOPT_CUSTOMREQUEST, req->method);
    } else if (strcmp (req->method, "GET") != 0)
        curl_easy_setopt (c, CURLOPT_CUSTOMREQUEST, req->method);
    curlerr[0] = 0;
    return curl_easy_perform (c);
}

//  May an attempt that failed this way pass when tried again?
static bool
s_retryable_curl (CURLcode cc)
{
    switch (cc) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return true;
    default:
        return false;
    }
}

static bool
s_retryable_status (long status)
{
    return status == 500 || status == 502 || status == 503 || status == 504;
}

static bool
s_changes (const s_req_t *req)
{
    return strcmp (req->method, "GET") != 0 && strcmp (req->method, "HEAD") != 0;
}

//  Was the attempt's request sent whole (5.)?
static bool
s_sent_whole (CURL *c, const s_req_t *req)
{
    long request_size = 0;
    curl_off_t up = 0;
    curl_easy_getinfo (c, CURLINFO_REQUEST_SIZE, &request_size);
    curl_easy_getinfo (c, CURLINFO_SIZE_UPLOAD_T, &up);
    return request_size > 0 && (size_t) up >= req->body_len;
}

static void
s_sleep_ms (int64_t ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep (&ts, &ts) != 0)
        ;
}

//  What the request is, for log lines and err: "PUT s3://bucket/key".
static void
s_what (const s_req_t *req, char *out, size_t outlen)
{
    snprintf (out, outlen, "%s s3://%s/%s", req->method, req->bucket, req->key ? req->key : "");
}

//  The error answer's <Code> into res; true when the attempt is to be
//  retried as a 5xx (a 200 carrying an <Error>, 4.).
static bool
s_read_answer (const s_req_t *req, s_buf_t *buf, zs_s3_result_t *res)
{
    res->code[0] = 0;
    if (res->status >= 300)
        zs_s3_xml_error (buf->data, buf->len, res->code, sizeof res->code);
    else if (req->error_in_ok && res->status == 200
             && zs_s3_xml_error (buf->data, buf->len, res->code, sizeof res->code))
        return true;
    return false;
}

typedef enum { S_DONE, S_FAIL, S_RETRY } s_outcome_t;

//  What an attempt came to (4.); why says it when it is not done.
static s_outcome_t
s_outcome (zs_s3_t *self, const s_req_t *req, CURLcode cc, s_buf_t *buf, zs_s3_result_t *res,
           const char *curlerr, char *why, size_t whylen)
{
    if (cc == CURLE_OK) {
        curl_easy_getinfo (self->curl, CURLINFO_RESPONSE_CODE, &res->status);
        if (s_read_answer (req, buf, res)) {
            snprintf (why, whylen, "HTTP 200 with an <Error> %s", res->code);
            return S_RETRY;
        }
        snprintf (why, whylen, "HTTP %ld %s", res->status, res->code);
        return s_retryable_status (res->status) ? S_RETRY : S_DONE;
    }
    if (buf->too_big) {
        snprintf (why, whylen, "the answer is larger than %zu bytes", req->max_size);
        return S_FAIL;
    }
    snprintf (why, whylen, "%s", curlerr[0] ? curlerr : curl_easy_strerror (cc));
    return s_retryable_curl (cc) ? S_RETRY : S_FAIL;
}

static void
s_count (CURL *curl)
{
    curl_off_t up = 0, down = 0;
    curl_easy_getinfo (curl, CURLINFO_SIZE_UPLOAD_T, &up);
    curl_easy_getinfo (curl, CURLINFO_SIZE_DOWNLOAD_T, &down);
    atomic_fetch_add (&s_requests, 1);
    atomic_fetch_add (&s_bytes_up, (int64_t) up);
    atomic_fetch_add (&s_bytes_down, (int64_t) down);
}

//  Waits before attempt + 1: backoff_ms doubled each time, capped.
static void
s_backoff (zs_s3_t *self, int attempt, const char *what, const char *why)
{
    int64_t delay = self->conf.backoff_ms;
    for (int i = 1; i < attempt && delay < S_BACKOFF_CAP_MS; i++)
        delay *= 2;
    delay = delay < S_BACKOFF_CAP_MS ? delay : S_BACKOFF_CAP_MS;
    zs_warn ("s3: %s: %s (attempt %d of %d), retrying in %lld ms", what, why, attempt,
             self->conf.max_attempts, (long long) delay);
    atomic_fetch_add (&s_retries, 1);
    s_sleep_ms (delay);
}

//  Runs req, its attempts and their retries (4., 5.). 0 when an HTTP
//  answer came (buf holds its body), -1 + err when none did.
static int
s_perform (zs_s3_t *self, const s_req_t *req, zs_s3_result_t *res, s_buf_t *buf, char *err,
           size_t errlen)
{
    s_res_clear (res);
    memset (buf, 0, sizeof *buf);
    buf->max = req->max_size;
    buf->res = res;
    char what[ZS_PATH_MAX + 80], curlerr[CURL_ERROR_SIZE], why[CURL_ERROR_SIZE + 80];
    s_what (req, what, sizeof what);
    char *url = s_url (self, req);
    struct curl_slist *headers = s_headers (req);
    int rc = -1;
    if (!url || !headers)
        snprintf (err, errlen, "s3: %s: out of memory", what);
    for (int attempt = 1; url && headers; attempt++) {
        s_buf_clear (buf);
        res->attempts = attempt;
        res->status = 0;
        CURLcode cc = s_attempt (self, req, url, headers, buf, curlerr);
        s_count (self->curl);
        s_outcome_t outcome = s_outcome (self, req, cc, buf, res, curlerr, why, sizeof why);
        if (outcome == S_DONE)
            rc = 0;
        else if (outcome == S_FAIL)
            snprintf (err, errlen, "s3: %s: %s", what, why);
        if (outcome != S_RETRY)
            break;
        if (s_changes (req) && s_sent_whole (self->curl, req))
            res->unsure = true;
        if (attempt >= self->conf.max_attempts) {
            if (cc == CURLE_OK && s_retryable_status (res->status))
                rc = 0; //  an answer all the same: res->status says which
            else
                snprintf (err, errlen, "s3: %s: no answer after %d attempts: %s", what, attempt,
                          why);
            break;
        }
        s_backoff (self, attempt, what, why);
    }
    free (url);
    curl_slist_free_all (headers);
    return rc;
}

//  --------------------------------------------------------------------------
//  Objects

//  bucket and key (when want_key) present; 0 or -1 + err.
static int
s_check_args (const char *op, const char *bucket, const char *key, bool want_key, char *err,
              size_t errlen)
{
    if (!bucket || !*bucket) {
        snprintf (err, errlen, "s3: %s without a bucket", op);
        return -1;
    }
    if (want_key && (!key || !*key)) {
        snprintf (err, errlen, "s3: %s of s3://%s/ without a key", op, bucket);
        return -1;
    }
    if (key && strlen (key) > 1024) {
        snprintf (err, errlen, "s3: %s of s3://%s/%.40s…: key longer than 1024 bytes", op, bucket,
                  key);
        return -1;
    }
    return 0;
}

//  A condition's values go into headers: printable ASCII, no longer than
//  an ETag. 0 or -1 + err.
static int
s_check_cond (const char *op, const zs_s3_cond_t *cond, char *err, size_t errlen)
{
    const char *values[2] = {cond ? cond->if_none_match : NULL, cond ? cond->if_match : NULL};
    for (int i = 0; i < 2; i++) {
        if (!values[i])
            continue;
        bool ok = strlen (values[i]) < 128;
        for (const char *p = values[i]; ok && *p; p++)
            ok = *p >= 0x20 && *p < 0x7f;
        if (!ok) {
            snprintf (err, errlen, "s3: %s: a condition that is not a header value", op);
            return -1;
        }
    }
    return 0;
}

//  err for an answer the caller cannot take: "s3: GET s3://b/k: HTTP 403 AccessDenied".
static int
s_refused (const s_req_t *req, const zs_s3_result_t *res, char *err, size_t errlen)
{
    char what[ZS_PATH_MAX + 80];
    s_what (req, what, sizeof what);
    snprintf (err, errlen, "s3: %s: HTTP %ld%s%s", what, res->status, res->code[0] ? " " : "",
              res->code);
    return -1;
}

int
zs_s3_put (zs_s3_t *self, const char *bucket, const char *key, const void *data, size_t len,
           const zs_s3_cond_t *cond, zs_s3_result_t *res, char *err, size_t errlen)
{
    s_res_clear (res);
    if (s_check_args ("PUT", bucket, key, true, err, errlen)
        || s_check_cond ("PUT", cond, err, errlen))
        return -1;
    s_req_t req = {.method = "PUT",
                   .bucket = bucket,
                   .key = key,
                   .body = data,
                   .body_len = len,
                   .cond = cond,
                   .max_size = S_ERRBODY_MAX};
    s_buf_t buf;
    int rc = s_perform (self, &req, res, &buf, err, errlen);
    s_buf_clear (&buf);
    return rc;
}

int
zs_s3_head (zs_s3_t *self, const char *bucket, const char *key, zs_s3_result_t *res, char *err,
            size_t errlen)
{
    s_res_clear (res);
    if (s_check_args ("HEAD", bucket, key, true, err, errlen))
        return -1;
    s_req_t req = {.method = "HEAD", .bucket = bucket, .key = key};
    s_buf_t buf;
    int rc = s_perform (self, &req, res, &buf, err, errlen);
    s_buf_clear (&buf);
    return rc;
}

int
zs_s3_delete (zs_s3_t *self, const char *bucket, const char *key, zs_s3_result_t *res, char *err,
              size_t errlen)
{
    s_res_clear (res);
    if (s_check_args ("DELETE", bucket, key, true, err, errlen))
        return -1;
    s_req_t req = {.method = "DELETE", .bucket = bucket, .key = key, .max_size = S_ERRBODY_MAX};
    s_buf_t buf;
    int rc = s_perform (self, &req, res, &buf, err, errlen);
    s_buf_clear (&buf);
    return rc;
}

//  A GET of nothing ([offset, offset)): a HEAD says whether the object is
//  there; its answer is an empty body.
static int
s_get_nothing (zs_s3_t *self, const char *bucket, const char *key, char **data_p,
               zs_s3_result_t *res, char *err, size_t errlen)
{
    if (zs_s3_head (self, bucket, key, res, err, errlen))
        return -1;
    if (res->status == 200 && !(*data_p = calloc (1, 1))) {
        snprintf (err, errlen, "s3: out of memory");
        return -1;
    }
    return 0;
}

int
zs_s3_get (zs_s3_t *self, const char *bucket, const char *key, int64_t offset, int64_t len,
           size_t max_size, char **data_p, size_t *len_p, zs_s3_result_t *res, char *err,
           size_t errlen)
{
    s_res_clear (res);
    *data_p = NULL;
    *len_p = 0;
    if (s_check_args ("GET", bucket, key, true, err, errlen))
        return -1;
    if (offset < 0 || len < -1) {
        snprintf (err, errlen, "s3: GET s3://%s/%s: bad range (offset %lld, length %lld)", bucket,
                  key, (long long) offset, (long long) len);
        return -1;
    }
    if (len == 0)
        return s_get_nothing (self, bucket, key, data_p, res, err, errlen);
    char range[64] = "";
    if (len > 0)
        snprintf (range, sizeof range, "bytes=%lld-%lld", (long long) offset,
                  (long long) (offset + len - 1));
    else if (offset > 0)
        snprintf (range, sizeof range, "bytes=%lld-", (long long) offset);
    s_req_t req = {.method = "GET",
                   .bucket = bucket,
                   .key = key,
                   .range = range[0] ? range : NULL,
                   .max_size = max_size};
    s_buf_t buf;
    if (s_perform (self, &req, res, &buf, err, errlen)) {
        s_buf_clear (&buf);
        return -1;
    }
    if (res->status != 200 && res->status != 206) {
        s_buf_clear (&buf);
        return 0;
    }
    if (!buf.data && !(buf.data = calloc (1, 1))) {
        snprintf (err, errlen, "s3: out of memory");
        return -1;
    }
    if (res->status == 200 && req.range) {
        //  a server that ignored the Range sent the whole object: cut it
        size_t from = (size_t) offset < buf.len ? (size_t) offset : buf.len;
        size_t n = len > 0 && (size_t) len < buf.len - from ? (size_t) len : buf.len - from;
        memmove (buf.data, buf.data + from, n);
        buf.len = n;
        buf.data[n] = 0;
    }
    *data_p = buf.data;
    *len_p = buf.len;
    return 0;
}

//  --------------------------------------------------------------------------
//  Listings

//  GET of a bucket-level query whose answer must be 200: 0 with the body
//  in buf, or -1 + err.
static int
s_get_listing (zs_s3_t *self, const char *bucket, const char *query, s_buf_t *buf, char *err,
               size_t errlen)
{
    s_req_t req = {.method = "GET", .bucket = bucket, .query = query, .max_size = S_LIST_MAX};
    zs_s3_result_t res;
    if (s_perform (self, &req, &res, buf, err, errlen))
        return -1;
    if (res.status != 200)
        return s_refused (&req, &res, err, errlen);
    return 0;
}

int
zs_s3_list (zs_s3_t *self, const char *bucket, const char *prefix, const char *delimiter,
            zs_s3_list_fn *fn, void *arg, char *err, size_t errlen)
{
    if (s_check_args ("ListObjectsV2", bucket, NULL, false, err, errlen))
        return -1;
    char *token = NULL;
    int rc;
    do {
        s_param_t params[] = {{"continuation-token", token},
                              {"delimiter", delimiter && *delimiter ? delimiter : NULL},
                              {"list-type", "2"},
                              {"prefix", prefix && *prefix ? prefix : NULL}};
        char *query = s_query (params, sizeof params / sizeof params[0]);
        s_buf_t buf;
        bool truncated = false;
        rc = query ? s_get_listing (self, bucket, query, &buf, err, errlen) : -1;
        free (query);
        free (token);
        token = NULL;
        if (rc == 0)
            rc = zs_s3_xml_list_page (buf.data, buf.len, fn, arg, &truncated, &token, err, errlen);
        s_buf_clear (&buf);
        if (rc == 0 && !truncated)
            break;
    } while (rc == 0);
    free (token);
    return rc;
}

int
zs_s3_mpu_list (zs_s3_t *self, const char *bucket, const char *prefix, zs_s3_upload_fn *fn,
                void *arg, char *err, size_t errlen)
{
    if (s_check_args ("ListMultipartUploads", bucket, NULL, false, err, errlen))
        return -1;
    char *key_marker = NULL, *id_marker = NULL;
    int rc;
    do {
        s_param_t params[] = {{"key-marker", key_marker},
                              {"prefix", prefix && *prefix ? prefix : NULL},
                              {"upload-id-marker", key_marker ? id_marker : NULL},
                              {"uploads", ""}};
        char *query = s_query (params, sizeof params / sizeof params[0]);
        s_buf_t buf;
        bool truncated = false;
        rc = query ? s_get_listing (self, bucket, query, &buf, err, errlen) : -1;
        free (query);
        free (key_marker);
        free (id_marker);
        key_marker = id_marker = NULL;
        if (rc == 0)
            rc = zs_s3_xml_uploads_page (buf.data, buf.len, fn, arg, &truncated, &key_marker,
                                         &id_marker, err, errlen);
        s_buf_clear (&buf);
        if (rc == 0 && !truncated)
            break;
    } while (rc == 0);
    free (key_marker);
    free (id_marker);
    return rc;
}

//  --------------------------------------------------------------------------
//  Multipart uploads and buckets

int
zs_s3_mpu_create (zs_s3_t *self, const char *bucket, const char *key, char *upload_id, size_t idlen,
                  char *err, size_t errlen)
{
    if (s_check_args ("CreateMultipartUpload", bucket, key, true, err, errlen))
        return -1;
    s_req_t req = {.method = "POST",
                   .bucket = bucket,
                   .key = key,
                   .query = "uploads=",
                   .max_size = S_ERRBODY_MAX};
    zs_s3_result_t res;
    s_buf_t buf;
    int rc = s_perform (self, &req, &res, &buf, err, errlen);
    if (rc == 0 && res.status != 200)
        rc = s_refused (&req, &res, err, errlen);
    if (rc == 0)
        rc = zs_s3_xml_upload_id (buf.data, buf.len, upload_id, idlen, err, errlen);
    s_buf_clear (&buf);
    return rc;
}

//  "partNumber=N&uploadId=ID" (malloc'd).
static char *
s_part_query (int part, const char *upload_id)
{
    char number[16];
    snprintf (number, sizeof number, "%d", part);
    s_param_t params[] = {{"partNumber", part > 0 ? number : NULL}, {"uploadId", upload_id}};
    return s_query (params, 2);
}

int
zs_s3_mpu_put_part (zs_s3_t *self, const char *bucket, const char *key, const char *upload_id,
                    int part, const void *data, size_t len, char *etag, size_t etaglen, char *err,
                    size_t errlen)
{
    if (s_check_args ("UploadPart", bucket, key, true, err, errlen))
        return -1;
    if (part < 1 || part > 10000 || !upload_id || !*upload_id) {
        snprintf (err, errlen, "s3: UploadPart of s3://%s/%s: part %d (1 to 10000) of upload '%s'",
                  bucket, key, part, upload_id ? upload_id : "");
        return -1;
    }
    char *query = s_part_query (part, upload_id);
    s_req_t req = {.method = "PUT",
                   .bucket = bucket,
                   .key = key,
                   .query = query,
                   .body = data,
                   .body_len = len,
                   .max_size = S_ERRBODY_MAX};
    zs_s3_result_t res;
    s_buf_t buf;
    int rc = query ? s_perform (self, &req, &res, &buf, err, errlen) : -1;
    if (!query)
        snprintf (err, errlen, "s3: out of memory");
    else if (rc == 0 && res.status != 200)
        rc = s_refused (&req, &res, err, errlen);
    else if (rc == 0 && (!res.etag[0] || strlen (res.etag) >= etaglen)) {
        snprintf (err, errlen, "s3: UploadPart %d of s3://%s/%s: no usable ETag in the answer",
                  part, bucket, key);
        rc = -1;
    }
    if (rc == 0)
        snprintf (etag, etaglen, "%s", res.etag);
    if (query)
        s_buf_clear (&buf);
    free (query);
    return rc;
}

int
zs_s3_mpu_complete (zs_s3_t *self, const char *bucket, const char *key, const char *upload_id,
                    char (*etags)[80], int nparts, const zs_s3_cond_t *cond, zs_s3_result_t *res,
                    char *err, size_t errlen)
{
    s_res_clear (res);
    if (s_check_args ("CompleteMultipartUpload", bucket, key, true, err, errlen)
        || s_check_cond ("CompleteMultipartUpload", cond, err, errlen))
        return -1;
    if (nparts < 1 || nparts > 10000 || !upload_id || !*upload_id) {
        snprintf (err, errlen, "s3: CompleteMultipartUpload of s3://%s/%s: %d parts of '%s'",
                  bucket, key, nparts, upload_id ? upload_id : "");
        return -1;
    }
    char *query = s_part_query (0, upload_id);
    char *body = zs_s3_xml_complete_body (etags, nparts);
    int rc = -1;
    if (!query || !body)
        snprintf (err, errlen, "s3: out of memory");
    else {
        s_req_t req = {.method = "POST",
                       .bucket = bucket,
                       .key = key,
                       .query = query,
                       .body = body,
                       .body_len = strlen (body),
                       .content_type = "application/xml",
                       .cond = cond,
                       .max_size = S_ERRBODY_MAX,
                       .error_in_ok = true};
        s_buf_t buf;
        rc = s_perform (self, &req, res, &buf, err, errlen);
        s_buf_clear (&buf);
    }
    free (query);
    free (body);
    return rc;
}

int
zs_s3_mpu_abort (zs_s3_t *self, const char *bucket, const char *key, const char *upload_id,
                 char *err, size_t errlen)
{
    if (s_check_args ("AbortMultipartUpload", bucket, key, true, err, errlen))
        return -1;
    char *query = upload_id && *upload_id ? s_part_query (0, upload_id) : NULL;
    if (!query) {
        snprintf (err, errlen, "s3: AbortMultipartUpload of s3://%s/%s without an upload id",
                  bucket, key);
        return -1;
    }
    s_req_t req = {.method = "DELETE",
                   .bucket = bucket,
                   .key = key,
                   .query = query,
                   .max_size = S_ERRBODY_MAX};
    zs_s3_result_t res;
    s_buf_t buf;
    int rc = s_perform (self, &req, &res, &buf, err, errlen);
    bool gone = res.status == 404; //  NoSuchUpload: aborted or completed already
    if (rc == 0 && !gone && (res.status < 200 || res.status >= 300))
        rc = s_refused (&req, &res, err, errlen);
    s_buf_clear (&buf);
    free (query);
    return rc;
}

int
zs_s3_create_bucket (zs_s3_t *self, const char *bucket, char *err, size_t errlen)
{
    const char *why = bucket ? s_bucket_refused (bucket) : "none given";
    if (why) {
        snprintf (err, errlen, "s3: bucket '%s': %s", bucket ? bucket : "", why);
        return -1;
    }
    s_req_t req = {.method = "PUT", .bucket = bucket, .max_size = S_ERRBODY_MAX};
    zs_s3_result_t res;
    s_buf_t buf;
    int rc = s_perform (self, &req, &res, &buf, err, errlen);
    bool ours = res.status == 409 && !strcmp (res.code, "BucketAlreadyOwnedByYou");
    if (rc == 0 && res.status != 200 && !ours)
        rc = s_refused (&req, &res, err, errlen);
    s_buf_clear (&buf);
    return rc;
}
