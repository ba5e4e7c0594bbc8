/* bittorrent_dht.c — the BitTorrent DHT's descriptor (Suricata's `bittorrent-dht`, UDP): a
 * probe (a query's first bytes, any port), one KRPC message per datagram and each a
 * transaction of its direction (Suricata's unidirectional transactions), the
 * bittorrent-dht.malformed_packet event, counters (what the bounded reader shed) and its EVE
 * object. Suricata 8 has no rule keywords for it beyond the header and app-layer-event.
 * Registered in core/registry.c. */
#include <stdlib.h>

#include "bt_int.h"

static const struct proto_probe PROBES[] = {{17, 0, bt_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [BT_EV_TS] = {"bittorrent_dht_to_server", 0, NULL},
    [BT_EV_TC] = {"bittorrent_dht_to_client", 1, NULL},
};

static const char *const ANOMALIES[] = {
    /* a datagram starting like a DHT message that does not decode as one */
    [BT_AE_MALFORMED] = "bittorrent-dht.malformed_packet",
};

static const char *const COUNTERS[] = {
    [BT_C_TX] = "bittorrent_dht_tx",
    [BT_C_MALFORMED] = "bittorrent_dht_malformed",
    [BT_C_TOO_DEEP] = "bittorrent_dht_too_deep",  /* nesting past BENC_MAX_DEPTH */
    [BT_C_SHED] = "bittorrent_dht_shed",          /* bytes / nodes past the BT_*_MAX kept */
};

static void bt_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                           size_t n)
{
    if (!bt_is_dht(d, n)) /* as Suricata: other datagrams of the flow are not looked at */
        return;
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct bt_state))))
        return;
    struct bt_state *st = pf->state;
    bool deep = false;
    st->has_cur = false;
    uint64_t id = st->next_id++;
    if (!bt_decode(&st->cur, d, n, &deep)) {
        pflow_count(pf, BT_C_MALFORMED, 1);
        if (deep)
            pflow_count(pf, BT_C_TOO_DEEP, 1);
        pflow_anomaly(pf, f, dir, BT_AE_MALFORMED);
        return;
    }
    if (st->cur.shed)
        pflow_count(pf, BT_C_SHED, st->cur.shed);
    st->cur_id = id;
    st->has_cur = true;
    pflow_count(pf, BT_C_TX, 1);
    pflow_raise(pf, f, dir, dir == 0 ? BT_EV_TS : BT_EV_TC);
    pflow_tx_done(pf, f);
}

static void bt_free(void *state)
{
    free(state);
}

static uint32_t bt_tx_id(const struct pflow *pf)
{
    const struct bt_state *st = pf->state;
    return st ? (uint32_t)st->cur_id : 0;
}

const struct osprey_proto_def bittorrent_dht_proto = {
    .name = "bittorrent-dht",
    .flow_stat = "flow.bittorrent-dht",
    .eve_name = "bittorrent_dht",
    .l4 = 17,
    .probes = PROBES,
    .parse_dgram = bt_parse_dgram,
    .state_free = bt_free,
    .tx_id = bt_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = BT_C_TX,
    .eve = bt_eve,
};
