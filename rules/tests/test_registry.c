/* test_registry.c — the option table's invariants: every keyword once, findable by name,
 * with a dialect, an argument rule that matches its parser, a buffer where it selects one (or,
 * for an app match keyword, the parsed buffer whose message it reads), and "implemented"
 * exactly for the options the engine handles today. */
#include <string.h>

#include "buffers.h"
#include "osprey_rules.h"
#include "registry.h"
#include "unit.h"

static const char *const IMPLEMENTED[] = {
    "msg", "sid", "gid", "rev", "classtype", "priority", "reference", "metadata", "target",
    /* rules/compile/: compile + evaluate beside the parser */
    "content", "nocase", "rawbytes", "depth", "offset", "distance", "within", "fast_pattern",
    "startswith", "endswith", "flow", "dsize", "pcre", "isdataat", "threshold",
    "detection_filter", "flowbits", "itype", "icode", "ttl", "tos", "id", "icmp_id", "icmp_seq",
    "seq", "ack", "window", "tcp.seq", "tcp.ack", "tcp.window", "flags", "byte_test",
    "byte_jump", "ip_proto", "sameip",
    "fragbits", "fragoffset", "ipopts", "byte_extract", "byte_math", "geoip",
    "xbits", "flowint", "noalert", "alert", "urilen", "bsize", "uricontent", "app-layer-protocol", "app-layer-state",
    "service", "bufferlen", "stream_size", "hostbits", "tag", "dataset", "datarep", "decode-event", "stream-event",
    "app-layer-event", "base64_decode", "base64_data", "bypass", "requires", "absent", "entropy",
    /* Lua rules and the luaxform transform (opt_lua.c, rules/lua/, compile/unit_lua.c) */
    "lua", "luajit", "luaxform",
    /* packet and flow properties (opt_pktprop.c, compile/pkt_units.c) */
    "tcp.flags", "tcp.mss", "tcp.wscale", "icmpv6.mtu", "vlan.id", "vlan.layers", "flow.pkts",
    "flow.bytes", "flow.age", "flow.pkts_toserver", "flow.pkts_toclient", "flow.bytes_toserver",
    "flow.bytes_toclient", "prefilter",
    /* checksum verdicts (opt_events.c, compile/pkt_units.c; igmp-csum stays unsupported) */
    "ipv4-csum", "tcpv4-csum", "tcpv6-csum", "udpv4-csum", "udpv6-csum", "icmpv4-csum",
    "icmpv6-csum",
    /* transforms */
    "to_lowercase", "to_uppercase", "strip_whitespace", "compress_whitespace", "dotprefix",
    "url_decode", "header_lowercase", "to_md5", "to_sha1", "to_sha256",
    "xor", "pcrexform", "from_base64", "zlib_deflate", "gunzip", "strip_pseudo_headers",
    /* buffers the parsers fill (or detection derives from their headers) */
    "pkt_data", "raw_data", "file_data", "file.data", "http_uri", "http_raw_uri", "http_header",
    "http_raw_header", "http_cookie", "http_method", "http_client_body", "http_stat_code",
    "http_stat_msg", "http_user_agent", "http_host", "http_raw_host", "http_server_body",
    "http_request_line", "http_response_line", "http_accept", "http_accept_enc",
    "http_accept_lang", "http_connection", "http_content_len", "http_content_type",
    "http_start", "http_protocol", "http_header_names", "http_referer", "http.uri",
    "http.uri.raw", "http.method", "http.request_line", "http.request_body", "http.header",
    "http.header.raw", "http.cookie", "http.user_agent", "http.host", "http.host.raw",
    "http.accept", "http.accept_enc", "http.accept_lang", "http.connection",
    "http.content_type", "http.content_len", "http.start", "http.protocol", "http.header_names",
    "http.referer", "http.response_line", "http.response_body", "http.stat_code",
    "http.stat_msg", "http.server", "http.location", "dns_query", "dns.query", "tls_sni",
    "tls.sni", "tls_cert_subject", "tls.cert_subject", "tls_cert_issuer", "tls.cert_issuer",
    "tls_cert_serial", "tls.cert_serial", "ja3_hash", "ja3.hash", "ja3_string", "ja3.string",
    "ja3s_hash", "ja3s.hash", "ja3s_string", "ja3s.string", "ja4.hash",
    "http.request_header", "http.response_header", "dns.queries.rrname", "dns.answers.rrname",
    "dns.authorities.rrname", "dns.opcode", "dns.rcode", "frame",
    "dns.query.name", "dns.answer.name", "dns.additionals.rrname", "dns.response.rrname",
    "dns.rrtype",
    /* the MQTT parser's integer fields (rules/options/opt_mqtt.c) */
    "mqtt.type", "mqtt.flags", "mqtt.qos", "mqtt.reason_code", "mqtt.connack.return_code",
    "mqtt.protocol_version", "mqtt.connect.flags", "mqtt.connack.session_present",
    /* the SMB parser's integer field (rules/options/opt_smb.c) */
    "smb.version",
    "ftp.dynamic_port",
    "ftp.mode",
    "ftp.reply_received",
    "ftpdata_command",
    "ftpbounce",
    /* the HTTP/2 parser's frame facts (rules/options/opt_http2.c) */
    "http2.frametype", "http2.errorcode", "http2.priority", "http2.window", "http2.size_update",
    "http2.settings",
    /* the WebSocket and RFB parsers' fields (opt_websocket.c, opt_rfb.c) */
    "websocket.opcode", "websocket.mask", "websocket.flags", "rfb.sectype", "rfb.secresult",
    /* the Modbus, DNP3 and ENIP parsers' fields (opt_modbus.c, opt_dnp3.c, opt_enip.c) */
    "modbus", "dnp3_func", "dnp3_ind", "dnp3_obj", "enip_command", "cip_service",
    "enip.status", "enip.protocol_version", "enip.cip_status", "enip.cip_extendedstatus",
    "enip.cip_class", "enip.cip_instance", "enip.cip_attribute", "enip.vendor_id",
    "enip.device_type", "enip.product_code", "enip.revision", "enip.identity_status",
    "enip.serial", "enip.state", "enip.capabilities",
    /* packet headers */
    "ipv4.hdr", "ipv6.hdr", "tcp.hdr", "udp.hdr", "icmpv4.hdr", "icmpv6.hdr",
    "tls_cert_fingerprint", "tls.cert_fingerprint", "tls.certs", "tls.subjectaltname",
    "tls.random", "tls.random_time", "tls.random_bytes", "tls.alpn",
    /* TLS options compiled as units (compile/tls_units.c) */
    "ssl_state", "ssl_version", "tls.version", "tls.fingerprint", "tls.subject", "tls.issuerdn",
    "tls.cert_chain_len", "tls_cert_notbefore", "tls_cert_notafter", "tls.cert_notbefore",
    "tls.cert_notafter", "tls.cert_expired", "tls.cert_valid", "tls_cert_expired",
    "tls_cert_valid",
    /* the packet's address, for dataset/datarep */
    "ip.src", "ip.dst",
    /* BER checks (compile/asn1.c) */
    "asn1",
    /* DCERPC's interface and opnum (compile/dce_units.c) */
    "dce_iface", "dce_opnum", "dcerpc.iface", "dcerpc.opnum",
    /* the files of a transaction (compile/unit_file.c) */
    "filename", "fileext", "filemagic", "filesize", "filemd5", "filesha1", "filesha256",
    "filestore",
    /* Kerberos 5, LDAP and SNMP fields (opt_krb5.c, opt_ldap.c, opt_snmp.c) */
    "krb5_msg_type", "krb5_err_code", "krb5.ticket_encryption", "ldap.request.operation",
    "ldap.responses.operation", "ldap.responses.result_code", "ldap.responses.count",
    "snmp.version", "snmp.pdu_type",
    /* DHCP and NTP fields (opt_dhcp.c, opt_ntp.c) */
    "dhcp.leasetime", "dhcp.rebinding_time", "dhcp.renewal_time", "ntp.version",
    "ntp.stratum", "ntp.mode",
    /* IKE fields (opt_ike.c) */
    "ike.exchtype", "ike.key_exchange_payload_length", "ike.nonce_payload_length",
    "ike.chosen_sa_attribute",
    /* Snort's SIP keywords on the SIP parser's fields (opt_app.c) */
    "sip_method", "sip_stat_code",
    /* Snort 3's BER cursor keywords (opt_misc.c, compile/payload.c) */
    "ber_data", "ber_skip",

    "pop3.command", "pop3.status",
    /* NFS fields (opt_nfs.c) and rpc, an ONC-RPC call in the packet (compile/unit_rpc.c) */
    "nfs_procedure", "nfs.version", "nfs_version", "rpc", NULL};

static bool listed(const char *name)
{
    for (int i = 0; IMPLEMENTED[i]; i++)
        if (strcmp(IMPLEMENTED[i], name) == 0)
            return true;
    return false;
}

int main(void)
{
    size_t n = opt_def_count();
    CHECK(n == osprey_rules_keyword_count());
    CHECK(n > 200);
    struct opt_index ix;
    CHECK(opt_index_build(&ix) == 0);
    for (size_t i = 0; i < n; i++) {
        const struct opt_def *d = opt_def_by_id(i);
        CHECK(d != NULL && d->name && d->name[0]);
        CHECK(strcmp(osprey_rules_keyword_name(i), d->name) == 0);
        /* unique: the index finds this very row */
        int found = opt_index_find(&ix, d->name, strlen(d->name));
        if (found != (int)i)
            fprintf(stderr, "keyword %s: index gives %d, row %zu\n", d->name, found, i);
        CHECK(found == (int)i);
        CHECK(d->dialects != 0 && (d->dialects & ~D_ALL) == 0);
        if (d->arg == ARG_REQUIRED && d->parse == NULL)
            fprintf(stderr, "keyword %s takes an argument nobody checks\n", d->name);
        CHECK(d->arg != ARG_REQUIRED || d->parse != NULL);
        if (d->kind == OPT_STICKY || d->kind == OPT_HTTP_LEGACY)
            CHECK(d->buffer < BUF_COUNT && (d->buffer != BUF_PKT ||
                                            strcmp(d->name, "pkt_data") == 0));
        else if (d->kind == OPT_MATCH && d->buffer != 0) {
            /* a match keyword's message: a buffer some parser registers (the compiler
             * runs the keyword under that buffer's event, det_app_match_buffer) */
            if (!buffer_parsed(d->buffer))
                fprintf(stderr, "keyword %s: buffer %s no parser fills\n", d->name,
                        osprey_rules_buffer_name(d->buffer));
            CHECK(d->buffer < BUF_COUNT && buffer_parsed(d->buffer));
        } else
            CHECK(d->buffer == 0);
        if (d->implemented != listed(d->name))
            fprintf(stderr, "keyword %s: implemented=%d\n", d->name, d->implemented);
        CHECK(d->implemented == listed(d->name));
        /* implemented by its row, or as a sticky buffer a parser registers (ssh.software …) */
        CHECK(osprey_rules_keyword_implemented(i) == opt_def_implemented(d));
        CHECK(opt_def_implemented(d) ==
              (d->implemented || ((d->kind == OPT_STICKY || d->kind == OPT_HTTP_LEGACY) &&
                                  buffer_parsed(d->buffer))));
        /* the public view --list-keywords prints */
        CHECK(osprey_rules_keyword_dialects(i) == d->dialects);
        CHECK(osprey_rules_keyword_kind(i) != NULL);
        const char *buf = osprey_rules_keyword_buffer(i);
        if (d->kind == OPT_STICKY || d->kind == OPT_HTTP_LEGACY)
            CHECK(buf != NULL && strcmp(buf, osprey_rules_buffer_name(d->buffer)) == 0);
        else
            CHECK(buf == NULL);
    }
    CHECK(opt_def_by_id(n) == NULL);
    CHECK(osprey_rules_keyword_name(n) == NULL);
    CHECK(osprey_rules_keyword_dialects(n) == 0);
    CHECK(osprey_rules_keyword_kind(n) == NULL);
    CHECK(osprey_rules_keyword_buffer(n) == NULL);
    int uri = opt_index_find(&ix, "http.uri", 8);
    CHECK(uri >= 0 && strcmp(osprey_rules_keyword_kind((size_t)uri), "sticky") == 0);
    CHECK(osprey_rules_keyword_dialects((size_t)uri) == OSPREY_KW_SURICATA);
    int legacy = opt_index_find(&ix, "http_uri", 8);
    CHECK(legacy >= 0 && strcmp(osprey_rules_keyword_kind((size_t)legacy), "http-legacy") == 0);
    CHECK(strcmp(osprey_rules_keyword_buffer((size_t)legacy), "http.uri") == 0);
    CHECK(opt_index_find(&ix, "contentx", 8) == -1);
    CHECK(opt_index_find(&ix, "conten", 6) == -1);
    CHECK(opt_index_find(&ix, "content", 7) >= 0);
    for (unsigned b = 0; b < BUF_COUNT; b++)
        CHECK(strcmp(osprey_rules_buffer_name(b), "?") != 0);
    CHECK(strcmp(osprey_rules_buffer_name(BUF_COUNT), "?") == 0);
    CHECK(strcmp(osprey_rules_buffer_name(BUF_HTTP_URI), "http.uri") == 0);
    opt_index_free(&ix);
    return unit_report("test_registry");
}
