/* drivers.c — the three filters that feed the parsers: UDP datagrams (PKT_IN; on TCP, the
 * protocol told from acknowledged bytes under ack delivery), new TCP stream bytes
 * (CONN_NEW_DATA), the end of a flow (CONN_END). Detection, parsing, gaps and
 * ends go to the registered protocols' descriptors (registry.c): no protocol is named here.
 * Each protocol's mode (osprey_parsers_cfg.mode) is honoured here once for all: a disabled
 * one is not probed, a detection-only one is decided but never parsed. They always return
 * false: the app events run through mon_run_event, once per message.
 *
 * TCP bytes are read with mon_ppeek at the parsers' own offset, never mon_peek: the stream's
 * read pointer belongs to the application (detection reads it too). */
#include <string.h>

#include "parsers_int.h"

#define DETECT_MAX 512  /* bytes looked at before a TCP flow is called none of ours */

static struct osprey_parsers_worker *worker_of(struct mon_ctx *ctx, const struct osprey_parsers *p)
{
    return mon_ctx_slot_get(ctx, p->slot);
}

/* A flow to one of the protocol's configured detection ports (app-layer.protocols.<name>
 * .detection-ports.dp) is shown to its probes as a flow to its home port, the one their port
 * hints read (DNS over TCP on 1053 probed as on 53); else f itself. */
static const struct mon_flow *on_detect_port(const struct osprey_parsers *p, uint16_t id,
                                             const struct osprey_proto_def *def, uint8_t l4,
                                             const struct mon_flow *f, struct mon_flow *as_home)
{
    if (!def->home_port || f->sport == def->home_port || (l4 != 6 && l4 != 17))
        return f;
    const struct osprey_detect_ports *r = p->cfg.detect_ports[id][l4 == 17];
    for (int i = 0; i < OSPREY_DETECT_PORT_RANGES && r[i].hi; i++)
        if (f->sport >= r[i].lo && f->sport <= r[i].hi) {
            *as_home = (struct mon_flow){.proto = f->proto, .ipver = f->ipver,
                                         .cport = f->cport, .sport = def->home_port};
            return as_home;
        }
    return f;
}

/* Protocol id's probes alone (l4, TCP direction dir). */
static enum probe_verdict probe_one(const struct osprey_parsers *p, uint16_t id, uint8_t l4,
                                    int dir, const uint8_t *d, size_t n,
                                    const struct mon_flow *f)
{
    const struct osprey_proto_def *def = reg_proto(id);
    if (!def || p->cfg.mode[id] == OSPREY_APP_DISABLED)
        return DET_NO;
    struct mon_flow as_home;
    const struct mon_flow *seen = on_detect_port(p, id, def, l4, f, &as_home);
    enum probe_verdict best = DET_NO;
    for (const struct proto_probe *pr = def->probes; pr && pr->probe; pr++) {
        if (pr->l4 != l4 || (l4 == 6 && pr->dir != dir))
            continue;
        enum probe_verdict v = pr->probe(d, n, seen);
        if (v == DET_YES || v == DET_WEAK) /* the flow's own protocol: a weak yes is enough */
            return DET_YES;
        if (v == DET_NEED_MORE)
            best = v;
    }
    return best;
}

/* The first protocol whose probes for l4 (and, on TCP, direction dir) answer YES on d;
 * failing that, the first that answers WEAK, with *weak set (weak may be NULL: a weak answer
 * counts as a yes). *all_no when every probe said NO. OSPREY_APP_PROTO_UNKNOWN when none said
 * YES or WEAK. A protocol configured off (app-layer.protocols.<name>.enabled: no) is not
 * probed. */
static uint16_t probe_weak(const struct osprey_parsers *p, uint8_t l4, int dir,
                           const uint8_t *d, size_t n, const struct mon_flow *f, bool *all_no,
                           bool *weak)
{
    struct mon_flow as_home;
    uint16_t weak_id = OSPREY_APP_PROTO_UNKNOWN;
    *all_no = true;
    if (weak)
        *weak = false;
    /* by rank (proto_def.h: a few protocols rank before the rest), then table order */
    for (int rank = PROBE_RANK_MIN; rank <= PROBE_RANK_MAX; rank++)
        for (uint16_t id = 2; id < osprey_app_proto_count(); id++) {
            const struct osprey_proto_def *def = reg_proto(id);
            if (def->probe_rank != rank || p->cfg.mode[id] == OSPREY_APP_DISABLED)
                continue;
            const struct mon_flow *seen = on_detect_port(p, id, def, l4, f, &as_home);
            for (const struct proto_probe *pr = def->probes; pr && pr->probe; pr++) {
                if (pr->l4 != l4 || (l4 == 6 && pr->dir != dir))
                    continue;
                enum probe_verdict v = pr->probe(d, n, seen);
                if (v == DET_YES)
                    return id;
                if (v == DET_WEAK && weak_id == OSPREY_APP_PROTO_UNKNOWN)
                    weak_id = id;
                if (v == DET_NEED_MORE)
                    *all_no = false;
            }
        }
    if (weak)
        *weak = weak_id != OSPREY_APP_PROTO_UNKNOWN;
    return weak_id;
}

static uint16_t probe(const struct osprey_parsers *p, uint8_t l4, int dir, const uint8_t *d,
                      size_t n, const struct mon_flow *f, bool *all_no)
{
    return probe_weak(p, l4, dir, d, n, f, all_no, NULL);
}

static void tcp_read(struct mon_ctx *ctx, struct mon_flow *f, int side,
                     struct osprey_parsers_worker *w, bool acked);

/* ---- midstream orientation ---- */
/* A connection picked up midstream whose first data only a server-side probe takes (an HTTP
 * response, an SMB reply …) is the server's: libmon orients the flow the other way round, as
 * Suricata reverses a midstream flow when detection recognises the other direction's
 * message. The probes see the flow as it would be (their port hints). */
bool parsers_midstream_orient(const struct mon_packet *pkt, void *arg)
{
    const struct osprey_parsers *p = arg;
    struct mon_flow fwd = {.proto = 6, .cport = pkt->sport, .sport = pkt->dport};
    struct mon_flow rev = {.proto = 6, .cport = pkt->dport, .sport = pkt->sport};
    bool all_no;
    if (probe(p, 6, 0, pkt->payload, pkt->payload_len, &fwd, &all_no) !=
        OSPREY_APP_PROTO_UNKNOWN)
        return false;
    return probe(p, 6, 1, pkt->payload, pkt->payload_len, &rev, &all_no) !=
           OSPREY_APP_PROTO_UNKNOWN;
}

/* ---- UDP (and the TCP probe) ---- */
bool parsers_pkt_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg)
{
    (void)ev;
    const struct osprey_parsers *p = arg;
    if (f && f->proto == 6) {
        /* Ack delivery: this packet's ACK made the bytes it covers readable in its sender's
         * receive stream (the peer's bytes); they are parsed now, as Suricata parses a
         * direction's data at the ACK — before this packet's rules, which see the protocol
         * and transactions. Their CONN_NEW_DATA (stream inspection) comes with the next
         * packet of their direction; detection defers the alerts of their transactions to it
         * (engine/alert_defer.h). */
        if (mon_hook_now(ctx) == MON_HK_SND && mon_ack_delivery(ctx))
            tcp_read(ctx, f, side, worker_of(ctx, p), true);
        return false;
    }
    if (!f || f->proto != 17)
        return false;
    struct osprey_parsers_worker *w = worker_of(ctx, p);
    const struct mon_packet *pkt = mon_getlastpkt(ctx);
    if (!w || !pkt)
        return false;
    /* PKT_IN runs in both phases when users hang handlers on both hooks: parse in the
     * sender's (mon_run_event reaches both hooks' subtrees from there) */
    if (mon_hook_now(ctx) != MON_HK_SND)
        return false;
    struct pflow *pf = pflow_make(w, f);
    if (!pf || !pkt->payload)
        return false;
    /* PKT_IN's side is the sender; app events use the receiver's, as stream events do */
    int dir = side == MON_SIDE_CLI ? 0 : 1;
    /* a flow another announced (TFTP's transfer) is decided without probes */
    if (pf->proto == OSPREY_APP_PROTO_UNKNOWN && !pexpect_claim(pf, f, dir)) {
        /* the first datagram decides, whichever way it goes */
        bool all_no;
        uint16_t id = probe(p, 17, 0, pkt->payload, pkt->payload_len, f, &all_no);
        pflow_decide(pf, f, dir, id != OSPREY_APP_PROTO_UNKNOWN ? id : OSPREY_APP_PROTO_FAILED);
    }
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (d && d->parse_dgram && parsers_parses(p, pf->proto))
        d->parse_dgram(pf, f, dir, pkt->payload, pkt->payload_len);
    return false;
}

/* ---- TCP ---- */
static void parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    const struct osprey_proto_def *def = reg_proto(pf->proto);
    if (def && def->parse && parsers_parses(pf->w->p, pf->proto))
        def->parse(pf, f, dir, d, n);
    if (pf->upgrade) /* the protocol asked to become another (h2c) */
        pflow_switch(pf, f, dir);
}

/* Detection looks at both directions, as Suricata's does: the client's first bytes, else the
 * server's (a junk request answered by "HTTP/1.1 400" is HTTP). A client that matches no
 * protocol waits for the server's first bytes, up to DETECT_MAX held; a server greeting only
 * a WEAK probe takes (SMTP's or FTP's 220) waits for the client's. Probes run in registry
 * order: the first YES wins. */
static uint16_t detect_tcp(struct pflow *pf, const struct mon_flow *f, bool *decided)
{
    const struct pbuf *c = &pf->in[0], *s = &pf->in[1];
    *decided = true;
    bool client_no = false;
    /* a protocol change announced one (STARTTLS: TLS): its probes first, either side */
    for (int k = 0; pf->expect && k < 2; k++)
        if (pf->in[k].len && probe_one(pf->w->p, pf->expect, 6, k, pf->in[k].p, pf->in[k].len,
                                       f) == DET_YES)
            return pf->expect;
    if (c->len) {
        uint16_t id = probe(pf->w->p, 6, 0, c->p, c->len, f, &client_no);
        if (id != OSPREY_APP_PROTO_UNKNOWN)
            return id;
        if (!client_no && c->len < DETECT_MAX) {
            *decided = false; /* a prefix of one of them: more of the client first */
            return OSPREY_APP_PROTO_UNKNOWN;
        }
        client_no = true;
    }
    if (s->len) {
        bool server_no, weak;
        uint16_t id = probe_weak(pf->w->p, 6, 1, s->p, s->len, f, &server_no, &weak);
        /* a shared greeting: the client's first bytes have the last word */
        if (weak && !c->len && s->len < DETECT_MAX) {
            *decided = false;
            return OSPREY_APP_PROTO_UNKNOWN;
        }
        if (id != OSPREY_APP_PROTO_UNKNOWN)
            return id;
        if (server_no || s->len >= DETECT_MAX)
            return OSPREY_APP_PROTO_FAILED;
    } else if (client_no && c->len >= DETECT_MAX) {
        return OSPREY_APP_PROTO_FAILED;
    }
    *decided = false;
    return OSPREY_APP_PROTO_UNKNOWN;
}

/* ---- each direction's own detection ----
 * Suricata detects each direction of a TCP flow on its own (alproto_ts / alproto_tc) and
 * compares. Here the flow's protocol is decided once, from the first side that tells; the
 * other side's first bytes are probed too when they come: the flow's protocol's own probes
 * for that side first, then all of them. A YES for another protocol is a mismatch (a client
 * talking HTTP to an SSH server): that side's protocol is recorded, Suricata's
 * applayer_mismatch_protocol_both_directions is raised and app_detected runs again (the
 * detection-only rules look at the second side's outcome, as Suricata flags the packet where
 * each side's detection ends). Bytes every probe refuses leave the side with the flow's
 * protocol: Osprey's probes are not Suricata's patterns one for one, so only a positive other
 * answer counts (Suricata would say "failed" for that side). */
static enum probe_verdict probe_side(const struct pflow *pf, const struct mon_flow *f, int k,
                                     const uint8_t *d, size_t n, uint16_t flow_proto,
                                     uint16_t *out)
{
    const struct osprey_parsers *p = pf->w->p;
    bool all_no, weak = false;
    uint16_t id = flow_proto;
    if (probe_one(p, flow_proto, 6, k, d, n, f) != DET_YES &&
        (id = probe_weak(p, 6, k, d, n, f, &all_no, &weak)) == OSPREY_APP_PROTO_UNKNOWN) {
        if (!all_no && n < DETECT_MAX)
            return DET_NEED_MORE;
        id = flow_proto;
    }
    if (weak) /* a shared greeting does not contradict the client (no mismatch) */
        id = flow_proto;
    *out = id;
    return DET_YES;
}

/* Direction dir's first bytes after the flow was decided without them (kept in pf->late
 * while its probes want more). */
static void detect_late_side(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                             size_t n)
{
    const uint8_t *b = d;
    size_t bn = n;
    if (pf->late.len && pf->late_dir != dir) {
        b = d; /* (the other direction's prefix: this one starts from its own bytes) */
    } else if (pf->late.len) {
        pbuf_add(&pf->late, d, n, DETECT_MAX);
        b = pf->late.p;
        bn = pf->late.len;
    }
    uint16_t got;
    if (probe_side(pf, f, dir, b, bn, pf->proto, &got) == DET_NEED_MORE) {
        if (pf->late.len && pf->late_dir != dir)
            pf->dir_proto[dir] = pf->proto; /* the room is the other side's: no wait here */
        else if (!pf->late.len && !pbuf_add(&pf->late, d, n, DETECT_MAX))
            pf->dir_proto[dir] = pf->proto; /* out of memory: the side is the flow's */
        else
            pf->late_dir = (uint8_t)dir;
        return;
    }
    if (!pf->late.len || pf->late_dir == dir)
        pbuf_free(&pf->late);
    pf->dir_proto[dir] = got;
    if (got != pf->proto) {
        pflow_generic_anomaly(pf, f, dir, PGEN_MISMATCH_BOTH_DIRECTIONS);
        pflow_run(pf, f, dir, pf->w->p->app_detected);
    }
}

static void feed(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    /* a connection another flow announced (FTP's data connection) is decided without probes */
    if (pf->proto == OSPREY_APP_PROTO_UNKNOWN && !pf->in[0].len && !pf->in[1].len &&
        pexpect_claim(pf, f, dir)) {
        parse(pf, f, dir, d, n);
        return;
    }
    if (pf->proto != OSPREY_APP_PROTO_UNKNOWN) {
        if (pf->proto != OSPREY_APP_PROTO_FAILED && !pf->dir_proto[dir])
            detect_late_side(pf, f, dir, d, n);
        parse(pf, f, dir, d, n);
        return;
    }
    uint32_t room = DETECT_MAX - pf->in[dir].len;
    uint32_t took = pbuf_add(&pf->in[dir], d, n < room ? n : room, 0);
    bool decided;
    uint16_t p = detect_tcp(pf, f, &decided);
    if (!decided) {
        if (took < n) /* out of memory while staging: give up on this flow */
            pflow_decide(pf, f, dir, OSPREY_APP_PROTO_FAILED);
        return;
    }
    /* each side's own answer from what detection held (none yet: UNKNOWN, told later); two
     * sides that disagree before any byte was parsed give the flow the server's protocol
     * (Suricata trusts the server then; once a side was parsed, the flow keeps its protocol) */
    uint16_t side[2] = {p, p};
    for (int k = 0; k < 2 && p != OSPREY_APP_PROTO_FAILED; k++) {
        if (pf->in[k].len &&
            probe_side(pf, f, k, pf->in[k].p, pf->in[k].len, p, &side[k]) == DET_YES)
            continue;
        side[k] = OSPREY_APP_PROTO_UNKNOWN;
        /* a prefix: its next bytes are probed after it (pf->late, one side's only: should
         * both sides be prefixes, the second starts from its next bytes) */
        if (pf->in[k].len && !pf->late.len &&
            pbuf_add(&pf->late, pf->in[k].p, pf->in[k].len, DETECT_MAX))
            pf->late_dir = (uint8_t)k;
    }
    bool mismatch = side[0] && side[1] && side[0] != side[1];
    if (mismatch)
        p = side[1];
    pflow_decide_dirs(pf, p, side[0], side[1]);
    if (mismatch)
        pflow_generic_anomaly(pf, f, dir, PGEN_MISMATCH_BOTH_DIRECTIONS);
    /* a protocol change announced another (Suricata's generic events, on this packet) */
    if (pf->expect && p != pf->expect) {
        pflow_generic_anomaly(pf, f, dir, PGEN_UNEXPECTED_PROTOCOL);
        if (reg_proto_is_tls(pf->expect))
            pflow_generic_anomaly(pf, f, dir, PGEN_NO_TLS_AFTER_STARTTLS);
    }
    /* replay what detection held, client side first, then the rest of this chunk */
    for (int k = 0; k < 2; k++) {
        struct pbuf held = pf->in[k];
        memset(&pf->in[k], 0, sizeof pf->in[k]);
        if (p != OSPREY_APP_PROTO_FAILED && held.len)
            parse(pf, f, k, held.p, held.len);
        pbuf_free(&held);
    }
    if (p != OSPREY_APP_PROTO_FAILED && took < n)
        parse(pf, f, dir, d + took, n - took);
    pf->expect = 0;
    /* app_detected once the deciding bytes are parsed, as Suricata inspects a packet after
     * its data went through the parser: a detection-only rule sees what the first bytes made
     * of the flow (an HTTP/2 flow whose first request is DoH is doh2). A change those bytes
     * made (h2c) ran its own. */
    if (pf->proto == p)
        pflow_run(pf, f, dir, pf->w->p->app_detected);
}

void parsers_feed(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    feed(pf, f, dir, d, n);
}

/* The start of the first in-order run of held bytes after off (below tail), or 0. */
static uint64_t next_held(struct mon_ctx *ctx, struct mon_flow *f, int side, uint64_t off,
                          uint64_t tail)
{
    struct mon_frag fr[64];
    size_t len = sizeof fr;
    int rc = mon_getsockopt(ctx, f, side, MON_SO_FRAGS, fr, &len);
    if (rc != MON_OK && rc != MON_ERANGE)
        return 0;
    size_t n = (rc == MON_OK ? len : sizeof fr) / sizeof fr[0];
    for (size_t i = 0; i < n; i++)
        if (fr[i].off > off && fr[i].off < tail)
            return fr[i].off;
    return 0;
}

bool parsers_tcp_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg)
{
    (void)ev;
    const struct osprey_parsers *p = arg;
    if (f && f->proto == 6)
        tcp_read(ctx, f, side, worker_of(ctx, p), false);
    return false;
}

/* Parse side's readable bytes past the parsers' offset. The flow's parser state is made
 * only once there are bytes to read. acked: the packet being processed acknowledged them (a
 * packet of the other direction): its events run on the packet as seen from their direction
 * (mon_ack_view), so rules see the addresses, ports and direction of the data. */
static void tcp_read(struct mon_ctx *ctx, struct mon_flow *f, int side,
                     struct osprey_parsers_worker *w, bool acked)
{
    struct pflow *pf = w ? pflow_get(ctx, f) : NULL;
    int dir = DIR_OF_SIDE(side);
    struct mon_buf_info bi;
    size_t bl = sizeof bi;
    if (!w || (pf && (pf->dead[dir] || pf->proto == OSPREY_APP_PROTO_FAILED)) ||
        mon_getsockopt(ctx, f, side, MON_SO_BUF_INFO, &bi, &bl) != MON_OK)
        return;
    if (!pf && (bi.tail_off <= bi.head_off || !(pf = pflow_make(w, f))))
        return;
    if (pf->started[dir] && pf->off[dir] >= bi.tail_off)
        return; /* nothing new: most packets */
    if (!pf->started[dir]) {
        pf->started[dir] = true;
        pf->off[dir] = bi.head_off;
    }
    bool viewed = acked && mon_ack_view(ctx, true) == MON_OK;
    uint8_t buf[16384];
    while (pf->off[dir] < bi.tail_off && !pf->dead[dir] && pf->proto != OSPREY_APP_PROTO_FAILED) {
        uint64_t want = bi.tail_off - pf->off[dir];
        ssize_t n = mon_ppeek(ctx, f, side, buf, want < sizeof buf ? (size_t)want : sizeof buf,
                              pf->off[dir]);
        if (n <= 0) {
            /* overwritten before we read it, or a hole skipped for good: go on after it
             * when the protocol can find its framing again. A protocol that cannot is given
             * up on the whole flow, both directions, as Suricata disables the app layer of a
             * flow whose parser takes no gaps (before a protocol is known, only this
             * direction). The hole may reach the end of what is readable (an ACK past it,
             * nothing after it yet): the protocol is told all the same, and reading goes on
             * from there */
            uint64_t next = next_held(ctx, f, side, pf->off[dir], bi.tail_off);
            const struct osprey_proto_def *d = reg_proto(pf->proto);
            if (!d || !d->gap) {
                pf->dead[dir] = true;
                if (d)
                    pf->dead[dir ^ 1] = true;
                break;
            }
            d->gap(pf, f, dir);
            pf->off[dir] = next ? next : bi.tail_off;
            continue;
        }
        pf->off[dir] += (uint64_t)n;
        pf->seen[dir] += (uint64_t)n;
        feed(pf, f, dir, buf, (size_t)n);
    }
    if (viewed)
        mon_ack_view(ctx, false);
}

bool parsers_end_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg)
{
    (void)side, (void)ev, (void)arg;
    struct pflow *pf = pflow_get(ctx, f);
    const struct osprey_proto_def *d = pf ? reg_proto(pf->proto) : NULL;
    if (d && d->end && parsers_parses(pf->w->p, pf->proto))
        d->end(pf, f);
    return false;
}

