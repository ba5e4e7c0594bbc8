/* record.c — TLS records and handshake messages over a TCP flow: records reassembled from
 * any segmentation, handshake messages reassembled across records (up to TLS_HS_MAX; a
 * bigger one is counted and skipped), then ClientHello, ServerHello and Certificate are
 * parsed and their events run. After a side's ChangeCipherSpec its handshake is encrypted
 * and no longer looked at. */
#include <stdlib.h>
#include <string.h>

#include "tls_int.h"

#define REC_MAX (16384 + 2048 + 5) /* TLSCiphertext limit (RFC 5246 §6.2.3) + header */

static void report(struct pflow *pf, struct mon_flow *f)
{
    if (!((struct tls_state *)pf->state)->reported) {
        ((struct tls_state *)pf->state)->reported = true;
        pflow_tx_done(pf, f);
    }
}

/* A handshake type IANA registers (TLS 1.0 to 1.3): another one is an invalid message. */
static bool known_handshake_type(uint8_t type)
{
    static const uint8_t known[] = {0, 1, 2, 3, 4, 5, 6, 8, 11, 12, 13, 14, 15, 16, 17, 20,
                                    21, 22, 23, 24, 25, 254};
    for (size_t i = 0; i < sizeof known; i++)
        if (known[i] == type)
            return true;
    return false;
}

/* What the hello just read raised (hello.c sets them: QUIC reads hellos too, without them) */
static void hello_anomalies(struct pflow *pf, struct mon_flow *f, int dir)
{
    static const struct {
        uint32_t bit;
        unsigned anomaly;
    } map[] = {{TLS_HA_INVALID_LENGTH, TLS_AE_HANDSHAKE_INVALID_LENGTH},
               {TLS_HA_SNI_TYPE, TLS_AE_INVALID_SNI_TYPE},
               {TLS_HA_SNI_LENGTH, TLS_AE_INVALID_SNI_LENGTH},
               {TLS_HA_MULTIPLE_SNI, TLS_AE_MULTIPLE_SNI}};
    struct tls_state *t = pf->state;
    uint32_t seen = t->wire.hello_anom;
    t->wire.hello_anom = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (seen & map[i].bit)
            pflow_anomaly(pf, f, dir, map[i].anomaly);
}

static void handshake(struct pflow *pf, struct mon_flow *f, int dir, uint8_t type,
                      const uint8_t *d, size_t n)
{
    struct tls_state *t = ((struct tls_state *)pf->state);
    int rc = 0;
    /* ssl_state: the latest handshake message, and all seen */
    uint32_t st = type == 1 && dir == 0    ? TLS_SEEN_CLIENT_HELLO
                : type == 2 && dir == 1    ? TLS_SEEN_SERVER_HELLO
                : type == 16 && dir == 0   ? TLS_SEEN_CLIENT_KEYX
                : type == 12 && dir == 1   ? TLS_SEEN_SERVER_KEYX
                                           : TLS_SEEN_UNKNOWN;
    t->wire.info.state |= st;
    t->wire.info.last_state = st;
    if (type == 1 && dir == 0) {
        pflow_count(pf, TLS_C_HANDSHAKES, 1);
        rc = tls_wire_client_hello(&t->wire, d, n);
        hello_anomalies(pf, f, dir);
        if (rc == 0)
            pflow_raise(pf, f, dir, TLS_EV_CLIENT_HELLO);
    } else if (type == 2 && dir == 1) {
        rc = tls_wire_server_hello(&t->wire, d, n);
        hello_anomalies(pf, f, dir);
        if (rc == 0)
            pflow_raise(pf, f, dir, TLS_EV_SERVER_HELLO);
    } else if (type == 11) { /* the server's chain, or the client's (mutual authentication) */
        if ((rc = tls_certificate(&t->wire, d, n, dir == 0)) == 0)
            pflow_raise(pf, f, dir, dir ? TLS_EV_CERTIFICATE : TLS_EV_CLIENT_CERTIFICATE);
        else if (rc < 0)
            pflow_anomaly(pf, f, dir, tls_cert_anomaly(rc));
        rc = rc > 0 ? 0 : rc; /* an empty client Certificate is no error */
    } else if (type == 14 && dir == 1) { /* ServerHelloDone: the clear part is over */
        report(pf, f);
    }
    if (rc)
        pflow_count(pf, TLS_C_MALFORMED, 1);
}

/* Handshake bytes of one record: split into messages (type, 3-byte length, body); a record
 * whose last bytes are too few for the next message's header raises tls.invalid_ssl_record
 * (when check_short: its record was not already reported too short). */
static void handshake_bytes(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                            size_t n, bool check_short)
{
    struct tls_state *t = ((struct tls_state *)pf->state);
    struct pbuf *hs = &t->hs[dir];
    bool short_raised = !check_short; /* (raised once per record) */
    while (n) {
        if (!hs->len && !t->skip[dir] && n < 4 && !short_raised) {
            /* a message header cut by its record's end: Suricata reads headers within a
             * record (Osprey still joins it with the next record's bytes) */
            short_raised = true;
            pflow_anomaly(pf, f, dir, TLS_AE_INVALID_SSL_RECORD);
        }
        if (t->skip[dir]) {
            size_t k = n < t->skip[dir] ? n : t->skip[dir];
            t->skip[dir] -= (uint32_t)k;
            d += k, n -= k;
            continue;
        }
        uint32_t need = 4;
        if (hs->len >= 4)
            need = 4 + rd_be24(hs->p + 1);
        if (need > TLS_HS_MAX) {
            pflow_count(pf, TLS_C_LIMIT, 1);
            t->skip[dir] = need - hs->len;
            pbuf_reset(hs);
            continue;
        }
        uint32_t k = need - hs->len < n ? need - hs->len : (uint32_t)n;
        if (pbuf_add(hs, d, k, 0) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (!known_handshake_type(hs->p[0])) {
            /* not a handshake message: the messages' framing is lost on this side */
            pflow_count(pf, TLS_C_MALFORMED, 1);
            pflow_anomaly(pf, f, dir, TLS_AE_INVALID_HANDSHAKE_MESSAGE);
            pf->dead[dir] = true;
            return;
        }
        if (hs->len < 4)
            continue;
        uint32_t full = 4 + rd_be24(hs->p + 1);
        if (hs->len == full) { /* (when only the header is in, the loop sizes the body) */
            handshake(pf, f, dir, hs->p[0], hs->p + 4, hs->len - 4);
            pbuf_reset(hs);
        }
    }
}

/* A heartbeat record's body b[0..n) (RFC 6520: type, payload_length, payload, padding of at
 * least 16 bytes), followed over the flow as Suricata follows them: one in flight at a time,
 * answered by the other side; after a ChangeCipherSpec they are encrypted and only their
 * record lengths compare (an answer longer than its request: Heartbleed's leak). */
static void heartbeat(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *b,
                      size_t n)
{
    struct tls_state *t = pf->state;
    bool clear = !t->encrypted[0] && !t->encrypted[1];
    if (n < 3)
        return;
    if (clear && b[0] != 1 && b[0] != 2) { /* neither request nor response */
        pflow_anomaly(pf, f, dir, TLS_AE_INVALID_HEARTBEAT);
        return;
    }
    if (!t->hb_inflight) {
        t->hb_inflight = true;
        t->hb_init_dir = (uint8_t)dir;
        if (!clear) {
            t->hb_record_len = (uint16_t)n;
            return;
        }
        uint32_t payload = rd_be16(b + 1);
        if (payload + 3 > n)
            pflow_anomaly(pf, f, dir, TLS_AE_OVERFLOW_HEARTBEAT);
        else if (n - payload - 3 < 16)
            pflow_anomaly(pf, f, dir, TLS_AE_INVALID_HEARTBEAT);
    } else if (dir == t->hb_init_dir) { /* a second one before the answer */
        pflow_anomaly(pf, f, dir, TLS_AE_INVALID_HEARTBEAT);
    } else {
        t->hb_inflight = false;
        if (!clear && t->hb_record_len && t->hb_record_len < n)
            pflow_anomaly(pf, f, dir, TLS_AE_DATALEAK_HEARTBEAT);
        t->hb_record_len = 0;
    }
}

/* Application data: the handshake is over and the rest is encrypted (0-RTT data the
 * ClientHello announced is not yet that: the ServerHello may refuse it). Unless
 * encryption-handling is full, content rules stop reading the flow's payload; bypass also
 * stops reading its records, as Suricata's. */
static void encrypted_data(struct pflow *pf)
{
    const struct tls_state *t = pf->state;
    const struct tls_cfg *cfg = pflow_cfg(pf);
    if (cfg->encryption_handling == TLS_ENC_FULL ||
        (t->wire.info.early_data && !(t->wire.info.state & TLS_SEEN_SERVER_HELLO)))
        return;
    if (cfg->encryption_handling == TLS_ENC_BYPASS) {
        pflow_payload_off(pf, OSPREY_PAYLOAD_UNREASSEMBLED);
        pf->dead[0] = pf->dead[1] = true;
    } else {
        pflow_payload_off(pf, OSPREY_PAYLOAD_ENCRYPTED);
    }
}

static void record(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *r, size_t n)
{
    struct tls_state *t = ((struct tls_state *)pf->state);
    uint8_t type = r[0];
    uint16_t len = rd_be16(r + 3); /* (the body itself is not kept when nothing reads it) */
    if (type == 20) { /* ChangeCipherSpec */
        t->encrypted[dir] = true;
        if (dir == 1)
            report(pf, f);
    } else if (type == 21) {
        if (len == 1) /* an alert is level and description (longer: an encrypted one) */
            pflow_anomaly(pf, f, dir, TLS_AE_INVALID_ALERT);
    } else if (type == 24) {
        heartbeat(pf, f, dir, r + 5, n - 5);
    } else if (type == 22 && !t->encrypted[dir]) {
        if (len && len < 4) /* no room for a handshake message header */
            pflow_anomaly(pf, f, dir, TLS_AE_INVALID_SSL_RECORD);
        handshake_bytes(pf, f, dir, r + 5, n - 5, len >= 4);
    } else if (type == 23) {
        encrypted_data(pf);
        if (dir == 1)
            report(pf, f); /* application data: TLS 1.3 hides the rest */
    } else if (type < 20 || type > 24) {
        pflow_count(pf, TLS_C_MALFORMED, 1);
        pflow_anomaly(pf, f, dir, TLS_AE_INVALID_RECORD_TYPE);
        pf->dead[dir] = true;
    }
    pflow_raw_trigger(pf, f, dir); /* every record's end, as Suricata's (0-RTT data too) */
}

/* A client may open with an SSLv2-framed ClientHello (2-byte header with the top bit set,
 * RFC 6101 appendix E.1) and go on with TLS records once the server answered in SSLv3/TLS.
 * Its fields are not the TLS ClientHello's (no extensions: no SNI, JA3 or JA4): it is
 * counted, its version kept (ssl_version) and tls_client_hello runs without buffers; the
 * server's hello and certificate are read as usual. Any record of either side starting with
 * a top bit set is SSLv2-framed, as Suricata reads them (sslv2_header). */
/* A record whose body record() never reads: only its type and end matter, so its bytes are
 * passed over instead of copied (most of a TLS flow is application data). */
static bool body_unread(const struct tls_state *t, int dir, uint8_t type)
{
    return type == 20 || type == 21 || type == 23 || (type == 22 && t->encrypted[dir]);
}

/* A record whose first byte has either top bit set is SSLv2-framed (no TLS record type
 * has): a 2-byte header (top bit) or a 3-byte one (with a padding length), Suricata's
 * reading; its header's length, 0 when the record is a TLS one. */
static uint32_t sslv2_header(const struct pbuf *rec)
{
    if (!rec->len || !(rec->p[0] & 0xc0))
        return 0;
    return (rec->p[0] & 0x80) ? 2 : 3;
}

/* A whole SSLv2 record rec (header hl bytes): its message type's checks (Suricata's ERROR
 * message, a CLIENT-HELLO shorter than its fixed fields) and the client's hello; false when
 * the side is given up. */
static bool sslv2_record(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *r,
                         uint32_t n, uint32_t hl)
{
    struct tls_state *ts = pf->state;
    uint8_t msg = r[hl];
    if (msg == 0)
        pflow_anomaly(pf, f, dir, TLS_AE_ERROR_MESSAGE);
    if (msg != 1)
        return true;
    if (n - hl < 7) { /* version, cipher-specs, session-id and challenge lengths */
        pflow_anomaly(pf, f, dir, TLS_AE_INVALID_SSL_RECORD);
        return false;
    }
    if (dir == 0) { /* its version, for ssl_version */
        ts->wire.info.client_version = rd_be16(r + hl + 1);
        ts->wire.info.state |= TLS_SEEN_CLIENT_HELLO;
        ts->wire.info.last_state = TLS_SEEN_CLIENT_HELLO;
        pflow_count(pf, TLS_C_HANDSHAKES, 1);
        pflow_raise(pf, f, dir, TLS_EV_CLIENT_HELLO); /* (no buffers) */
    }
    return true;
}

void tls_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct tls_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct tls_state *ts = pf->state;
    struct pbuf *rec = &ts->rec[dir];
    /* records begun in this chunk (one already under way counts), at most one per 6 bytes */
    uint32_t begun = rec->len || ts->rskip[dir], most = n / 6 > 1 ? (uint32_t)(n / 6) : 1;
    while (n && !pf->dead[dir]) {
        if (!rec->len && !ts->rskip[dir] && begun++ > most) {
            pflow_anomaly(pf, f, dir, TLS_AE_TOO_MANY_RECORDS);
            pflow_count(pf, TLS_C_MALFORMED, 1);
            pf->dead[dir] = true;
            return;
        }
        if (ts->rskip[dir]) { /* the header is in rec; the record ends when the skip does */
            uint32_t k = ts->rskip[dir] < n ? ts->rskip[dir] : (uint32_t)n;
            ts->rskip[dir] -= k;
            d += k, n -= k;
            if (!ts->rskip[dir]) {
                record(pf, f, dir, rec->p, rec->len);
                pbuf_reset(rec);
            }
            continue;
        }
        uint32_t need = 5;
        uint32_t v2 = sslv2_header(rec);
        if (!rec->len) {
            need = 1; /* its first byte tells the framing (an SSLv2 record may be 3 bytes) */
        } else if (v2 && rec->len >= 2) {
            uint32_t len = (uint32_t)(rec->p[0] & (v2 == 2 ? 0x7f : 0x3f)) << 8 | rec->p[1];
            if (!len) { /* Suricata's invalid header, and its failed SSLv2 record */
                pflow_anomaly(pf, f, dir, TLS_AE_INVALID_SSLV2_HEADER);
                pflow_anomaly(pf, f, dir, TLS_AE_INVALID_SSL_RECORD);
                pflow_count(pf, TLS_C_MALFORMED, 1);
                pf->dead[dir] = true;
                return;
            }
            need = v2 + len;
        } else if (v2) {
            need = 2;
        } else if (rec->len >= 5) {
            need = 5u + rd_be16(rec->p + 3);
            if (rec->p[1] != 3 || need > REC_MAX) { /* not a TLS record: framing is lost */
                pflow_count(pf, TLS_C_MALFORMED, 1);
                if (rec->p[1] != 3)
                    pflow_anomaly(pf, f, dir, TLS_AE_INVALID_RECORD_VERSION);
                pf->dead[dir] = true;
                return;
            }
            if (rec->len == 5 && need > 5 && body_unread(ts, dir, rec->p[0])) {
                ts->rskip[dir] = need - 5;
                continue;
            }
        }
        uint32_t k = need - rec->len < n ? need - rec->len : (uint32_t)n;
        if (pbuf_add(rec, d, k, 0) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (v2 && rec->len >= 2 && rec->len == need && need > v2) {
            if (!sslv2_record(pf, f, dir, rec->p, rec->len, v2)) {
                pflow_count(pf, TLS_C_MALFORMED, 1);
                pf->dead[dir] = true;
                return;
            }
            pbuf_reset(rec);
        } else if (!v2 && rec->len >= 5 &&
                   rec->len == 5u + rd_be16(rec->p + 3)) {
            record(pf, f, dir, rec->p, rec->len);
            pbuf_reset(rec);
        }
    }
}

const uint8_t *tls_buffer_at(struct pflow *pf, enum tls_buf b, uint32_t i, uint32_t *len)
{
    const struct tls_state *t = pf->state;
    return tls_wire_at(t ? &t->wire : NULL, b, i, len);
}

void tls_free(void *state)
{
    struct tls_state *t = state;
    if (!t)
        return;
    tls_wire_release(&t->wire);
    for (int i = 0; i < 2; i++) {
        pbuf_free(&t->rec[i]);
        pbuf_free(&t->hs[i]);
    }
    free(t);
}
