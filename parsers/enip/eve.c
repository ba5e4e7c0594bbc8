/* eve.c — EtherNet/IP's EVE object, as Suricata 8 writes it: enip{request{command, status,
 * register_session{protocol_version, options}, cip{service, path[{segment_type, value}],
 * multiple[…]}}, response{command, status, identity{…}, list_services{…}, register_session,
 * cip{service, status, status_extended, multiple[…]}}}. */
#include <stdio.h>

#include "enip_int.h"
#include "osprey_json_writer.h"

static void seg(struct osprey_jw *w, const char *type, uint32_t v)
{
    if (v == ENIP_NONE)
        return;
    osprey_jw_open(w, NULL);
    osprey_jw_str(w, "segment_type", type);
    osprey_jw_int(w, "value", v);
    osprey_jw_close(w);
}

static void cip_body(struct osprey_jw *w, const struct enip_cip *c)
{
    osprey_jw_str(w, "service", enip_cip_service_name(c->service));
    if (c->reply) {
        osprey_jw_str(w, "status", enip_cip_status_name(c->status));
        if (c->has_ext) {
            char x[8];
            snprintf(x, sizeof x, "0x%04x", c->ext_status);
            osprey_jw_str(w, "status_extended", x);
        }
        return;
    }
    if (c->class_id == ENIP_NONE && c->instance == ENIP_NONE && c->attribute == ENIP_NONE)
        return;
    osprey_jw_array(w, "path");
    seg(w, "class", c->class_id);
    seg(w, "instance", c->instance);
    seg(w, "attribute", c->attribute);
    osprey_jw_array_end(w);
}

static void cip(struct osprey_jw *w, const struct enip_msg *m)
{
    if (!m->ncip)
        return;
    osprey_jw_open(w, "cip");
    cip_body(w, &m->cip[0]);
    if (m->multiple && m->ncip > 1) {
        osprey_jw_array(w, "multiple");
        for (uint8_t i = 1; i < m->ncip; i++) {
            osprey_jw_open(w, NULL);
            cip_body(w, &m->cip[i]);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    osprey_jw_close(w);
}

static void side(struct osprey_jw *w, const char *key, const struct enip_msg *m, int dir)
{
    char s[32];
    osprey_jw_open(w, key);
    osprey_jw_str(w, "command", enip_command_name(m->command));
    osprey_jw_str(w, "status", enip_status_name(m->status));
    if (m->command == ENIP_CMD_REGISTER && m->has_version) {
        osprey_jw_open(w, "register_session");
        osprey_jw_int(w, "protocol_version", m->version);
        osprey_jw_int(w, "options", m->reg_options);
        osprey_jw_close(w);
    }
    if (dir == 1 && m->has_identity) {
        osprey_jw_open(w, "identity");
        osprey_jw_int(w, "protocol_version", m->version);
        snprintf(s, sizeof s, "%u", m->vendor);
        osprey_jw_str(w, "vendor_id", s);
        snprintf(s, sizeof s, "%u", m->device_type);
        osprey_jw_str(w, "device_type", s);
        osprey_jw_int(w, "product_code", m->product_code);
        snprintf(s, sizeof s, "%u.%u", m->rev_major, m->rev_minor);
        osprey_jw_str(w, "revision", s);
        osprey_jw_int(w, "status", m->id_status);
        osprey_jw_int(w, "serial", m->serial);
        osprey_jw_strn(w, "product_name", m->name, m->name_len);
        osprey_jw_int(w, "state", m->state);
        osprey_jw_close(w);
    }
    if (dir == 1 && m->has_services) {
        osprey_jw_open(w, "list_services");
        osprey_jw_int(w, "protocol_version", m->version);
        osprey_jw_int(w, "capabilities", m->capabilities);
        osprey_jw_strn(w, "service_name", m->name, m->name_len);
        osprey_jw_close(w);
    }
    cip(w, m);
    osprey_jw_close(w);
}

bool enip_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct enip_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "enip");
    if (st->cur.has_req)
        side(w, "request", &st->cur.req, 0);
    if (st->cur.has_resp)
        side(w, "response", &st->cur.resp, 1);
    osprey_jw_close(w);
    return true;
}
