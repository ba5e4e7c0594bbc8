/* mcs.c — the client data of an MCS Connect Initial (T.125, BER) on standard RDP security:
 * its userData is a GCC Conference Create Request (T.124, PER) whose H.221 key "Duca" is
 * followed by a PER length and the client's data blocks (MS-RDPBCGR 2.2.1.3). The key is
 * found by search within the message (bounded: the TPKT's bytes) rather than by walking the
 * BER and PER around it; the blocks are read by their own headers: CS_CORE (0xC001: version,
 * desktop size, colour depth, keyboard, build, client name, product id, capabilities,
 * digital product id) and CS_NET (0xC003: the static virtual channels' names). */
#include <string.h>

#include "rdp_int.h"

/* a UTF-16LE field of n bytes as its ASCII (other characters as '?'), NUL-ended in out */
static void utf16(char *out, size_t cap, const uint8_t *d, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < n && k + 1 < cap; i += 2) {
        uint16_t c = rd_le16(d + i);
        if (!c)
            break;
        out[k++] = c < 0x80 && c >= 0x20 ? (char)c : '?';
    }
    out[k] = 0;
}

static void core(struct rdp_client *c, const uint8_t *b, size_t n)
{
    if (n < 4 + 4 + 2 + 2 + 2 + 2 + 4 + 4 + 32 + 4 + 4 + 4)
        return; /* shorter than its mandatory fields (through keyboardFunctionKey) */
    c->set = true;
    c->version = rd_le32(b + 4);
    c->width = rd_le16(b + 8);
    c->height = rd_le16(b + 10);
    c->color_depth = rd_le16(b + 12); /* colorDepth (0xCA01 …): refined below */
    c->keyboard_layout = rd_le32(b + 16);
    c->build = rd_le32(b + 20);
    utf16(c->name, sizeof c->name, b + 24, 32);
    c->keyboard_type = rd_le32(b + 56);
    c->function_keys = rd_le32(b + 64);
    /* optional fields, each present only when all before it are: imeFileName (64) at 68,
     * postBeta2ColorDepth at 132, clientProductId at 134, serialNumber at 136,
     * highColorDepth at 140, supportedColorDepths at 142, earlyCapabilityFlags at 144,
     * clientDigProductId (64) at 146 */
    if (n >= 136) {
        c->product_id = rd_le16(b + 134);
        c->has_product_id = true;
    }
    if (n >= 142) {
        uint16_t high = rd_le16(b + 140);
        if (high)
            c->color_depth = high;
    }
    if (n >= 146) {
        c->early_caps = rd_le16(b + 144);
        c->has_caps = true;
    }
    if (n >= 210)
        utf16(c->id, sizeof c->id, b + 146, 64);
}

static void net(struct rdp_state *st, const uint8_t *b, size_t n)
{
    if (n < 8)
        return;
    uint32_t count = rd_le32(b + 4);
    for (uint32_t i = 0; i < count; i++) {
        size_t at = 8 + (size_t)i * 12;
        if (at + 12 > n)
            break;
        if (st->nchannels == RDP_CHANNELS_MAX) { /* (a client may announce more: not kept) */
            st->shed++;
            continue;
        }
        char *name = st->channels[st->nchannels++];
        memcpy(name, b + at, 8);
        name[8] = 0;
        for (int k = 0; k < 8 && name[k]; k++)
            if ((unsigned char)name[k] < 0x20 || (unsigned char)name[k] >= 0x7f)
                name[k] = '?';
    }
}

bool rdp_connect_initial(struct rdp_state *st, const uint8_t *d, size_t n)
{
    const uint8_t *k = memmem(d, n, "Duca", 4);
    if (!k)
        return false;
    size_t at = (size_t)(k - d) + 4;
    if (at >= n)
        return false;
    size_t len = d[at];
    if (len & 0x80) { /* a two-byte PER length */
        if (at + 1 >= n)
            return false;
        len = (len & 0x3f) << 8 | d[at + 1];
        at++;
    }
    at++;
    size_t end = at + len < n ? at + len : n;
    while (at + 4 <= end) { /* TS_UD_HEADER: type, length (with the header) */
        uint16_t type = rd_le16(d + at), bl = rd_le16(d + at + 2);
        if (bl < 4 || at + bl > end)
            break;
        if (type == 0xc001)
            core(&st->client, d + at, bl);
        else if (type == 0xc003)
            net(st, d + at, bl);
        at += bl;
    }
    return st->client.set;
}
