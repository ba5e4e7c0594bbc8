/* message.c — one DHCP datagram: the BOOTP header (op, xid, the addresses, chaddr) and the
 * options after the magic cookie (RFC 2132 §2: code, length, data; 0 pads, 255 ends). The
 * datagram is copied (bounded by DHCP_MSG_MAX); options are kept as spans into the copy, at
 * most DHCP_OPTS_MAX (the rest counted as shed). Option overload (sname / file carrying
 * options, option 52) is not read, as Suricata does not. */
#include <stdlib.h>
#include <string.h>

#include "dhcp_int.h"

void dhcp_msg_free(struct dhcp_msg *m)
{
    free(m->body);
    memset(m, 0, sizeof *m);
}

bool dhcp_decode(struct dhcp_msg *m, const uint8_t *d, uint32_t n)
{
    memset(m, 0, sizeof *m);
    if (n < DHCP_OPTIONS_AT || n > DHCP_MSG_MAX || rd_be32(d + DHCP_HDR_LEN) != DHCP_COOKIE)
        return false;
    if (!(m->body = malloc(n)))
        return false;
    memcpy(m->body, d, n);
    m->len = n;
    m->op = d[0];
    m->hlen = d[2];
    m->xid = rd_be32(d + 4);
    uint32_t at = DHCP_OPTIONS_AT;
    for (;;) {
        if (at >= n) {
            m->truncated = true;
            break;
        }
        uint8_t code = d[at++];
        if (code == 0)
            continue;
        if (code == DHCP_OPT_END)
            break;
        if (at >= n || d[at] > n - at - 1) {
            m->malformed = true;
            break;
        }
        uint32_t len = d[at++];
        if (m->nopts < DHCP_OPTS_MAX)
            m->opts[m->nopts++] = (struct dhcp_opt){code, at, len};
        else
            m->shed++;
        at += len;
    }
    return true;
}

const struct dhcp_opt *dhcp_opt_find(const struct dhcp_msg *m, uint8_t code)
{
    for (uint32_t i = 0; i < m->nopts; i++)
        if (m->opts[i].code == code)
            return &m->opts[i];
    return NULL;
}

bool dhcp_opt_u32(const struct dhcp_msg *m, uint8_t code, uint32_t *out)
{
    const struct dhcp_opt *o = dhcp_opt_find(m, code);
    if (!o || o->len != 4)
        return false;
    *out = rd_be32(m->body + o->off);
    return true;
}
