/* eve.c — SIP's EVE object, as Suricata 8 writes it: sip{method, uri, version, request_line}
 * for a request, sip{version, code, reason, response_line} for a response, and sdp{…} when
 * the body is SDP (version, origin, session_name, session_info, uri, email, phone_number,
 * connection_data, bandwidths[], time_descriptions[{time, repeat_time}], timezone,
 * encryption_key, attributes[], media_descriptions[{media, media_info, bandwidths,
 * connection_data, encryption_key, attributes}]). */
#include <ctype.h>

#include "osprey_json_writer.h"
#include "sip_int.h"

static void str(struct osprey_jw *w, const char *key, const struct sip_msg *m,
                const struct span *s)
{
    if (s->set)
        osprey_jw_strn(w, key, m->raw.p + s->off, s->len);
}

static void list(struct osprey_jw *w, const char *key, const struct sip_msg *m,
                 const struct span *s, uint32_t n)
{
    if (!n)
        return;
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < n; i++)
        osprey_jw_strn(w, NULL, m->raw.p + s[i].off, s[i].len);
    osprey_jw_array_end(w);
}

static void sdp(struct osprey_jw *w, const struct sip_msg *m)
{
    const struct sdp *d = &m->sdp;
    osprey_jw_open(w, "sdp");
    if (d->version.set) { /* a number (v=0); other text is left out */
        int64_t v = 0;
        uint32_t k = 0;
        for (; k < d->version.len && k < 9 && isdigit(m->raw.p[d->version.off + k]); k++)
            v = v * 10 + (m->raw.p[d->version.off + k] - '0');
        if (k && k == d->version.len)
            osprey_jw_int(w, "version", v);
    }
    str(w, "origin", m, &d->origin);
    str(w, "session_name", m, &d->session_name);
    str(w, "session_info", m, &d->session_info);
    str(w, "uri", m, &d->uri);
    str(w, "email", m, &d->email);
    str(w, "phone_number", m, &d->phone);
    str(w, "connection_data", m, &d->conn);
    list(w, "bandwidths", m, d->bw, d->nbw);
    if (d->ntimes) {
        osprey_jw_array(w, "time_descriptions");
        for (uint32_t i = 0; i < d->ntimes; i++) {
            osprey_jw_open(w, NULL);
            str(w, "time", m, &d->times[i].time);
            str(w, "repeat_time", m, &d->times[i].repeat);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    str(w, "timezone", m, &d->timezone);
    str(w, "encryption_key", m, &d->key);
    list(w, "attributes", m, d->attr, d->nattr);
    if (d->nmedia) {
        osprey_jw_array(w, "media_descriptions");
        for (uint32_t i = 0; i < d->nmedia; i++) {
            const struct sdp_media *md = &d->media[i];
            osprey_jw_open(w, NULL);
            str(w, "media", m, &md->media);
            str(w, "media_info", m, &md->info);
            list(w, "bandwidths", m, md->bw, md->nbw);
            str(w, "connection_data", m, &md->conn);
            str(w, "encryption_key", m, &md->key);
            list(w, "attributes", m, md->attr, md->nattr);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    osprey_jw_close(w);
}

bool sip_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct sip_state *st = pf->state;
    if (!st || !st->msg.line.set)
        return false;
    if (!w)
        return true;
    const struct sip_msg *m = &st->msg;
    osprey_jw_open(w, "sip");
    if (!m->response) {
        str(w, "method", m, &m->method);
        str(w, "uri", m, &m->uri);
        str(w, "version", m, &m->version);
        str(w, "request_line", m, &m->line);
    } else {
        str(w, "version", m, &m->version);
        str(w, "code", m, &m->code);
        str(w, "reason", m, &m->reason);
        str(w, "response_line", m, &m->line);
    }
    if (m->sdp.present)
        sdp(w, m);
    osprey_jw_close(w);
    return true;
}
