/* expect.c — expectations: a protocol announces a connection to come (FTP's PORT / PASV:
 * the data connection) and the flow that matches it is that protocol's without probing.
 *
 * libmon keys flows by 5-tuple, so an expectation holds what is known in advance: the two
 * addresses of the announcing flow (either may connect) and the port the new flow's server
 * listens on (TFTP's transfer on UDP: the port its first datagram goes to). A new TCP flow
 * looks here before its first bytes are probed, a new UDP flow before its first datagram is; the first match
 * decides it and hands it the announcer's state. The table is per worker (flows of one
 * control connection stay on one worker when the capture hashes by address pair), bounded
 * (PEXPECT_MAX: past it the oldest is shed, and the caller counts it) and each entry expires
 * PEXPECT_TIMEOUT_US after it was made. A count of live entries per port lets the new flows
 * of ports no entry names (nearly all) pass without a scan of the table. */
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"

static void drop(struct pexpect_table *t, struct pexpect *e)
{
    if (e->data && e->free)
        e->free(e->data);
    t->on_port[e->port]--;
    memset(e, 0, sizeof *e);
    t->live--;
}

bool pexpect_add(struct osprey_parsers_worker *w, const struct mon_flow *ctl, uint16_t port,
                 uint16_t proto, void *data, void (*free_fn)(void *))
{
    return pexpect_add_l4(w, ctl, 6, port, proto, data, free_fn);
}

bool pexpect_add_l4(struct osprey_parsers_worker *w, const struct mon_flow *ctl, uint8_t l4,
                    uint16_t port, uint16_t proto, void *data, void (*free_fn)(void *))
{
    struct pexpect_table *t = &w->expect;
    bool shed = false;
    if (!t->e) {
        t->e = calloc(PEXPECT_MAX, sizeof *t->e);
        t->on_port = calloc(65536, sizeof *t->on_port);
        if (!t->e || !t->on_port) {
            free(t->e);
            free(t->on_port);
            t->e = NULL;
            t->on_port = NULL;
            if (data && free_fn)
                free_fn(data);
            return true;
        }
    }
    uint32_t slot = PEXPECT_MAX, oldest = 0;
    for (uint32_t i = 0; i < PEXPECT_MAX; i++) {
        struct pexpect *e = &t->e[i];
        if (e->proto && e->expire_us < ctl->last_us)
            drop(t, e); /* expired */
        if (!e->proto && slot == PEXPECT_MAX)
            slot = i;
        if (e->proto && e->expire_us < t->e[oldest].expire_us)
            oldest = i;
    }
    if (slot == PEXPECT_MAX) { /* full: the oldest goes */
        drop(t, &t->e[oldest]);
        slot = oldest;
        shed = true;
    }
    struct pexpect *e = &t->e[slot];
    e->a = ctl->cli;
    e->b = ctl->srv;
    e->ipver = ctl->ipver;
    e->l4 = l4;
    e->port = port;
    e->proto = proto;
    e->expire_us = ctl->last_us + PEXPECT_TIMEOUT_US;
    e->data = data;
    e->free = free_fn;
    t->on_port[port]++;
    t->live++;
    return shed;
}

static bool same(const struct mon_addr *x, const struct mon_addr *y)
{
    return !memcmp(x->b, y->b, sizeof x->b);
}

bool pexpect_claim(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct pexpect_table *t = &pf->w->expect;
    /* the common case: no expectation for this port, no scan (an expired one for it is
     * dropped by the scan that meets it, or by the next pexpect_add) */
    if (!t->live || !t->on_port[f->sport])
        return false;
    for (uint32_t i = 0; i < PEXPECT_MAX; i++) {
        struct pexpect *e = &t->e[i];
        if (!e->proto || e->ipver != f->ipver || e->l4 != f->proto || e->port != f->sport)
            continue;
        if (e->expire_us < f->first_us) {
            drop(t, e);
            continue;
        }
        if (!((same(&e->a, &f->cli) && same(&e->b, &f->srv)) ||
              (same(&e->a, &f->srv) && same(&e->b, &f->cli))))
            continue;
        uint16_t proto = e->proto;
        if (pf->w->p->cfg.mode[proto] == OSPREY_APP_DISABLED) {
            drop(t, e); /* its protocol is off: the flow is probed as any other */
            return false;
        }
        void *data = NULL; /* detection-only: the flow is told, never parsed (drop frees it) */
        if (parsers_parses(pf->w->p, proto)) {
            data = e->data;
            e->data = NULL; /* the flow's now */
        }
        drop(t, e);
        pflow_decide(pf, f, dir, proto);
        pf->state = data;
        return true;
    }
    return false;
}

void pexpect_free(struct pexpect_table *t)
{
    for (uint32_t i = 0; t->e && i < PEXPECT_MAX; i++)
        if (t->e[i].proto)
            drop(t, &t->e[i]);
    free(t->e);
    free(t->on_port);
    t->e = NULL;
    t->on_port = NULL;
}
