/* krpc.c — one KRPC message (BEP 5) from a datagram: the top dictionary's y (q / r / e), t,
 * v, q, a (a query's arguments: id, target, info_hash, token, implied_port, port), r (a
 * response: id, compact nodes / nodes6, values, token), e (an error: [num, msg]), read as
 * Suricata 8 reads them: every known key's value must have its type (a port fits 16 bits),
 * a query needs q and a, a response r, an error e, every message t, arguments and responses
 * an id; dictionary keys must be sorted (bencode's rule). What is kept is bounded (bt_int.h:
 * BT_*_MAX, the rest counted in m->shed). */
#include <string.h>

#include "bt_int.h"

bool bt_is_dht(const uint8_t *d, size_t n)
{
    static const char *const PREFIXES[] = {"d1:ad", "d1:rd", "d2:ip", "d1:el"};
    if (n <= 5)
        return false;
    for (size_t i = 0; i < PROTO_N(PREFIXES); i++)
        if (!memcmp(d, PREFIXES[i], 5))
            return true;
    return false;
}

static void keep(struct bt_msg *m, struct bt_bytes *out, const struct benc_val *v)
{
    size_t k = v->len < BT_BYTES_MAX ? v->len : BT_BYTES_MAX;
    memcpy(out->b, v->s, k);
    out->len = (uint8_t)k;
    out->set = true;
    m->shed += (uint32_t)(v->len - k);
}

static bool key_is(const struct benc_val *k, const char *s)
{
    return k->len == strlen(s) && !memcmp(k->s, s, k->len);
}

/* keys in ascending order: the next key k after prev (len 0 at the start) */
static bool sorted(const struct benc_val *prev, bool first, const struct benc_val *k)
{
    if (first)
        return true;
    size_t n = prev->len < k->len ? prev->len : k->len;
    int c = memcmp(prev->s, k->s, n);
    return c < 0 || (c == 0 && prev->len < k->len);
}

/* the next key of the dictionary being read: BENC_STR, BENC_END, or BENC_ERR */
static enum benc_type next_key(struct benc *b, struct benc_val *k, struct benc_val *prev,
                               bool *first)
{
    enum benc_type t = benc_next(b, k);
    if (t == BENC_END)
        return t;
    if (t != BENC_STR || !sorted(prev, *first, k))
        return BENC_ERR;
    *prev = *k, *first = false;
    return t;
}

/* a value we do not read: skipped whole */
static bool skip_value(struct benc *b, const struct benc_val *v)
{
    return v->t == BENC_LIST || v->t == BENC_DICT ? benc_skip(b) : v->t != BENC_ERR;
}

static bool uint_in(const struct benc_val *v, int64_t max)
{
    return v->t == BENC_INT && v->i >= 0 && v->i <= max;
}

static bool args(struct benc *b, struct bt_msg *m)
{
    struct benc_val k, v, prev = {0};
    bool first = true, id = false;
    enum benc_type t;
    while ((t = next_key(b, &k, &prev, &first)) == BENC_STR) {
        if (benc_next(b, &v) == BENC_ERR)
            return false;
        if (key_is(&k, "id") || key_is(&k, "target") || key_is(&k, "info_hash") ||
            key_is(&k, "token")) {
            if (v.t != BENC_STR)
                return false;
            struct bt_bytes *o = key_is(&k, "id") ? &m->a_id
                                 : key_is(&k, "target") ? &m->target
                                 : key_is(&k, "info_hash") ? &m->info_hash : &m->a_token;
            keep(m, o, &v);
            id |= o == &m->a_id;
        } else if (key_is(&k, "implied_port")) {
            if (!uint_in(&v, 255))
                return false;
            m->implied_port = (uint8_t)v.i, m->has_implied_port = true;
        } else if (key_is(&k, "port")) {
            if (!uint_in(&v, 65535))
                return false;
            m->port = (uint16_t)v.i, m->has_port = true;
        } else if (!skip_value(b, &v)) {
            return false;
        }
    }
    return t == BENC_END && id;
}

/* compact node infos: 20-byte id, address, port; a partial one at the end is ignored */
static void nodes(struct bt_msg *m, const struct benc_val *v, bool v6)
{
    size_t one = 20u + (v6 ? 16u : 4u) + 2u;
    struct bt_node *out = v6 ? m->nodes6 : m->nodes;
    uint8_t *n = v6 ? &m->nnodes6 : &m->nnodes;
    for (size_t at = 0; at + one <= v->len; at += one) {
        if (*n >= BT_NODES_MAX) {
            m->shed++;
            continue;
        }
        struct bt_node *o = &out[(*n)++];
        memcpy(o->id, v->s + at, 20);
        o->iplen = v6 ? 16 : 4;
        memcpy(o->ip, v->s + at + 20, o->iplen);
        o->port = rd_be16(v->s + at + 20 + o->iplen);
    }
}

/* values: a list of compact peers (6 bytes IPv4, 18 IPv6); a shorter one is malformed */
static bool values(struct benc *b, struct bt_msg *m)
{
    struct benc_val v;
    enum benc_type t;
    while ((t = benc_next(b, &v)) == BENC_STR) {
        size_t iplen = v.len < 18 ? 4 : 16;
        if (v.len < iplen + 2)
            return false;
        if (m->nvalues >= BT_NODES_MAX) {
            m->shed++;
            continue;
        }
        struct bt_node *o = &m->values[m->nvalues++];
        o->iplen = (uint8_t)iplen;
        memcpy(o->ip, v.s, iplen);
        o->port = rd_be16(v.s + iplen);
    }
    return t == BENC_END;
}

static bool response(struct benc *b, struct bt_msg *m)
{
    struct benc_val k, v, prev = {0};
    bool first = true, id = false;
    enum benc_type t;
    while ((t = next_key(b, &k, &prev, &first)) == BENC_STR) {
        if (benc_next(b, &v) == BENC_ERR)
            return false;
        if (key_is(&k, "id") || key_is(&k, "token")) {
            if (v.t != BENC_STR)
                return false;
            keep(m, key_is(&k, "id") ? &m->r_id : &m->r_token, &v);
            id |= key_is(&k, "id");
        } else if (key_is(&k, "nodes") || key_is(&k, "nodes6")) {
            if (v.t != BENC_STR)
                return false;
            nodes(m, &v, key_is(&k, "nodes6"));
        } else if (key_is(&k, "values") && v.t == BENC_LIST) {
            if (!values(b, m))
                return false;
        } else if (!skip_value(b, &v)) {
            return false;
        }
    }
    return t == BENC_END && id;
}

/* e: a list holding the code (an integer) and the message (a string) */
static bool error(struct benc *b, struct bt_msg *m)
{
    struct benc_val v;
    enum benc_type t;
    bool num = false, msg = false;
    while ((t = benc_next(b, &v)) != BENC_END) {
        if (t == BENC_ERR)
            return false;
        if (t == BENC_INT) {
            if (!uint_in(&v, 65535))
                return false;
            m->e_num = (uint16_t)v.i, num = true;
        } else if (t == BENC_STR) {
            size_t k = v.len < BT_MSG_MAX ? v.len : BT_MSG_MAX;
            memcpy(m->e_msg, v.s, k);
            m->e_len = (uint16_t)k;
            m->shed += (uint32_t)(v.len - k);
            msg = true;
        } else if (!benc_skip(b)) {
            return false;
        }
    }
    return num && msg;
}

bool bt_decode(struct bt_msg *m, const uint8_t *d, size_t n, bool *too_deep)
{
    memset(m, 0, sizeof *m);
    struct benc b;
    benc_init(&b, d, n);
    struct benc_val k, v, prev = {0};
    bool first = true, ok = benc_next(&b, &v) == BENC_DICT;
    enum benc_type t = BENC_ERR;
    while (ok && (t = next_key(&b, &k, &prev, &first)) == BENC_STR) {
        if (benc_next(&b, &v) == BENC_ERR) {
            ok = false;
        } else if (key_is(&k, "y") || key_is(&k, "q") || key_is(&k, "t") || key_is(&k, "v")) {
            ok = v.t == BENC_STR;
            if (ok && key_is(&k, "y"))
                m->y = v.len == 1 ? (char)v.s[0] : '?';
            else if (ok)
                keep(m, key_is(&k, "q") ? &m->q : key_is(&k, "t") ? &m->t : &m->v, &v);
        } else if (key_is(&k, "a")) {
            ok = v.t == BENC_DICT && args(&b, m), m->has_a = true;
        } else if (key_is(&k, "r")) {
            ok = v.t == BENC_DICT && response(&b, m), m->has_r = true;
        } else if (key_is(&k, "e")) {
            ok = v.t == BENC_LIST && error(&b, m), m->has_e = true;
        } else {
            ok = skip_value(&b, &v);
        }
    }
    *too_deep = b.too_deep;
    if (!ok || t != BENC_END)
        return false;
    switch (m->y) {
    case 'q': ok = m->q.set && m->has_a; break;
    case 'r': ok = m->has_r; break;
    case 'e': ok = m->has_e; break;
    default: return false;
    }
    return ok && m->t.set;
}
