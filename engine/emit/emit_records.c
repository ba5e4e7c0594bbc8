/* emit_records.c — EVE flow records (a flow ended) and anomaly records (a packet that broke
 * a decoder rule, or that the TCP layer flagged). */
#include <arpa/inet.h>
#include <string.h>

#include "emit_int.h"
#include "flow_record.h"
#include "osprey_parsers.h"

void osprey_emit_flow(struct osprey_emit *e, struct mon_ctx *ctx, const struct mon_flow *f)
{
    if (!(e->takes & OSPREY_REC_FLOW))
        return;
    struct osprey_flow_text t;
    struct osprey_eve_flow r;
    char cid[48];
    osprey_flow_record(f, &t, &r);
    /* Suricata stamps a flow record with the capture time it is written at: the packet that
     * ended the flow, or the last one read when the flow timed out or the input ended */
    const struct mon_packet *p = mon_getlastpkt(ctx);
    const struct osprey_emit_worker *ew =
        e->alerted_slot >= 0 ? mon_ctx_slot_get(ctx, e->alerted_slot) : NULL;
    if (p && p->ts_us > r.log_us)
        r.log_us = p->ts_us;
    if (ew && ew->clock_us > r.log_us)
        r.log_us = ew->clock_us;
    uint16_t named = osprey_parsers_app_proto_named(ctx, f);
    r.app_proto = osprey_app_proto_name(named);
    r.app_proto_orig = osprey_app_proto_name(osprey_parsers_app_proto_orig(ctx, f));
    r.app_proto_ts = osprey_emit_dir_proto(ctx, f, 0, named);
    r.app_proto_tc = osprey_emit_dir_proto(ctx, f, 1, named);
    r.alerted = e->alerted_slot >= 0 && mon_get_uctx_slot(ctx, f, e->alerted_slot) != NULL;
    if (e->community_id) {
        bool icmp = f->proto == 1 || f->proto == 58;
        osprey_community_id(e->cid_seed, f->cli.b, f->srv.b, f->ipver == 6 ? 16 : 4, f->proto,
                            icmp ? f->icmp_type[0] : f->cport, icmp ? f->icmp_code[0] : f->sport,
                            cid, sizeof cid);
        r.community_id = cid;
    }
    if (e->fw) {
        osprey_flow_writer_put(e->fw, &r); /* copied with its strings: t and cid may go */
        return;
    }
    EMIT_EACH_SINK(e, OSPREY_REC_FLOW, k)
        k->def->flow(k->s, &r);
}

/* The 5-tuple of a packet as EVE writes it (strings in the caller's buffers); false without
 * an IP header. */
struct tuple_text {
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], pn[8];
    const char *proto;
    int sport, dport;
};
static bool tuple_of(const struct mon_packet *p, struct tuple_text *t)
{
    t->sport = t->dport = -1;
    t->proto = NULL;
    if (!p->ipver)
        return false;
    osprey_addr_str(&p->src, p->ipver, t->src, sizeof t->src);
    osprey_addr_str(&p->dst, p->ipver, t->dst, sizeof t->dst);
    t->proto = osprey_proto_name(p->proto, t->pn, sizeof t->pn);
    if ((p->proto == 6 || p->proto == 17 || p->proto == 132) && p->l4) {
        t->sport = p->sport;
        t->dport = p->dport;
    }
    return true;
}

static void anomaly(struct osprey_emit *e, const struct mon_packet *p, const char *type,
                    const char *event)
{
    struct tuple_text t;
    bool ip = tuple_of(p, &t);
    struct osprey_eve_anomaly a = {
        .ts_us = p->ts_us,
        .pcap_cnt = p->num,
        .type = type,
        .event = event,
        .src_ip = ip ? t.src : NULL,
        .dest_ip = ip ? t.dst : NULL,
        .src_port = t.sport,
        .dest_port = t.dport,
        .proto = t.proto,
    };
    EMIT_EACH_SINK(e, OSPREY_REC_ANOMALY, k)
        k->def->anomaly(k->s, &a);
}

void osprey_emit_rec_packet(const struct mon_packet *p, struct osprey_rec_packet *out)
{
    *out = (struct osprey_rec_packet){
        .ts_us = p->ts_us,
        .num = p->num,
        .ipver = p->ipver,
        .src = p->src.b,
        .dst = p->dst.b,
        .proto = p->proto,
        .sport = p->sport,
        .dport = p->dport,
        .icmp_type = p->icmp_type,
        .icmp_code = p->icmp_code,
        .vlan_id = p->nvlan ? (uint16_t)(p->vlan[0] & 0x0fff) : 0,
        .linktype = p->linktype,
        .frame = p->frame,
        .caplen = p->caplen,
        .wirelen = p->wirelen,
    };
}

/* The packet to the sinks that take every packet, or (tagged) those that take tagged ones. */
static void packet_rec(struct osprey_emit *e, const struct mon_packet *p, bool tagged,
                       bool alerted)
{
    struct tuple_text t;
    struct osprey_eve_packet ev;
    struct osprey_packet_rec r = {.tagged = tagged, .alerted = alerted};
    if (tagged && (e->takes & OSPREY_REC_TAGGED)) {
        bool ip = tuple_of(p, &t);
        ev = (struct osprey_eve_packet){
            .ts_us = p->ts_us,
            .pcap_cnt = p->num,
            .src_ip = ip ? t.src : NULL,
            .dest_ip = ip ? t.dst : NULL,
            .src_port = t.sport,
            .dest_port = t.dport,
            .proto = t.proto,
            .frame = p->frame,
            .caplen = p->caplen,
            .linktype = p->linktype,
        };
        r.eve = &ev;
    }
    osprey_emit_rec_packet(p, &r.pkt);
    EMIT_EACH_SINK(e, tagged ? OSPREY_REC_PACKET | OSPREY_REC_TAGGED : OSPREY_REC_PACKET, k)
        k->def->packet(k->s, &r);
}

/* The packet's decoder and stream anomalies. */
static void anomalies(struct osprey_emit *e, struct osprey_emit_worker *ew, struct mon_ctx *ctx,
                      const struct mon_packet *p)
{
    /* A bad checksum is counted (stats: decoder.event.*.bad_checksum) but is no decoder
     * event in Suricata either: captures with checksum offload would flood eve.json. */
    enum mon_decode_event de = (enum mon_decode_event)(p->anomaly - 1);
    /* a note naming the layer of an anomaly libmon words its own way (sll.pkt_too_small for
     * link.truncated, gre.version0_recur for gre.bad_flags …) stands for it, as in Suricata */
    uint64_t layer_notes = p->decode_notes & (((1ull << (MON_DN_PPPOE_WRONG_CODE + 1)) - 1) &
                                              ~((1ull << MON_DN_SLL_TOO_SMALL) - 1));
    char ev[96];
    if (p->anomaly && de != MON_DE_IPV4_BAD_CSUM && de != MON_DE_TCP_BAD_CSUM &&
        de != MON_DE_UDP_BAD_CSUM && de != MON_DE_ICMPV4_BAD_CSUM &&
        de != MON_DE_ICMPV6_BAD_CSUM && !layer_notes) {
        /* Suricata names decoder events "decoder.<layer>.<what>", with its own words where
         * it has the event (libmon's "ipv4.truncated" is its "ipv4.pkt_too_small") */
        const char *name = osprey_suricata_decode_event(de);
        if (!name)
            name = mon_decode_event_name(de);
        snprintf(ev, sizeof ev, "%s%s", strncmp(name, "decoder.", 8) ? "decoder." : "", name);
        anomaly(e, p, "decode", ev);
    }
    /* what the decoders noted without stopping: Suricata's decoder events too */
    for (int n = 0; n < MON_DN__COUNT; n++)
        if ((p->decode_notes >> n) & 1) {
            snprintf(ev, sizeof ev, "decoder.%s",
                     osprey_suricata_decode_note((enum mon_decode_note)n, p->ipver));
            anomaly(e, p, "decode", ev);
        }
    if (p->proto != 6)
        return;
    /* the stream events the packet raised (mon_tcp.h), but the two the counters below
     * report already */
    uint64_t te = p->tcp_events & ~((1ull << MON_TE_REASM_GAP) | (1ull << MON_TE_REASM_OVERLAP_DIFF));
    for (int i = 0; i < MON_TE__COUNT; i++)
        if ((te >> i) & 1) {
            snprintf(ev, sizeof ev, "stream.%s", mon_tcp_event_name((enum mon_tcp_event)i));
            anomaly(e, p, "stream", ev);
        }
    /* Stream anomalies: a TCP counter of this worker that moved while this packet was
     * processed names what the packet did. */
    const struct mon_tcp_stats *ts = mon_ctx_tcp_stats(ctx);
    const uint64_t now[6] = {ts->invalid_state, ts->out_of_window, ts->rst_out_of_window,
                             ts->overlap_diff, ts->gaps, ts->outruns};
    static const char *const names[6] = {
        "stream.pkt_invalid_state", "stream.pkt_out_of_window", "stream.rst_out_of_window",
        "stream.reassembly_overlap_different_data", "stream.reassembly_seq_gap",
        "stream.reassembly_outrun",
    };
    for (int i = 0; i < 6; i++) {
        if (now[i] != ew->stream_seen[i])
            anomaly(e, p, "stream", names[i]);
        ew->stream_seen[i] = now[i];
    }
}

void osprey_emit_packet(struct osprey_emit *e, struct osprey_emit_worker *ew,
                        struct mon_ctx *ctx, const struct mon_packet *p, bool tagged,
                        bool alerted)
{
    if (e->alerted_slot >= 0) { /* the worker's clock, found from the context by flow records */
        ew->clock_us = p->ts_us;
        if (mon_ctx_slot_get(ctx, e->alerted_slot) != ew)
            mon_ctx_slot_set(ctx, e->alerted_slot, ew);
    }
    if (e->takes & OSPREY_REC_ANOMALY)
        anomalies(e, ew, ctx, p);
    /* after its anomalies, as a tagged packet's record followed them before the table */
    if ((e->takes & OSPREY_REC_PACKET) || (tagged && (e->takes & OSPREY_REC_TAGGED)))
        packet_rec(e, p, tagged, alerted);
}
