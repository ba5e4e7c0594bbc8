/* handshake.c — the RFB handshake (RFC 6143 §7.1-7.3) of both sides: ProtocolVersion each,
 * the security types the server offers (3.7 / 3.8: a list the client picks from; 3.3: the one
 * the server decides), VNC authentication's challenge and response, the SecurityResult (and
 * 3.8's failure reason), ClientInit's shared flag and ServerInit (framebuffer size, pixel
 * format, desktop name). A side's bytes wait in its pending buffer until a message is whole
 * (and, for the server, until the client's choice it depends on came): each call steps both
 * sides until neither moves. After ServerInit the flow carries RFB messages: not parsed (as
 * Suricata). Security types other than None (1) and VNC (2) are not followed
 * (rfb.unimplemented_security_type): what came is kept and reported.
 *
 * Events: rfb_auth once the security handshake is over (the result, or for None without one
 * the ServerInit), rfb_server_init with the name. One transaction per flow. */
#include <stdlib.h>
#include <string.h>

#include "rfb_int.h"

static void report(struct pflow *pf, struct mon_flow *f, struct rfb_state *st)
{
    if (st->reported)
        return;
    st->reported = true;
    pflow_count(pf, RFB_C_HANDSHAKES, 1);
    pflow_tx_done(pf, f);
}

static void raise_auth(struct pflow *pf, struct mon_flow *f, struct rfb_state *st)
{
    if (st->auth_raised)
        return;
    st->auth_raised = true;
    pflow_raise(pf, f, 1, RFB_EV_AUTH);
}

/* The handshake cannot be followed on: both sides given up, what came reported. */
static void stop(struct pflow *pf, struct mon_flow *f, struct rfb_state *st, int ae)
{
    if (ae >= 0)
        pflow_anomaly(pf, f, 1, (unsigned)ae);
    if (ae == RFB_AE_MALFORMED_MESSAGE)
        pflow_count(pf, RFB_C_MALFORMED, 1);
    st->srv = RS_DONE;
    st->cli = RC_DONE;
    pf->dead[0] = pf->dead[1] = true;
    raise_auth(pf, f, st);
    report(pf, f, st);
}

/* "RFB xxx.yyy\n": its digits, false when it is not one */
static bool version(const uint8_t *d, struct rfb_version *v)
{
    if (memcmp(d, "RFB ", 4) || d[7] != '.' || d[11] != '\n')
        return false;
    for (int i = 0; i < 3; i++)
        if (d[4 + i] < '0' || d[4 + i] > '9' || d[8 + i] < '0' || d[8 + i] > '9')
            return false;
    memcpy(v->major, d + 4, 3);
    memcpy(v->minor, d + 8, 3);
    v->major[3] = v->minor[3] = 0;
    v->set = true;
    return true;
}

/* A u32 length and that many bytes at d[0..n): the bytes taken (0: not all in yet). */
static size_t string_at(const uint8_t *d, size_t n, struct pbuf *out, struct pflow *pf)
{
    if (n < 4)
        return 0;
    uint32_t len = rd_be32(d);
    if (len > RFB_PENDING_MAX - 4)
        return (size_t)-1;
    if (n - 4 < len)
        return 0;
    pbuf_reset(out);
    if (pbuf_add(out, d + 4, len, RFB_NAME_MAX) != len)
        pflow_count(pf, RFB_C_SHED, 1);
    return 4 + (size_t)len;
}

/* One server message from the pending bytes: the bytes consumed, 0 none (more needed or
 * waiting on the client), (size_t)-1 the handshake stops. */
static size_t server_step(struct pflow *pf, struct mon_flow *f, struct rfb_state *st,
                          const uint8_t *d, size_t n)
{
    switch (st->srv) {
    case RS_VERSION:
        if (n < 12)
            return 0;
        if (!version(d, &st->ver[1])) {
            stop(pf, f, st, RFB_AE_MALFORMED_MESSAGE);
            return (size_t)-1;
        }
        /* 3.3 (and 3.5, which some servers send), 3.7, else 3.8 (3.889: Apple's) */
        st->minor = !strcmp(st->ver[1].minor, "003") || !strcmp(st->ver[1].minor, "005") ? 3
                    : !strcmp(st->ver[1].minor, "007")                                 ? 7
                                                                                       : 8;
        st->srv = RS_SECTYPES;
        return 12;
    case RS_SECTYPES:
        if (st->cli < RC_SECTYPE && st->minor != 3)
            return 0; /* (the client's version first: a server does not send before it) */
        if (st->minor == 3) { /* the server decides: a u32, 0 = failure with a reason */
            if (n < 4)
                return 0;
            st->sectype = rd_be32(d);
            st->sectype_set = true;
            st->srv = st->sectype == 0 ? RS_REASON
                      : st->sectype == 2 ? RS_CHALLENGE
                      : st->sectype == 1 ? RS_SERVER_INIT
                                         : RS_DONE;
            if (st->srv == RS_DONE) {
                stop(pf, f, st, RFB_AE_UNIMPLEMENTED_SECURITY_TYPE);
                return (size_t)-1;
            }
            return 4;
        }
        if (n < 1)
            return 0;
        if (d[0] == 0) { /* no types: the reason follows */
            st->srv = RS_REASON;
            return 1;
        }
        if (n < 1u + d[0])
            return 0;
        for (size_t i = 1; i <= d[0]; i++)
            st->offered[d[i] >> 3] |= (uint8_t)(1u << (d[i] & 7));
        st->srv = RS_WAIT_CHOICE;
        return 1u + d[0];
    case RS_WAIT_CHOICE:
        if (!st->sectype_set)
            return 0; /* the client picks */
        st->srv = st->sectype == 2 ? RS_CHALLENGE : st->sectype == 1 ? RS_RESULT : RS_DONE;
        if (st->sectype == 1 && st->minor == 7)
            st->srv = RS_SERVER_INIT; /* 3.7: no result after None */
        if (st->srv == RS_DONE) {
            stop(pf, f, st, RFB_AE_UNIMPLEMENTED_SECURITY_TYPE);
            return (size_t)-1;
        }
        return (size_t)-2; /* moved without bytes */
    case RS_CHALLENGE:
        if (n < 16)
            return 0;
        memcpy(st->challenge, d, 16);
        st->challenge_set = true;
        st->srv = RS_RESULT;
        return 16;
    case RS_RESULT:
        if (n < 4)
            return 0;
        st->result = rd_be32(d);
        st->result_set = true;
        if (st->result > 2)
            pflow_anomaly(pf, f, 1, RFB_AE_UNKNOWN_SECURITY_RESULT);
        raise_auth(pf, f, st); /* (a failure's reason may follow: not needed for it) */
        if (st->result == 0) {
            st->srv = RS_SERVER_INIT;
            return 4;
        }
        if (st->minor == 8) { /* 3.8: a failure carries its reason */
            st->srv = RS_REASON;
            return 4;
        }
        stop(pf, f, st, -1);
        return (size_t)-1;
    case RS_REASON: {
        size_t k = string_at(d, n, &st->reason, pf);
        if (k == 0)
            return 0;
        stop(pf, f, st, k == (size_t)-1 ? RFB_AE_MALFORMED_MESSAGE : -1);
        return (size_t)-1;
    }
    case RS_SERVER_INIT: {
        if (n < 24)
            return 0;
        size_t k = string_at(d + 20, n - 20, &st->name, pf);
        if (k == 0)
            return 0;
        if (k == (size_t)-1) {
            stop(pf, f, st, RFB_AE_MALFORMED_MESSAGE);
            return (size_t)-1;
        }
        st->width = rd_be16(d);
        st->height = rd_be16(d + 2);
        memcpy(st->pixel, d + 4, 16);
        st->init_set = true;
        raise_auth(pf, f, st); /* (None without a result: the handshake is over now) */
        pflow_raise(pf, f, 1, RFB_EV_SERVER_INIT);
        st->srv = RS_DONE;
        pf->dead[1] = true;
        report(pf, f, st);
        return 20 + k;
    }
    default:
        return 0;
    }
}

static size_t client_step(struct pflow *pf, struct mon_flow *f, struct rfb_state *st,
                          const uint8_t *d, size_t n)
{
    switch (st->cli) {
    case RC_VERSION:
        if (n < 12)
            return 0;
        if (!version(d, &st->ver[0])) {
            stop(pf, f, st, RFB_AE_MALFORMED_MESSAGE);
            return (size_t)-1;
        }
        st->cli = RC_SECTYPE;
        return 12;
    case RC_SECTYPE:
        if (st->minor == 3) { /* none to send: the server decided */
            if (!st->sectype_set)
                return 0;
            st->cli = st->sectype == 2 ? RC_RESPONSE : RC_CLIENT_INIT;
            return (size_t)-2;
        }
        if (st->srv < RS_WAIT_CHOICE || n < 1)
            return 0; /* (its choice comes after the server's list) */
        st->sectype = d[0];
        st->sectype_set = true;
        if (!(st->offered[d[0] >> 3] & (1u << (d[0] & 7)))) /* a type it was not offered */
            pflow_anomaly(pf, f, 0, RFB_AE_CONFUSED_STATE);
        st->cli = d[0] == 2 ? RC_RESPONSE : RC_CLIENT_INIT;
        return 1;
    case RC_RESPONSE:
        if (n < 16)
            return 0;
        memcpy(st->response, d, 16);
        st->response_set = true;
        st->cli = RC_CLIENT_INIT;
        return 16;
    case RC_CLIENT_INIT:
        if (n < 1)
            return 0;
        st->shared = d[0] != 0;
        st->shared_set = true;
        st->cli = RC_DONE;
        pf->dead[0] = true; /* RFB messages from here on */
        return 1;
    default:
        return 0;
    }
}

/* Step both sides until neither moves. */
static void advance(struct pflow *pf, struct mon_flow *f, struct rfb_state *st)
{
    for (bool moved = true; moved && pf->state;) {
        moved = false;
        for (int dir = 1; dir >= 0; dir--) {
            struct pbuf *b = &st->in[dir];
            size_t k = dir ? server_step(pf, f, st, b->p, b->len)
                           : client_step(pf, f, st, b->p, b->len);
            if (k == (size_t)-1)
                return;
            if (k == (size_t)-2) {
                moved = true;
                continue;
            }
            if (k) {
                pbuf_consume(b, (uint32_t)k);
                moved = true;
            }
        }
    }
}

void rfb_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct rfb_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct rfb_state *st = pf->state;
    if (pbuf_add(&st->in[dir], d, n, RFB_PENDING_MAX) != n) {
        stop(pf, f, st, RFB_AE_MALFORMED_MESSAGE); /* a message past the limit */
        return;
    }
    advance(pf, f, st);
}

void rfb_end(struct pflow *pf, struct mon_flow *f)
{
    struct rfb_state *st = pf->state;
    if (st && (st->ver[0].set || st->ver[1].set))
        report(pf, f, st);
}

void rfb_free(void *state)
{
    struct rfb_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->in[0]);
    pbuf_free(&st->in[1]);
    pbuf_free(&st->reason);
    pbuf_free(&st->name);
    free(st);
}
