/* msg.c — one EtherNet/IP encapsulation message (CIP Vol 2 §2-3, little-endian): the 24-byte
 * header; a RegisterSession's protocol version and options; a ListIdentity reply's identity
 * item (0x0C) and a ListServices reply's service item (0x100); a SendRRData / SendUnitData's
 * common packet format items, whose data item (0xB2 unconnected, 0xB1 connected after its
 * sequence count) is a CIP message: a request's service and logical path (class, instance,
 * attribute segments, 8/16/32-bit), a reply's service and general / extended status, and the
 * messages a Multiple Service Packet (service 0x0A) holds. Every read is bounded by the
 * message. */
#include <string.h>

#include "enip_int.h"

bool enip_command_known(uint16_t cmd)
{
    switch (cmd) {
    case ENIP_CMD_NOP: case ENIP_CMD_LIST_SERVICES: case ENIP_CMD_LIST_IDENTITY:
    case ENIP_CMD_LIST_INTERFACES: case ENIP_CMD_REGISTER: case ENIP_CMD_UNREGISTER:
    case ENIP_CMD_SEND_RR: case ENIP_CMD_SEND_UNIT: case ENIP_CMD_INDICATE:
    case ENIP_CMD_CANCEL:
        return true;
    default:
        return false;
    }
}

/* a request's logical path p[0..n) into c */
static void path(struct enip_cip *c, const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t seg = p[i];
        if ((seg & 0xe0) != 0x20) /* not a logical segment: the rest is not read */
            return;
        uint8_t type = seg & 0x1c, fmt = seg & 3;
        uint32_t v;
        if (fmt == 0 && i + 2 <= n)
            v = p[i + 1], i += 2;
        else if (fmt == 1 && i + 4 <= n)
            v = rd_le16(p + i + 2), i += 4; /* a pad byte first */
        else if (fmt == 2 && i + 6 <= n)
            v = rd_le32(p + i + 2), i += 6;
        else
            return;
        if (type == 0x00 && c->class_id == ENIP_NONE)
            c->class_id = v;
        else if (type == 0x04 && c->instance == ENIP_NONE)
            c->instance = v;
        else if (type == 0x10 && c->attribute == ENIP_NONE)
            c->attribute = v;
    }
}

static void cip_one(struct enip_msg *m, const uint8_t *d, size_t n, uint32_t *shed,
                    int depth);

/* a Multiple Service Packet's body: a count, offsets from the count, the messages */
static void multiple(struct enip_msg *m, const uint8_t *d, size_t n, uint32_t *shed, int depth)
{
    if (n < 2)
        return;
    uint16_t cnt = rd_le16(d);
    if (2u + 2u * cnt > n)
        return;
    m->multiple = true;
    for (uint16_t i = 0; i < cnt; i++) {
        uint16_t off = rd_le16(d + 2 + 2 * i);
        uint16_t end = i + 1u < cnt ? rd_le16(d + 4 + 2 * i) : (uint16_t)(n > 0xffff ? 0xffff : n);
        if (off >= n || end > n || end <= off)
            continue;
        cip_one(m, d + off, end - off, shed, depth + 1);
    }
}

static void cip_one(struct enip_msg *m, const uint8_t *d, size_t n, uint32_t *shed, int depth)
{
    if (n < 2)
        return;
    if (m->ncip == ENIP_CIP_MAX) {
        (*shed)++;
        return;
    }
    struct enip_cip *c = &m->cip[m->ncip++];
    memset(c, 0, sizeof *c);
    c->class_id = c->instance = c->attribute = ENIP_NONE;
    c->service = d[0] & 0x7f;
    c->reply = d[0] & 0x80;
    if (c->reply) {
        if (n < 4)
            return;
        c->status = d[2];
        size_t words = d[3];
        if (words && 4 + 2 * words <= n)
            c->has_ext = true, c->ext_status = rd_le16(d + 4);
        size_t body = 4 + 2 * words;
        if (c->service == 0x0a && depth == 0 && body <= n)
            multiple(m, d + body, n - body, shed, depth);
        return;
    }
    size_t plen = 2u * d[1];
    if (2 + plen > n)
        return;
    path(c, d + 2, plen);
    if (c->service == 0x0a && depth == 0)
        multiple(m, d + 2 + plen, n - 2 - plen, shed, depth);
}

/* the common packet format of SendRRData / SendUnitData after the interface handle and
 * timeout: items, the data item's CIP message */
static void cpf(struct enip_msg *m, const uint8_t *d, size_t n, uint32_t *shed)
{
    if (n < 8)
        return;
    uint16_t cnt = rd_le16(d + 6);
    size_t at = 8;
    for (uint16_t i = 0; i < cnt && at + 4 <= n; i++) {
        uint16_t type = rd_le16(d + at), len = rd_le16(d + at + 2);
        at += 4;
        if (len > n - at)
            return;
        if (type == 0xb2)
            cip_one(m, d + at, len, shed, 0);
        else if (type == 0xb1 && len >= 2) /* a sequence count first */
            cip_one(m, d + at + 2, len - 2u, shed, 0);
        at += len;
    }
}

/* a reply's first item: the identity (0x0C) or a service (0x100) */
static void list_item(struct enip_msg *m, const uint8_t *d, size_t n)
{
    if (n < 6 || rd_le16(d) < 1)
        return;
    uint16_t type = rd_le16(d + 2), len = rd_le16(d + 4);
    const uint8_t *it = d + 6;
    if (len > n - 6)
        return;
    if (type == 0x0c && len >= 33) {
        m->has_version = true, m->version = rd_le16(it);
        m->has_identity = true;
        m->vendor = rd_le16(it + 18), m->device_type = rd_le16(it + 20);
        m->product_code = rd_le16(it + 22);
        m->rev_major = it[24], m->rev_minor = it[25];
        m->id_status = rd_le16(it + 26), m->serial = rd_le32(it + 28);
        size_t nl = it[32];
        if (33 + nl > len)
            nl = len - 33u;
        m->name_len = (uint8_t)(nl < ENIP_NAME_MAX ? nl : ENIP_NAME_MAX);
        memcpy(m->name, it + 33, m->name_len);
        if (33 + it[32] < len)
            m->state = it[33 + it[32]];
    } else if (type == 0x100 && len >= 4) {
        m->has_version = true, m->version = rd_le16(it);
        m->has_services = true, m->capabilities = rd_le16(it + 2);
        size_t nl = len - 4u < 16 ? len - 4u : 16;
        while (nl && !it[4 + nl - 1]) /* NUL-padded */
            nl--;
        m->name_len = (uint8_t)nl;
        memcpy(m->name, it + 4, nl);
    }
}

bool enip_decode(struct enip_msg *m, int dir, const uint8_t *d, size_t n, uint32_t *shed)
{
    memset(m, 0, sizeof *m);
    if (n < ENIP_HDR_LEN)
        return false;
    m->command = rd_le16(d), m->length = rd_le16(d + 2);
    m->session = rd_le32(d + 4), m->status = rd_le32(d + 8), m->options = rd_le32(d + 20);
    if (!enip_command_known(m->command) || (size_t)ENIP_HDR_LEN + m->length != n)
        return false;
    const uint8_t *b = d + ENIP_HDR_LEN;
    size_t bn = m->length;
    switch (m->command) {
    case ENIP_CMD_REGISTER:
        if (bn >= 4)
            m->has_version = true, m->version = rd_le16(b), m->reg_options = rd_le16(b + 2);
        break;
    case ENIP_CMD_LIST_IDENTITY: case ENIP_CMD_LIST_SERVICES:
        if (dir == 1)
            list_item(m, b, bn);
        break;
    case ENIP_CMD_SEND_RR: case ENIP_CMD_SEND_UNIT:
        cpf(m, b, bn, shed);
        break;
    default:
        break;
    }
    return true;
}
