/* eve.c — HTTP's EVE object (Suricata's keys: http{hostname, http_port, url, http_user_agent,
 * http_content_type, http_refer, http_method, protocol, status, redirect, length}), alone in
 * an http record or inside an alert; and the hostname and port as Suricata derives them
 * (moved here from the engine, with the writer from outputs/). */
#include <string.h>
#include <strings.h>

#include "http_int.h"
#include "osprey_json_writer.h"

struct hspan {
    const uint8_t *p;
    uint32_t n;
};

static struct hspan get(struct pflow *pf, enum http_buf b)
{
    struct hspan s = {NULL, 0};
    s.p = http_buffer(pf, b, &s.n);
    if (!s.p)
        s.n = 0;
    return s;
}

static void span(struct osprey_jw *w, const char *key, struct hspan s)
{
    if (s.n)
        osprey_jw_strn(w, key, s.p, s.n);
}

/* The port an authority ("host:port", "[v6]:port") names, 0 when none or not a port. */
static int authority_port(struct hspan a)
{
    uint32_t i = a.n;
    while (i && a.p[i - 1] >= '0' && a.p[i - 1] <= '9')
        i--;
    if (i == a.n || i == 0 || a.p[i - 1] != ':' || a.n - i > 5)
        return 0;
    /* an IPv6 literal without brackets ("::1") names no port */
    if (a.p[0] != '[' && memchr(a.p, ':', i - 1))
        return 0;
    int port = 0;
    for (uint32_t k = i; k < a.n; k++)
        port = port * 10 + (a.p[k] - '0');
    return port <= 65535 ? port : 0;
}

/* Suricata's http_port: from the request target when it names an authority (absolute form
 * "http://host:port/…" or CONNECT's "host:port"), else from the Host header. */
static int request_port(struct hspan url, struct hspan method, struct hspan host)
{
    static const char connect[] = "CONNECT";
    const uint8_t *sep = url.n > 3 && url.p[0] != '/' ? memmem(url.p, url.n, "://", 3) : NULL;
    if (sep) {
        const uint8_t *auth = sep + 3, *end = url.p + url.n;
        const uint8_t *slash = memchr(auth, '/', (size_t)(end - auth));
        return authority_port((struct hspan){auth, (uint32_t)((slash ? slash : end) - auth)});
    }
    if (method.n == sizeof connect - 1 && !memcmp(method.p, connect, method.n))
        return authority_port(url);
    return authority_port(host);
}

/* EVE's hostname keeps the case it was sent in (Suricata logs libhtp's request hostname;
 * the http.host buffer is lower case): the Host header's own bytes when it names the same
 * host, else the buffer. */
static struct hspan hostname(struct pflow *pf)
{
    struct hspan host = get(pf, HB_HOST), raw = get(pf, HB_HOST_RAW);
    if (raw.n >= host.n && host.n &&
        !strncasecmp((const char *)raw.p, (const char *)host.p, host.n))
        return (struct hspan){raw.p, host.n};
    return host;
}

const uint8_t *http_hostname(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)i, (void)s;
    struct hspan h = hostname(pf);
    *len = h.n;
    return h.n ? h.p : NULL;
}

bool http_eve(struct pflow *pf, struct osprey_jw *w)
{
    struct hspan url = get(pf, HB_URI_RAW), method = get(pf, HB_METHOD);
    if (!method.n && !url.n)
        return false; /* no request seen: no record */
    if (!w)
        return true;
    osprey_jw_open(w, "http");
    span(w, "hostname", hostname(pf));
    int port = request_port(url, method, get(pf, HB_HOST_RAW));
    if (port)
        osprey_jw_int(w, "http_port", port);
    span(w, "url", url);
    span(w, "http_user_agent", get(pf, HB_USER_AGENT));
    /* the media type only, as Suricata: "text/html; charset=utf-8" is "text/html" */
    struct hspan ct = get(pf, HB_RESPONSE_CONTENT_TYPE);
    const void *semi = ct.n ? memchr(ct.p, ';', ct.n) : NULL;
    if (semi)
        ct.n = (uint32_t)((const uint8_t *)semi - ct.p);
    span(w, "http_content_type", ct);
    span(w, "http_refer", get(pf, HB_REFERER));
    span(w, "http_method", method);
    span(w, "protocol", get(pf, HB_PROTOCOL));
    int status = http_status(pf);
    if (status)
        osprey_jw_int(w, "status", status);
    span(w, "redirect", get(pf, HB_LOCATION));
    osprey_jw_int(w, "length", (int64_t)http_response_wire_len(pf));
    osprey_jw_close(w);
    return true;
}
