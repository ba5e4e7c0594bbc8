/* eve.c — DCERPC's EVE object, as Suricata 8 writes it: request / response (the PDU types'
 * names, "UNREPLIED" while no answer came), interfaces (a bind's proposed contexts with the
 * ack's result, or the one context a request was made in), req{opnum, frag_cnt,
 * stub_data_size}, res{frag_cnt, stub_data_size}, call_id and rpc_version (connection-
 * oriented); activityuuid and seqnum (connectionless). */
#include <stdio.h>

#include "dcerpc_int.h"
#include "osprey_json_writer.h"

const char *dce_type_name(uint8_t type)
{
    static const char *const N[] = {
        "REQUEST", "PING", "RESPONSE", "FAULT", "WORKING", "NOCALL", "REJECT", "ACK",
        "CL_CANCEL", "FACK", "CANCEL_ACK", "BIND", "BINDACK", "BINDNAK", "ALTER_CONTEXT",
        "ALTER_CONTEXT_RESP", "AUTH3", "SHUTDOWN", "CO_CANCEL", "ORPHANED", "RTS"};
    return type < sizeof N / sizeof N[0] ? N[type] : "UNKNOWN";
}

static void iface(struct osprey_jw *w, const struct dce_ctx *c, bool result)
{
    char u[37], v[16];
    puuid_text(u, c->uuid);
    snprintf(v, sizeof v, "%u.%u", c->vmaj, c->vmin);
    osprey_jw_open(w, NULL);
    osprey_jw_str(w, "uuid", u);
    osprey_jw_str(w, "version", v);
    if (result)
        osprey_jw_int(w, "ack_result", c->result);
    osprey_jw_close(w);
}

static void interfaces(struct osprey_jw *w, const struct dce_state *st)
{
    if (st->req_type == DCE_BIND || st->req_type == DCE_ALTER) {
        if (st->nctx <= st->pend_at && !st->has_resp)
            return;
        uint32_t from = st->pend_at, to = st->nctx;
        if (from >= to)
            return;
        osprey_jw_array(w, "interfaces");
        for (uint32_t i = from; i < to; i++)
            iface(w, &st->ctx[i], st->ctx[i].acked);
        osprey_jw_array_end(w);
        return;
    }
    const struct dce_ctx *c = dce_tx_ctx(st);
    if (!c)
        return;
    osprey_jw_array(w, "interfaces");
    iface(w, c, false);
    osprey_jw_array_end(w);
}

/* carried: the object as an SMB record carries it (Suricata's smb.dcerpc: the opnum at its
 * top, no rpc_version) */
static bool write(struct pflow *pf, struct osprey_jw *w, bool carried)
{
    const struct dce_state *st = pf->state;
    if (!st || !st->tx_open)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "dcerpc");
    bool req = st->req_done;
    osprey_jw_str(w, "request", req ? dce_type_name(st->req_type) : "REQUEST_LOST");
    if (!st->udp && req)
        interfaces(w, st);
    if (req && st->has_req && carried)
        osprey_jw_int(w, "opnum", st->opnum);
    if (req && st->has_req) {
        osprey_jw_open(w, "req");
        if (!carried)
            osprey_jw_int(w, "opnum", st->opnum);
        osprey_jw_int(w, "frag_cnt", st->side[0].frags);
        osprey_jw_int(w, "stub_data_size", st->side[0].stub_size);
        osprey_jw_close(w);
    }
    osprey_jw_str(w, "response", st->has_resp ? dce_type_name(st->resp_type) : "UNREPLIED");
    if (st->has_resp && st->req_type == DCE_REQUEST) {
        osprey_jw_open(w, "res");
        osprey_jw_int(w, "frag_cnt", st->side[1].frags);
        osprey_jw_int(w, "stub_data_size", st->side[1].stub_size);
        osprey_jw_close(w);
    }
    char v[16];
    snprintf(v, sizeof v, "%u.%u", st->vers, st->vers_minor);
    if (st->udp) {
        char u[37];
        puuid_text(u, st->activity);
        osprey_jw_str(w, "activityuuid", u);
        osprey_jw_int(w, "seqnum", st->seqnum);
    } else {
        osprey_jw_int(w, "call_id", st->call_id);
    }
    if (!carried)
        osprey_jw_str(w, "rpc_version", v);
    osprey_jw_close(w);
    return true;
}

bool dce_eve(struct pflow *pf, struct osprey_jw *w)
{
    return write(pf, w, false);
}

bool dce_eve_carried(struct pflow *pf, struct osprey_jw *w)
{
    return write(pf, w, true);
}
