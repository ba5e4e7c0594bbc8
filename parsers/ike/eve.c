/* eve.c — IKE's EVE object, as Suricata 8 writes it (its schema): ike{version_major,
 * version_minor, init_spi, resp_spi (hex), message_id, exchange_type, attributes (IKEv1: the
 * server's chosen transform, [{key, value, raw}]), role (IKEv2: initiator / responder),
 * payload (the payload types by name), ikev1{doi, encrypted_payloads, client{key_exchange_
 * payload (hex), key_exchange_payload_length, nonce_payload, nonce_payload_length, proposals
 * (a request's transforms' attributes)}, server{…}, vendor_ids} or ikev2{errors, notify}}.
 * An attribute read from a variable-length value the flow no longer holds has no raw. */
#include <stdio.h>

#include "ike_int.h"
#include "osprey_json_writer.h"

static void hex(struct osprey_jw *w, const char *key, const uint8_t *d, size_t n)
{
    char buf[2 * 64 + 1];
    if (n <= 64) {
        phex(buf, d, n);
        osprey_jw_str(w, key, buf);
        return;
    }
    /* longer: in pieces, as one string */
    struct pbuf t = {0};
    for (size_t i = 0; i < n; i += 64) {
        size_t k = n - i < 64 ? n - i : 64;
        phex(buf, d + i, k);
        pbuf_add(&t, buf, 2 * k, 0);
    }
    osprey_jw_strn(w, key, t.p ? t.p : (const uint8_t *)"", t.len);
    pbuf_free(&t);
}

static void attributes(struct osprey_jw *w, const struct ike_v1_transform *t,
                       const struct ike_msg *m)
{
    for (uint8_t k = 0; k < t->nattr; k++) {
        const struct ike_attr *a = &t->attr[k];
        osprey_jw_open(w, NULL);
        osprey_jw_str(w, "key", ike_attr_name(a->type));
        osprey_jw_str(w, "value", ike_attr_value_name(a->type, a->numeric ? a->value : 0));
        if (a->numeric)
            osprey_jw_int(w, "raw", a->value);
        else if (a->bytes.set && m)
            hex(w, "raw", m->body + a->bytes.off, a->bytes.len);
        osprey_jw_close(w);
    }
}

static void side(struct osprey_jw *w, const char *key, const struct ike_side *s,
                 const struct ike_msg *m, bool proposals, bool always)
{
    if (!always && !s->ke.len && !s->nonce.len)
        return;
    osprey_jw_open(w, key);
    if (s->ke.len) {
        hex(w, "key_exchange_payload", s->ke.p, s->ke.len);
        osprey_jw_int(w, "key_exchange_payload_length", s->ke.len);
    }
    if (s->nonce.len) {
        hex(w, "nonce_payload", s->nonce.p, s->nonce.len);
        osprey_jw_int(w, "nonce_payload_length", s->nonce.len);
    }
    if (proposals && m->nv1t) {
        osprey_jw_array(w, "proposals");
        for (uint32_t i = 0; i < m->nv1t; i++)
            attributes(w, &m->v1t[i], m);
        osprey_jw_array_end(w);
    }
    osprey_jw_close(w);
}

static void ikev1(struct osprey_jw *w, const struct ike_state *st, const struct ike_msg *m)
{
    osprey_jw_open(w, "ikev1");
    if (st->has_doi)
        osprey_jw_int(w, "doi", st->doi);
    osprey_jw_bool(w, "encrypted_payloads", m->encrypted);
    if (!m->encrypted) {
        side(w, "client", &st->side[0], m, m->dir == 0, true);
        side(w, "server", &st->side[1], m, false, false);
        if (m->nvendor) {
            osprey_jw_array(w, "vendor_ids");
            for (uint32_t i = 0; i < m->nvendor; i++)
                hex(w, NULL, m->body + m->vendor[i].off, m->vendor[i].len);
            osprey_jw_array_end(w);
        }
    }
    osprey_jw_close(w);
}

bool ike_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct ike_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct ike_msg *m = &st->cur;
    osprey_jw_open(w, "ike");
    osprey_jw_int(w, "version_major", m->maj);
    osprey_jw_int(w, "version_minor", m->min);
    hex(w, "init_spi", m->body, 8);
    hex(w, "resp_spi", m->body + 8, 8);
    osprey_jw_int(w, "message_id", m->msg_id);
    osprey_jw_int(w, "exchange_type", m->exch);
    if (m->maj == 1 && st->side[1].ntransforms && st->side[1].chosen.nattr) {
        osprey_jw_array(w, "attributes");
        attributes(w, &st->side[1].chosen, NULL);
        osprey_jw_array_end(w);
    }
    if (m->maj == 2)
        osprey_jw_str(w, "role", m->flags & 0x08 ? "initiator" : "responder");
    if (m->npayload) {
        osprey_jw_array(w, "payload");
        for (uint32_t i = 0; i < m->npayload; i++) {
            const char *n = m->maj == 1 ? ike_v1_payload_name(m->payload[i])
                                        : ike_v2_payload_name(m->payload[i]);
            char num[24];
            if (!n) {
                snprintf(num, sizeof num, "%s(%u)",
                         m->maj == 1 ? "IsakmpPayloadType" : "IkePayloadType", m->payload[i]);
                n = num;
            }
            osprey_jw_str(w, NULL, n);
        }
        osprey_jw_array_end(w);
    }
    if (m->maj == 1) {
        ikev1(w, st, m);
    } else {
        osprey_jw_open(w, "ikev2");
        osprey_jw_int(w, "errors", m->errors);
        if (m->nnotify) {
            osprey_jw_array(w, "notify");
            for (uint32_t i = 0; i < m->nnotify; i++) {
                const char *n = ike_v2_notify_name(m->notify[i]);
                char num[24];
                if (!n) {
                    snprintf(num, sizeof num, "%u", m->notify[i]);
                    n = num;
                }
                osprey_jw_str(w, NULL, n);
            }
            osprey_jw_array_end(w);
        }
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    return true;
}
