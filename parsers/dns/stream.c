/* stream.c — DNS's messages: each UDP datagram, or each TCP message behind its 2-byte length,
 * run through the shared decoder (../dns_wire: dns_wire_message) under DNS's own rows — its
 * events by the QR bit, its anomalies and counters. */
#include "dns_int.h"

/* DNS's own rows */
static const struct dns_wire_rows DNS_ROWS = {
    .ev_query = DNS_EV_QUERY, .ev_response = DNS_EV_RESPONSE,
    .ae = {[DNS_WIRE_P_MALFORMED_DATA] = DNS_AE_MALFORMED_DATA,
           [DNS_WIRE_P_Z_FLAG_SET] = DNS_AE_Z_FLAG_SET,
           [DNS_WIRE_P_NOT_REQUEST] = DNS_AE_NOT_REQUEST,
           [DNS_WIRE_P_NOT_RESPONSE] = DNS_AE_NOT_RESPONSE,
           [DNS_WIRE_P_INVALID_AUTHORITIES] = DNS_AE_INVALID_AUTHORITIES,
           [DNS_WIRE_P_INVALID_ADDITIONALS] = DNS_AE_INVALID_ADDITIONALS,
           [DNS_WIRE_P_NAME_TOO_LONG] = DNS_AE_NAME_TOO_LONG,
           [DNS_WIRE_P_INVALID_OPCODE] = DNS_AE_INVALID_OPCODE,
           [DNS_WIRE_P_INFINITE_LOOP] = DNS_AE_INFINITE_LOOP,
           [DNS_WIRE_P_TOO_MANY_LABELS] = DNS_AE_TOO_MANY_LABELS},
    .c_messages = DNS_C_MESSAGES, .c_malformed = DNS_C_MALFORMED,
};

void dns_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    dns_wire_message(pf, f, dir, d, n, &DNS_ROWS);
}

/* DNS over TCP: each message behind a 2-byte length (RFC 1035 §4.2.2), split anywhere. */
void dns_tcp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct pbuf *in = &pf->in[dir];
    while (n) {
        uint32_t need = in->len < 2 ? 2 : 2u + rd_be16(in->p);
        uint32_t k = need - in->len < n ? need - in->len : (uint32_t)n;
        if (pbuf_add(in, d, k, 0) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (in->len >= 2 && in->len == 2u + rd_be16(in->p)) {
            dns_message(pf, f, dir, in->p + 2, in->len - 2u);
            pbuf_reset(in);
        }
    }
}

