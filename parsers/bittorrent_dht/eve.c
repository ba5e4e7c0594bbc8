/* eve.c — the BitTorrent DHT's EVE object as Suricata 8 writes it: bittorrent_dht{
 * transaction_id, client_version (hex), request_type, error{num, msg}, request{id, target,
 * info_hash, token (hex), implied_port, port}, response{id, nodes[{id, ip, port}], nodes6,
 * values[{ip, port}], token}}. IPv6 addresses as Suricata prints them (eight groups of four
 * hex digits, nothing shortened). */
#include <stdio.h>

#include "bt_int.h"
#include "osprey_json_writer.h"

static void hex(struct osprey_jw *w, const char *key, const uint8_t *d, size_t n)
{
    char s[2 * BT_BYTES_MAX + 1];
    phex(s, d, n);
    osprey_jw_str(w, key, s);
}

static void bytes(struct osprey_jw *w, const char *key, const struct bt_bytes *b)
{
    if (b->set)
        hex(w, key, b->b, b->len);
}

static void ip(struct osprey_jw *w, const struct bt_node *n)
{
    char s[48];
    if (n->iplen == 4)
        snprintf(s, sizeof s, "%u.%u.%u.%u", n->ip[0], n->ip[1], n->ip[2], n->ip[3]);
    else
        for (int i = 0; i < 8; i++)
            snprintf(s + i * 5, sizeof s - (size_t)i * 5, i < 7 ? "%02x%02x:" : "%02x%02x",
                     n->ip[2 * i], n->ip[2 * i + 1]);
    osprey_jw_str(w, "ip", s);
}

static void node_list(struct osprey_jw *w, const char *key, const struct bt_node *n,
                      unsigned count, bool with_id)
{
    if (!count)
        return;
    osprey_jw_array(w, key);
    for (unsigned i = 0; i < count; i++) {
        osprey_jw_open(w, NULL);
        if (with_id)
            hex(w, "id", n[i].id, 20);
        ip(w, &n[i]);
        osprey_jw_int(w, "port", n[i].port);
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

bool bt_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct bt_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct bt_msg *m = &st->cur;
    osprey_jw_open(w, "bittorrent_dht");
    bytes(w, "transaction_id", &m->t);
    bytes(w, "client_version", &m->v);
    if (m->y == 'q')
        osprey_jw_strn(w, "request_type", m->q.b, m->q.len);
    if (m->y == 'e') {
        osprey_jw_open(w, "error");
        osprey_jw_int(w, "num", m->e_num);
        osprey_jw_strn(w, "msg", (const uint8_t *)m->e_msg, m->e_len);
        osprey_jw_close(w);
    }
    if (m->y == 'q') {
        osprey_jw_open(w, "request");
        bytes(w, "id", &m->a_id);
        bytes(w, "target", &m->target);
        bytes(w, "info_hash", &m->info_hash);
        bytes(w, "token", &m->a_token);
        if (m->has_implied_port)
            osprey_jw_int(w, "implied_port", m->implied_port);
        if (m->has_port)
            osprey_jw_int(w, "port", m->port);
        osprey_jw_close(w);
    }
    if (m->y == 'r') {
        osprey_jw_open(w, "response");
        bytes(w, "id", &m->r_id);
        node_list(w, "nodes", m->nodes, m->nnodes, true);
        node_list(w, "nodes6", m->nodes6, m->nnodes6, true);
        node_list(w, "values", m->values, m->nvalues, false);
        bytes(w, "token", &m->r_token);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    return true;
}
