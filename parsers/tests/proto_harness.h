/* proto_harness.h — bytes in, buffers out: one protocol's descriptor driven without libmon.
 *
 * A test makes a flow of a registered protocol (ph_init), feeds it bytes of either direction
 * (ph_feed: the descriptor's parse, or parse_dgram for UDP) and reads what the registry serves
 * by name: buffers and their elements (ph_buf), fields (ph_field), counters (ph_count). Events
 * are not run (the flow has no event forest): the transaction in force is the latest one, as
 * in the tx callback, which the harness counts (ph.txs). Header-only, for parsers/tests. */
#ifndef OSPREY_PROTO_HARNESS_H
#define OSPREY_PROTO_HARNESS_H

#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "osprey_json_writer.h"
#include "parsers_int.h"

struct ph {
    struct osprey_parsers p;
    struct osprey_parsers_worker w;
    struct pflow pf;
    struct mon_flow f;
    const struct osprey_proto_def *def;
    struct reg_base base[OSPREY_APP_PROTO_MAX];
    struct osprey_scratch s;
    uint32_t txs;                 /* transactions reported */
};

static void ph_on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    ((struct ph *)arg)->txs++;
}

/* A flow of protocol name over l4 (6, 17) between ports cport → sport, decided. */
static inline void ph_init(struct ph *h, const char *name, uint8_t l4, uint16_t cport,
                           uint16_t sport)
{
    memset(h, 0, sizeof *h);
    osprey_parsers_cfg_defaults(&h->p.cfg);
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        h->base[id] = reg_base_of(id);
    h->p.base = h->base;
    h->p.ev = calloc(osprey_event_count() + 1u, sizeof *h->p.ev);
    parsers_index(&h->p); /* (out of memory: the accessors find nothing) */
    h->w.p = &h->p;
    h->w.tx_fn = ph_on_tx;
    h->w.tx_arg = h;
    h->pf.w = &h->w;
    h->pf.anomaly = -1;
    int id = osprey_app_proto_find(name);
    h->pf.proto = id > 0 ? (uint16_t)id : OSPREY_APP_PROTO_FAILED;
    h->def = reg_proto(h->pf.proto);
    h->f.proto = l4;
    h->f.cport = cport;
    h->f.sport = sport;
}

/* The flow's protocol's settings (its descriptor's struct), to change before feeding. */
static inline void *ph_cfg(struct ph *h)
{
    return parsers_proto_cfg(&h->p.cfg, h->pf.proto);
}

/* Bytes of direction dir (0: the client's): a stream chunk on TCP, one datagram on UDP. */
static inline void ph_feed(struct ph *h, int dir, const void *d, size_t n)
{
    if (h->f.proto == 17 && h->def->parse_dgram)
        h->def->parse_dgram(&h->pf, &h->f, dir, d, n);
    else if (h->def->parse && !h->pf.dead[dir])
        h->def->parse(&h->pf, &h->f, dir, d, n);
}

static inline void ph_end(struct ph *h)
{
    if (h->def && h->def->end) /* (none: the flow is between protocols, a change under way) */
        h->def->end(&h->pf, &h->f);
}

/* The flow's pflow of protocol proto: its own, or the guest it carries (as flow.c reads). */
static inline struct pflow *ph_pflow(struct ph *h, uint16_t proto)
{
    if (proto == h->pf.proto)
        return &h->pf;
    return h->pf.guest && h->pf.guest->proto == proto ? h->pf.guest : NULL;
}

/* Element i of the buffer name means in direction dir, NULL when absent (as the registry's
 * users get it: osprey_parsers_buffer_at). */
static inline const uint8_t *ph_get(struct ph *h, int b, uint32_t i, uint32_t *len)
{
    *len = 0;
    uint16_t proto;
    const struct proto_buffer *r = b >= 0 ? reg_buffer((uint16_t)b, &proto) : NULL;
    struct pflow *pf = r ? ph_pflow(h, proto) : NULL;
    if (!r || !pf || !pf->state || (i > 0 && !r->multi))
        return NULL;
    h->s.len = 0;
    const uint8_t *d = r->get(pf, r->key, i, &h->s, len);
    if (!d)
        *len = 0;
    return d;
}

static inline const uint8_t *ph_buf(struct ph *h, const char *name, int dir, uint32_t i,
                                    uint32_t *len)
{
    /* the flow's protocol's row of a name several register (http.uri: HTTP/1's, HTTP/2's) */
    return ph_get(h, osprey_buffer_find_in(name, dir, h->pf.proto), i, len);
}

/* The same for a record's buffer of that name (osprey_buffer_find_record). */
static inline bool ph_rec_is(struct ph *h, const char *name, int dir, const char *want)
{
    uint32_t n;
    const uint8_t *d = ph_get(h, osprey_buffer_find_record(name, dir), 0, &n);
    return d && n == strlen(want) && !memcmp(d, want, n);
}

/* Does buffer name (direction dir, element i) hold exactly the string want? */
static inline bool ph_buf_is(struct ph *h, const char *name, int dir, uint32_t i,
                             const char *want)
{
    uint32_t n;
    const uint8_t *d = ph_buf(h, name, dir, i, &n);
    return d && n == strlen(want) && !memcmp(d, want, n);
}

/* The number of elements of buffer name in direction dir. */
static inline uint32_t ph_nbuf(struct ph *h, const char *name, int dir)
{
    uint32_t n, i = 0;
    while (ph_buf(h, name, dir, i, &n))
        i++;
    return i;
}

/* The protocol's EVE object of the transaction in force, as one JSON object's text without
 * the trailing newline (malloc'd; NULL when it writes none). */
static inline char *ph_eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    bool wrote = h->def->eve && h->def->eve(&h->pf, &w);
    char *s = osprey_jw_finish(&w);
    if (!wrote) {
        free(s);
        return NULL;
    }
    if (s && *s)
        s[strlen(s) - 1] = 0;
    return s;
}

static inline bool ph_field(struct ph *h, const char *name, uint32_t i, int64_t *out)
{
    int id = osprey_field_find(name);
    uint16_t proto;
    const struct proto_field *r = id >= 0 ? reg_field((uint16_t)id, &proto) : NULL;
    struct pflow *pf = r ? ph_pflow(h, proto) : NULL;
    if (!r || !pf || !pf->state)
        return false;
    return r->get(pf, r->key, i, out);
}

static inline uint64_t ph_count(struct ph *h, const char *name)
{
    int i = osprey_parsers_stat_find(name);
    return i < 0 ? ~0ull : h->w.st.v[i];
}

/* How many of the flow's remembered anomalies (its last PFLOW_TX_ANOMALIES, any transaction)
 * are `name` (an app-layer-event name: "ssh.invalid_banner"). */
static inline unsigned ph_raised(const struct ph *h, const char *name)
{
    int e = osprey_app_event_find(name);
    unsigned n = 0;
    for (int i = 0; i < PFLOW_TX_ANOMALIES; i++)
        n += e >= 0 && h->pf.tx_anom[i].anomaly == e + 1;
    return n;
}

static inline void ph_free(struct ph *h)
{
    struct pflow *g = h->pf.guest; /* a protocol the flow carried (pflow_guest) */
    if (g) {
        const struct osprey_proto_def *gd = reg_proto(g->proto);
        if (gd && g->state)
            gd->state_free(g->state);
        pbuf_free(&g->in[0]);
        pbuf_free(&g->in[1]);
        pbuf_free(&g->upgrade_rest);
        pbuf_free(&g->late);
        free(g);
    }
    if (h->def && h->pf.state)
        h->def->state_free(h->pf.state);
    /* every buffer flow.c's pflow_free frees (after a STARTTLS, detection keeps a side's
     * undecided prefix in pf.late: tools/fuzz/README.md, finding 4) */
    pbuf_free(&h->pf.in[0]);
    pbuf_free(&h->pf.in[1]);
    pbuf_free(&h->pf.upgrade_rest);
    pbuf_free(&h->pf.late);
    pfile_free_all(&h->pf); /* (as the flow's slot destructor does) */
    pfile_worker_free(&h->w);
    osprey_scratch_free(&h->s);
    pexpect_free(&h->w.expect);
    parsers_index_free(&h->p);
    free(h->p.ev);
}

#endif
