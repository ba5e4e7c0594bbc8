/* kex.c — a side's binary packets after its banner (RFC 4253 §6: packet_length, padding_length,
 * payload, padding, no MAC yet), read up to the side's NEWKEYS (encrypted after it) as
 * Suricata reads them: a packet_length below 2 raises ssh.invalid_record and ends the side.
 * When HASSH is computed the side's SSH_MSG_KEXINIT (§7.1) completes its part of the
 * transaction: its name-lists give the HASSH string — kex_algorithms, then the
 * side's own direction's encryption, MAC and compression lists, joined by ';' (Salesforce's
 * HASSH: the client's client-to-server lists, the server's server-to-client ones) — and the
 * HASSH is that string's MD5. A NEWKEYS, a packet past SSH_PACKET_MAX or SSH_PACKETS_MAX
 * packets without KEXINIT end the side (encrypted or not SSH as expected). */
#include <openssl/evp.h>
#include <string.h>

#include "ssh_int.h"

enum { SSH_MSG_KEXINIT = 20, SSH_MSG_NEWKEYS = 21 };

/* name-list i (RFC 4251 §5: uint32 length, then the names) of the KEXINIT p[0..n) */
static bool name_list(const uint8_t *p, size_t n, unsigned want, const uint8_t **out,
                      uint32_t *len)
{
    size_t at = 1 + 16; /* message code, cookie */
    for (unsigned i = 0;; i++) {
        if (at + 4 > n)
            return false;
        uint32_t l = rd_be32(p + at);
        if (l > n - at - 4)
            return false;
        if (i == want) {
            *out = p + at + 4;
            *len = l;
            return true;
        }
        at += 4 + (size_t)l;
    }
}

bool ssh_kexinit_hassh(const uint8_t *p, size_t n, int dir, struct pbuf *out)
{
    /* kex_algorithms 0, server_host_key 1, encryption c2s 2 / s2c 3, mac 4 / 5, compression
     * 6 / 7 */
    const unsigned lists[4] = {0, dir == 0 ? 2u : 3u, dir == 0 ? 4u : 5u, dir == 0 ? 6u : 7u};
    const uint8_t *l[4];
    uint32_t len[4];
    if (n < 1 || p[0] != SSH_MSG_KEXINIT)
        return false;
    for (int i = 0; i < 4; i++)
        if (!name_list(p, n, lists[i], &l[i], &len[i]))
            return false;
    pbuf_reset(out);
    for (int i = 0; i < 4; i++) {
        if ((i && pbuf_add(out, ";", 1, SSH_PACKET_MAX) != 1) ||
            pbuf_add(out, l[i], len[i], SSH_PACKET_MAX) != len[i])
            return false;
    }
    return true;
}

static void md5_hex(const uint8_t *d, size_t n, char out[33])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int ml = 0;
    if (!EVP_Digest(d, n, md, &ml, EVP_md5(), NULL) || ml != 16) {
        out[0] = 0;
        return;
    }
    phex(out, md, 16);
}

/* the transaction needs nothing more of side dir (its KEXINIT is in, or none will come) */
static void side_done(struct pflow *pf, struct mon_flow *f, int dir, struct ssh_state *st)
{
    st->side[dir].finished = true;
    ssh_report_if_done(pf, f, st);
}

/* no more packets are read of side dir */
static void finish(struct pflow *pf, struct mon_flow *f, int dir, struct ssh_state *st)
{
    struct ssh_side *side = &st->side[dir];
    side->records_done = pf->dead[dir] = true;
    pbuf_free(&side->pkt);
    side_done(pf, f, dir, st);
}

/* One whole packet p[0..n) (its length field first) of side dir. */
static void packet(struct pflow *pf, struct mon_flow *f, int dir, struct ssh_state *st,
                   const uint8_t *p, size_t n)
{
    struct ssh_side *side = &st->side[dir];
    uint8_t pad = p[4];
    if (pad + 5u > n) { /* padding longer than the packet: not SSH as expected */
        pflow_count(pf, SSH_C_MALFORMED, 1);
        finish(pf, f, dir, st);
        return;
    }
    const uint8_t *payload = p + 5;
    size_t plen = n - 5 - pad;
    if (plen && payload[0] == SSH_MSG_KEXINIT && st->hassh && !side->kexinit) {
        if (ssh_kexinit_hassh(payload, plen, dir, &side->hassh_string)) {
            md5_hex(side->hassh_string.p, side->hassh_string.len, side->hassh);
            side->kexinit = side->hassh[0] != 0;
            pflow_count(pf, SSH_C_KEXINITS, 1);
            pflow_raise(pf, f, dir, dir == 0 ? SSH_EV_CLIENT_KEXINIT : SSH_EV_SERVER_KEXINIT);
        } else {
            pflow_count(pf, SSH_C_MALFORMED, 1);
        }
        side_done(pf, f, dir, st);
    }
    if (plen && payload[0] == SSH_MSG_NEWKEYS) {
        /* both sides encrypted: content rules stop reading the flow's payload and its stream
         * takes no more, as Suricata's SSH parser asks (NO_INSPECTION, NO_REASSEMBLY) */
        side->newkeys = true;
        if (st->side[dir ^ 1].newkeys)
            pflow_payload_off(pf, OSPREY_PAYLOAD_UNREASSEMBLED);
        finish(pf, f, dir, st);
    } else if (++side->packets >= SSH_PACKETS_MAX) {
        finish(pf, f, dir, st);
    }
}

void ssh_packets(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct ssh_state *st = pf->state;
    struct ssh_side *side = &st->side[dir];
    while (!side->records_done) {
        /* the length field first, then the rest of the packet, gathered in side->pkt */
        size_t want = 5;
        if (side->pkt.len >= 5) {
            uint32_t len = rd_be32(side->pkt.p);
            if (len < 2 || len > SSH_PACKET_MAX - 4) {
                if (len < 2) /* Suricata's only check of a record header */
                    pflow_anomaly(pf, f, dir, SSH_AE_INVALID_RECORD);
                pflow_count(pf, SSH_C_MALFORMED, 1);
                finish(pf, f, dir, st);
                return;
            }
            want = 4 + (size_t)len;
            if (side->pkt.len == want) {
                packet(pf, f, dir, st, side->pkt.p, side->pkt.len);
                pbuf_reset(&side->pkt);
                continue;
            }
        }
        if (!n)
            return;
        size_t k = want - side->pkt.len;
        if (k > n)
            k = n;
        if (pbuf_add(&side->pkt, d, k, SSH_PACKET_MAX) != k) {
            finish(pf, f, dir, st); /* out of memory */
            return;
        }
        d += k, n -= k;
    }
}
