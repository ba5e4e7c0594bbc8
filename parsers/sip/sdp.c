/* sdp.c — an SDP body (RFC 4566 §5) into spans of its message: lines "<type>=<value>" read in
 * order; the session part's lines until the first "m=", then one media description per "m="
 * (its i=, c=, b=, k=, a= lines). Each t= starts a time description and an r= after it is its
 * repeat time. The body is taken for SDP when its Content-Type is application/sdp, or, with
 * no Content-Type, when it starts with "v=". Lists keep SIP_SDP_MAX lines; more are shed and
 * counted. Lines of another shape are skipped. */
#include <string.h>
#include <strings.h>

#include "sip_int.h"

static bool content_type_is_sdp(const struct sip_msg *m, bool *has)
{
    *has = false;
    for (uint32_t i = 0; i < m->nhdr; i++) {
        if (m->hdr[i].kind != SH_CONTENT_TYPE)
            continue;
        *has = true;
        const struct span *v = &m->hdr[i].value;
        static const char SDP[] = "application/sdp";
        size_t l = sizeof SDP - 1;
        return v->len >= l && !strncasecmp((const char *)m->raw.p + v->off, SDP, l) &&
               (v->len == l || m->raw.p[v->off + l] == ';' || m->raw.p[v->off + l] == ' ');
    }
    return false;
}

/* append s to list[*n] (at most SIP_SDP_MAX), counting what is shed */
static void add(struct span *list, uint32_t *n, struct span s, uint32_t *shed)
{
    if (*n == SIP_SDP_MAX) {
        (*shed)++;
        return;
    }
    list[(*n)++] = s;
}

void sip_sdp_reset(struct sdp *s)
{
    s->present = false;
    s->version = s->origin = s->session_name = s->session_info = s->uri = (struct span){0};
    s->email = s->phone = s->conn = s->timezone = s->key = (struct span){0};
    s->nbw = s->nattr = s->ntimes = s->nmedia = 0; /* each entry is written whole when added */
}

uint32_t sip_sdp_parse(struct sip_msg *m)
{
    struct sdp *s = &m->sdp;
    sip_sdp_reset(s);
    if (!m->body.set || !m->body.len)
        return 0;
    const uint8_t *d = m->raw.p;
    bool has_ct;
    if (!content_type_is_sdp(m, &has_ct) &&
        (has_ct || m->body.len < 2 || memcmp(d + m->body.off, "v=", 2)))
        return 0;
    s->present = true;
    uint32_t shed = 0;
    size_t at = m->body.off, n = (size_t)m->body.off + m->body.len;
    struct sdp_media *md = NULL;
    while (at < n) {
        size_t e, next;
        pline_next(d, n, at, &e, &next); /* the last line may lack its LF */
        if (e - at >= 2 && d[at + 1] == '=') {
            struct span v = {(uint32_t)(at + 2), (uint32_t)(e - at - 2), true};
            uint8_t t = d[at];
            if (t == 'm') {
                if (s->nmedia == SIP_SDP_MAX) {
                    shed++;
                    md = NULL; /* its lines go nowhere */
                    at = next;
                    continue;
                }
                md = &s->media[s->nmedia++];
                *md = (struct sdp_media){.media = v};
            } else if (md) {
                switch (t) {
                case 'i': md->info = v; break;
                case 'c': md->conn = v; break;
                case 'k': md->key = v; break;
                case 'b': add(md->bw, &md->nbw, v, &shed); break;
                case 'a': add(md->attr, &md->nattr, v, &shed); break;
                default: break;
                }
            } else if (s->nmedia < SIP_SDP_MAX) { /* the session part */
                switch (t) {
                case 'v': s->version = v; break;
                case 'o': s->origin = v; break;
                case 's': s->session_name = v; break;
                case 'i': s->session_info = v; break;
                case 'u': s->uri = v; break;
                case 'e': s->email = v; break;
                case 'p': s->phone = v; break;
                case 'c': s->conn = v; break;
                case 'z': s->timezone = v; break;
                case 'k': s->key = v; break;
                case 'b': add(s->bw, &s->nbw, v, &shed); break;
                case 'a': add(s->attr, &s->nattr, v, &shed); break;
                case 't':
                    if (s->ntimes == SIP_SDP_MAX)
                        shed++;
                    else
                        s->times[s->ntimes++] = (struct sdp_time){.time = v};
                    break;
                case 'r':
                    if (s->ntimes && !s->times[s->ntimes - 1].repeat.set)
                        s->times[s->ntimes - 1].repeat = v;
                    break;
                default: break;
                }
            }
        }
        at = next;
    }
    return shed;
}
