/* eve.c — QUIC's EVE object of a transaction (one packet), as Suricata 8 writes it:
 * quic{version (a long header's: "Q046", "1", "6b3343cf"), sni, ua, cyu[{hash, string}],
 * ja3{hash, string} of the client's hello or ja3s{…} of the server's, ja4, extensions[{name,
 * type, values}] of the hello (values: the server name, the ALPN protocols)}. */
#include "osprey_json_writer.h"
#include "quic_int.h"

/* IANA's TLS extension names, as Suricata's QUIC records spell them (NULL: unnamed). */
const char *quic_ext_name(uint16_t type)
{
    static const char *const N[] = {
        "server_name", "max_fragment_length", "client_certificate_url", "trusted_ca_keys",
        "truncated_hmac", "status_request", "user_mapping", "client_authz", "server_authz",
        "cert_type", "supported_groups", "ec_point_formats", "srp", "signature_algorithms",
        "use_srtp", "heartbeat", "alpn", "status_request_v2", "signed_certificate_timestamp",
        "client_certificate_type", "server_certificate_type", "padding", "encrypt_then_mac",
        "extended_master_secret", "token_binding", "cached_info", "tls_lts",
        "compress_certificate", "record_size_limit", "pwd_protect", "pwd_clear",
        "password_salt", "ticket_pinning", "tls_cert_with_extern_psk", "delegated_credentials",
        "session_ticket", "tlmsp", "tlmsp_proxying", "tlmsp_delegate", "supported_ekt_ciphers",
        NULL, "pre_shared_key", "early_data", "supported_versions", "cookie",
        "psk_key_exchange_modes", NULL, "certificate_authorities", "oid_filters",
        "post_handshake_auth", "signature_algorithms_cert", "key_share", "transparency_info",
        "connection_id_deprecated", "connection_id", "external_id_hash", "external_session_id",
        "quic_transport_parameters", "ticket_request", "dnssec_chain"};
    if (type < sizeof N / sizeof N[0])
        return N[type];
    if (type == 13172)
        return "next_protocol_negotiation";
    if (type == 65281)
        return "renegotiation_info";
    return NULL;
}

static void span_str(struct osprey_jw *w, const char *key, const struct tls_wire *t,
                     enum tls_buf b)
{
    if (t && t->sp[b].set)
        osprey_jw_strn(w, key, t->copy.p + t->sp[b].off, t->sp[b].len);
}

static void extensions(struct osprey_jw *w, const struct quic_tx *tx, const struct tls_wire *t)
{
    if (!tx->next)
        return;
    osprey_jw_array(w, "extensions");
    for (uint32_t i = 0; i < tx->next; i++) {
        uint16_t e = tx->ext[i];
        osprey_jw_open(w, NULL);
        const char *name = quic_ext_name(e);
        if (name)
            osprey_jw_str(w, "name", name);
        osprey_jw_int(w, "type", e);
        enum tls_buf alpn = tx->dir == 0 ? TB_CLIENT_ALPN : TB_SERVER_ALPN;
        uint32_t na = t->nel[alpn - TB_CERTS];
        if (e == 0 && tx->has_sni) {
            osprey_jw_array(w, "values");
            osprey_jw_strn(w, NULL, tx->sni.p, tx->sni.len);
            osprey_jw_array_end(w);
        } else if (e == 16 && na) {
            osprey_jw_array(w, "values");
            for (uint32_t k = 0; k < na; k++) {
                const struct span *sp = &t->el[alpn - TB_CERTS][k];
                osprey_jw_strn(w, NULL, t->copy.p + sp->off, sp->len);
            }
            osprey_jw_array_end(w);
        }
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

bool quic_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct quic_state *st = pf->state;
    if (!st || !st->tx.id)
        return false;
    if (!w)
        return true;
    const struct quic_tx *tx = &st->tx;
    const struct tls_wire *t = tx->hello ? st->tls : NULL;
    osprey_jw_open(w, "quic");
    if (tx->h.is_long) {
        char v[16];
        quic_version_text(tx->h.version, v, sizeof v);
        osprey_jw_str(w, "version", v);
        if (tx->has_sni)
            osprey_jw_strn(w, "sni", tx->sni.p ? tx->sni.p : (const uint8_t *)"", tx->sni.len);
        if (tx->has_ua)
            osprey_jw_strn(w, "ua", tx->ua.p ? tx->ua.p : (const uint8_t *)"", tx->ua.len);
    }
    if (tx->has_cyu) {
        osprey_jw_array(w, "cyu");
        osprey_jw_open(w, NULL);
        osprey_jw_str(w, "hash", tx->cyu_hash);
        osprey_jw_strn(w, "string", tx->cyu.p ? tx->cyu.p : (const uint8_t *)"", tx->cyu.len);
        osprey_jw_close(w);
        osprey_jw_array_end(w);
    }
    if (t) {
        bool client = tx->dir == 0;
        enum tls_buf hash = client ? TB_JA3_HASH : TB_JA3S_HASH;
        if (t->sp[hash].set) {
            osprey_jw_open(w, client ? "ja3" : "ja3s");
            span_str(w, "hash", t, hash);
            span_str(w, "string", t, client ? TB_JA3_STRING : TB_JA3S_STRING);
            osprey_jw_close(w);
        }
        if (client)
            span_str(w, "ja4", t, TB_JA4);
        extensions(w, tx, t);
    }
    osprey_jw_close(w);
    return true;
}
