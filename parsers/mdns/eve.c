/* eve.c — mDNS's EVE object as Suricata 8 writes it: mdns{type (request / response, by the QR
 * bit), id, flags [aa, tc, rd, ra, z, ad, cd] when any, opcode, rcode, queries [{rrname,
 * rrtype}], answers, authorities, additionals [{rrname, …}]} with the record types lowercased.
 * A record's value is written where the EVE schema has a key for it: ptr (the name) and txt
 * (its strings, one array per record); the schema has none for A, AAAA, SRV … (Suricata writes
 * them under the type's name), so those records carry their rrname only, as do authorities
 * and additionals (the DNS decoder, ../dns_wire, keeps no rdata for the latter). */
#include <ctype.h>
#include <stdio.h>

#include "mdns_int.h"
#include "osprey_json_writer.h"

static void str(struct osprey_jw *w, const char *key, const struct dns_wire *s, uint32_t off,
                uint32_t len)
{
    osprey_jw_strn(w, key, s->text.p ? s->text.p + off : (const uint8_t *)"", len);
}

static void rrtype(struct osprey_jw *w, uint16_t t)
{
    char name[16];
    const char *n = dns_wire_rrtype_name(t);
    if (n) {
        size_t i = 0;
        for (; n[i] && i < sizeof name - 1; i++)
            name[i] = (char)tolower((unsigned char)n[i]);
        name[i] = 0;
    } else {
        snprintf(name, sizeof name, "%u", t);
    }
    osprey_jw_str(w, "rrtype", name);
}

static void answers(struct osprey_jw *w, const struct dns_wire *s)
{
    const struct dns_wire_info *di = &s->info;
    if (!di->nanswers)
        return;
    osprey_jw_array(w, "answers");
    for (uint32_t i = 0; i < di->nanswers; i++) {
        const struct dns_wire_rr *rr = &di->answers[i];
        const struct dns_wire_off *o = &s->off[DNS_SEC_ANSWER][i];
        if (rr->type == 16 && rr->txt_cont)
            continue; /* written with the record's first string */
        osprey_jw_open(w, NULL);
        str(w, "rrname", s, o->name, rr->name_len);
        if (rr->type == 12) {
            str(w, "ptr", s, o->rdata, rr->rdata_len);
        } else if (rr->type == 16) {
            osprey_jw_array(w, "txt");
            for (uint32_t k = i; k < di->nanswers; k++) {
                if (k > i && (di->answers[k].type != 16 || !di->answers[k].txt_cont))
                    break;
                str(w, NULL, s, s->off[DNS_SEC_ANSWER][k].rdata, di->answers[k].rdata_len);
            }
            osprey_jw_array_end(w);
        }
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

bool mdns_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct dns_wire *s = pf->state;
    if (!s || !s->has_msg)
        return false;
    if (!w)
        return true;
    const struct dns_wire_info *di = &s->info;
    osprey_jw_open(w, "mdns");
    osprey_jw_str(w, "type", di->response ? "response" : "request");
    osprey_jw_int(w, "id", di->id); /* the id on the wire (Suricata's tx_id() of a DNS tx) */
    static const struct { uint16_t bit; const char *name; } FLAGS[] = {
        {0x0400, "aa"}, {0x0200, "tc"}, {0x0100, "rd"}, {0x0080, "ra"},
        {0x0040, "z"}, {0x0020, "ad"}, {0x0010, "cd"}};
    if (di->flags & 0x07f0) {
        osprey_jw_array(w, "flags");
        for (size_t i = 0; i < PROTO_N(FLAGS); i++)
            if (di->flags & FLAGS[i].bit)
                osprey_jw_str(w, NULL, FLAGS[i].name);
        osprey_jw_array_end(w);
    }
    osprey_jw_int(w, "opcode", di->flags >> 11 & 0xf);
    osprey_jw_int(w, "rcode", di->flags & 0xf);
    if (di->nqueries) {
        osprey_jw_array(w, "queries");
        for (uint32_t i = 0; i < di->nqueries; i++) {
            osprey_jw_open(w, NULL);
            str(w, "rrname", s, s->qoff[i], di->queries[i].name_len);
            rrtype(w, di->queries[i].type);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    answers(w, s);
    if (di->nauthorities) {
        osprey_jw_array(w, "authorities");
        for (uint32_t i = 0; i < di->nauthorities; i++) {
            osprey_jw_open(w, NULL);
            str(w, "rrname", s, s->off[DNS_SEC_AUTHORITY][i].name, di->authorities[i].name_len);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    uint32_t nadd = 0;
    for (uint32_t i = 0; i < di->nadditionals; i++)
        nadd += di->additionals[i].type != 41;
    if (nadd) {
        osprey_jw_array(w, "additionals");
        for (uint32_t i = 0; i < di->nadditionals; i++) {
            if (di->additionals[i].type == 41)
                continue; /* OPT: Suricata leaves out an empty one; its options are not kept */
            osprey_jw_open(w, NULL);
            str(w, "rrname", s, s->aroff[i], di->additionals[i].name_len);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    osprey_jw_close(w);
    return true;
}
