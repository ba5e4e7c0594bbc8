/* eve.c — an HTTP/2 transaction's EVE object as Suricata writes it: an "http" object
 * (hostname from :authority, url, http_user_agent, http_content_type, http_method, status,
 * length of the response DATA, version "2", request_headers / response_headers as
 * {name, value}) with its "http2" sub-object (stream_id; request / response: settings as
 * {settings_id, settings_value}, error_code, priority — each only when the frames had it).
 * Names are Suricata's spellings (SETTINGSMAXCONCURRENTSTREAMS, NOERROR). */
#include <string.h>

#include "http2_int.h"
#include "osprey_json_writer.h"

const char *h2_error_name(uint32_t code)
{
    static const char *const N[] = {
        "NOERROR", "PROTOCOLERROR", "INTERNALERROR", "FLOWCONTROLERROR", "SETTINGSTIMEOUT",
        "STREAMCLOSED", "FRAMESIZEERROR", "REFUSEDSTREAM", "CANCEL", "COMPRESSIONERROR",
        "CONNECTERROR", "ENHANCEYOURCALM", "INADEQUATESECURITY", "HTTP11REQUIRED"};
    return code < sizeof N / sizeof N[0] ? N[code] : "UNKNOWN";
}

const char *h2_setting_name(uint16_t id)
{
    static const char *const N[] = {
        NULL, "SETTINGSHEADERTABLESIZE", "SETTINGSENABLEPUSH", "SETTINGSMAXCONCURRENTSTREAMS",
        "SETTINGSINITIALWINDOWSIZE", "SETTINGSMAXFRAMESIZE", "SETTINGSMAXHEADERLISTSIZE", NULL,
        "SETTINGSENABLECONNECTPROTOCOL"};
    return id < sizeof N / sizeof N[0] && N[id] ? N[id] : "UNKNOWN";
}

static void value(struct osprey_jw *w, const struct h2_side *sd, const char *key,
                  const char *name)
{
    uint32_t n;
    const uint8_t *v = h2_header(sd, name, &n);
    if (v && n)
        osprey_jw_strn(w, key, v, n);
}

static void header_list(struct osprey_jw *w, const char *key, const struct h2_side *sd)
{
    if (!sd->nh)
        return;
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < sd->nh; i++) {
        const struct h2_header *h = &sd->h[i];
        osprey_jw_open(w, NULL);
        osprey_jw_strn(w, "name", h2_copy(sd) + h->no, h->nl);
        osprey_jw_strn(w, "value", h2_copy(sd) + h->vo, h->vl);
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

static void side_obj(struct osprey_jw *w, const char *key, const struct h2_side *sd, bool req)
{
    bool prio = req && sd->nprios;
    if (!sd->nsettings && !sd->nerrors && !prio)
        return; /* an empty object is not written (the schema wants one key at least) */
    osprey_jw_open(w, key);
    if (sd->nsettings) {
        osprey_jw_array(w, "settings");
        for (uint32_t i = 0; i < sd->nsettings; i++) {
            osprey_jw_open(w, NULL);
            osprey_jw_str(w, "settings_id", h2_setting_name(sd->settings[i].id));
            osprey_jw_int(w, "settings_value", sd->settings[i].value);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    if (sd->nerrors)
        osprey_jw_str(w, "error_code", h2_error_name(sd->errors[sd->nerrors - 1]));
    if (prio)
        osprey_jw_int(w, "priority", sd->prios[sd->nprios - 1]);
    osprey_jw_close(w);
}

bool http2_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct http2_state *st = pf->state;
    if (!st || !st->cur)
        return false;
    if (!w)
        return true;
    const struct h2_stream *s = st->cur;
    const struct h2_side *rq = &s->s[0], *rs = &s->s[1];
    osprey_jw_open(w, "http");
    value(w, rq, "hostname", ":authority");
    value(w, rq, "url", ":path");
    value(w, rq, "http_user_agent", "user-agent");
    uint32_t n;
    const uint8_t *ct = h2_header(rs, "content-type", &n);
    if (ct && n) {
        const uint8_t *semi = memchr(ct, ';', n); /* the media type only, as for HTTP/1 */
        osprey_jw_strn(w, "http_content_type", ct, semi ? (size_t)(semi - ct) : n);
    }
    value(w, rq, "http_refer", "referer");
    value(w, rq, "http_method", ":method");
    const uint8_t *status = h2_header(rs, ":status", &n);
    int code = 0;
    for (uint32_t i = 0; status && i < n && i < 4 && status[i] >= '0' && status[i] <= '9'; i++)
        code = code * 10 + (status[i] - '0');
    if (code)
        osprey_jw_int(w, "status", code);
    osprey_jw_int(w, "length", (int64_t)rs->wire);
    osprey_jw_str(w, "version", "2");
    header_list(w, "request_headers", rq);
    header_list(w, "response_headers", rs);
    osprey_jw_open(w, "http2");
    osprey_jw_int(w, "stream_id", s->id);
    side_obj(w, "request", rq, true);
    side_obj(w, "response", rs, false);
    osprey_jw_close(w);
    osprey_jw_close(w);
    return true;
}
