/* eve.c — DNP3's EVE object, as Suricata 8 writes a message: dnp3{type (request, response,
 * unsolicited_response), control{dir, pri, fcb, fcv, function_code} of its link frame, src,
 * dst, application{control{fir, fin, con, uns, sequence}, function_code, objects[{group,
 * variation, qualifier, prefix_code, range_code, start, stop, count}], complete}, a
 * response's iin{indicators[…]} (when one is set)}. Points are not written. */
#include "dnp3_int.h"
#include "osprey_json_writer.h"

static const char *const IIN_NAMES[16] = {
    /* IIN2's bits 0-7, then IIN1's (the value's low byte is IIN2) */
    "no_func_code_support", "object_unknown", "parameter_error", "event_buffer_overflow",
    "already_executing", "config_corrupt", "reserved_2", "reserved_1",
    "all_stations", "class_1_events", "class_2_events", "class_3_events",
    "need_time", "local_control", "device_trouble", "device_restart"};

bool dnp3_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct dnp3_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct dnp3_msg *m = &st->cur;
    osprey_jw_open(w, "dnp3");
    osprey_jw_str(w, "type", m->func == 0x82 ? "unsolicited_response"
                             : m->func >= 0x81 ? "response" : "request");
    osprey_jw_open(w, "control");
    osprey_jw_bool(w, "dir", m->link_ctl & 0x80);
    osprey_jw_bool(w, "pri", m->link_ctl & 0x40);
    osprey_jw_bool(w, "fcb", m->link_ctl & 0x20);
    osprey_jw_bool(w, "fcv", m->link_ctl & 0x10);
    osprey_jw_int(w, "function_code", m->link_ctl & 0x0f);
    osprey_jw_close(w);
    osprey_jw_int(w, "src", m->src);
    osprey_jw_int(w, "dst", m->dst);
    osprey_jw_open(w, "application");
    osprey_jw_open(w, "control");
    osprey_jw_bool(w, "fir", m->app_ctl & 0x80);
    osprey_jw_bool(w, "fin", m->app_ctl & 0x40);
    osprey_jw_bool(w, "con", m->app_ctl & 0x20);
    osprey_jw_bool(w, "uns", m->app_ctl & 0x10);
    osprey_jw_int(w, "sequence", m->app_ctl & 0x0f);
    osprey_jw_close(w);
    osprey_jw_int(w, "function_code", m->func);
    if (m->nobj) {
        osprey_jw_array(w, "objects");
        for (uint16_t i = 0; i < m->nobj; i++) {
            const struct dnp3_obj *o = &m->obj[i];
            osprey_jw_open(w, NULL);
            osprey_jw_int(w, "group", o->group);
            osprey_jw_int(w, "variation", o->variation);
            osprey_jw_int(w, "qualifier", o->qualifier);
            osprey_jw_int(w, "prefix_code", o->qualifier >> 4 & 7);
            osprey_jw_int(w, "range_code", o->qualifier & 0xf);
            osprey_jw_int(w, "start", o->start);
            osprey_jw_int(w, "stop", o->stop);
            osprey_jw_int(w, "count", o->count);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    osprey_jw_bool(w, "complete", m->complete);
    osprey_jw_close(w);
    if (m->has_iin && m->iin) {
        osprey_jw_open(w, "iin");
        osprey_jw_array(w, "indicators");
        for (int k = 0; k < 16; k++) { /* IIN1's bits first, then IIN2's, low to high */
            int b = (k + 8) & 15;
            if (m->iin >> b & 1)
                osprey_jw_str(w, NULL, IIN_NAMES[b]);
        }
        osprey_jw_array_end(w);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    return true;
}
