/* plan_table.c — keyword → plan function: how each implemented option becomes part of a
 * rule's plan (plan.h). One line per keyword, sorted by name (strcmp order: looked up by
 * binary search; rules/tests/test_units.c checks the order). A keyword with no line is
 * "not compiled yet". Modifiers, sticky buffers and transforms need none: make_plan folds
 * them into the options they apply to. */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

static const struct plan_row {
    const char *name;
    plan_fn fn;
} ROWS[] = {
    {"absent", plan_absent},
    {"ack", plan_hdr_field},
    {"alert", plan_alert},
    {"app-layer-event", plan_event},
    {"app-layer-protocol", plan_app_layer_protocol},
    {"asn1", plan_asn1},
    {"base64_decode", plan_base64_decode},
    {"bsize", plan_buflen},
    {"bufferlen", plan_buflen},
    {"bypass", plan_meta},
    {"byte_extract", plan_byte},
    {"byte_jump", plan_byte},
    {"byte_math", plan_byte},
    {"byte_test", plan_byte},
    {"classtype", plan_meta},
    {"content", plan_content},
    {"datarep", plan_dataset},
    {"dataset", plan_dataset},
    {"dce_iface", plan_dce},
    {"dce_opnum", plan_dce},
    {"dcerpc.iface", plan_dce},
    {"dcerpc.opnum", plan_dce},
    {"decode-event", plan_event},
    {"detection_filter", plan_threshold},
    {"dns.opcode", plan_dns_field},
    {"dns.rcode", plan_dns_field},
    {"dns.rrtype", plan_dns_field},
    {"dsize", plan_dsize},
    {"entropy", plan_entropy},
    {"flags", plan_tcpflags},
    {"flow", plan_flow},
    {"flow.age", plan_pktprop},
    {"flow.bytes", plan_pktprop},
    {"flow.bytes_toclient", plan_pktprop},
    {"flow.bytes_toserver", plan_pktprop},
    {"flow.pkts", plan_pktprop},
    {"flow.pkts_toclient", plan_pktprop},
    {"flow.pkts_toserver", plan_pktprop},
    {"flowbits", plan_flowbits},
    {"flowint", plan_flowint},
    {"fragbits", plan_fragbits},
    {"fragoffset", plan_hdr_field},
    {"ftp.dynamic_port", plan_dns_field},
    {"ftp.mode", plan_dns_field},
    {"ftp.reply_received", plan_dns_field},
    {"ftpbounce", plan_ftpbounce},
    {"ftpdata_command", plan_dns_field},
    {"geoip", plan_geoip},
    {"gid", plan_meta},
    {"hostbits", plan_xbits},
    {"http2.errorcode", plan_dns_field},
    {"http2.frametype", plan_dns_field},
    {"http2.priority", plan_dns_field},
    {"http2.settings", plan_dns_field},
    {"http2.size_update", plan_dns_field},
    {"http2.window", plan_dns_field},
    {"icmp_id", plan_hdr_field},
    {"icmp_seq", plan_hdr_field},
    {"icmpv6.mtu", plan_pktprop},
    {"icode", plan_hdr_field},
    {"id", plan_hdr_field},
    {"ip_proto", plan_ip_proto},
    {"ipopts", plan_ipopts},
    {"isdataat", plan_isdataat},
    {"itype", plan_hdr_field},
    {"metadata", plan_meta},
    {"mqtt.connack.return_code", plan_dns_field},
    {"mqtt.connack.session_present", plan_dns_field},
    {"mqtt.connect.flags", plan_dns_field},
    {"mqtt.flags", plan_dns_field},
    {"mqtt.protocol_version", plan_dns_field},
    {"mqtt.qos", plan_dns_field},
    {"mqtt.reason_code", plan_dns_field},
    {"mqtt.type", plan_dns_field},
    {"msg", plan_meta},
    {"noalert", plan_noalert},
    {"pcre", plan_pcre},
    {"prefilter", plan_meta},
    {"priority", plan_meta},
    {"reference", plan_meta},
    {"requires", plan_meta},
    {"rev", plan_meta},
    {"sameip", plan_sameip},
    {"seq", plan_hdr_field},
    {"service", plan_service},
    {"sid", plan_meta},
    {"ssl_state", plan_tls},
    {"ssl_version", plan_tls},
    {"stream-event", plan_event},
    {"stream_size", plan_stream_size},
    {"tag", plan_meta},
    {"target", plan_meta},
    {"tcp.ack", plan_hdr_field},
    {"tcp.flags", plan_tcpflags},
    {"tcp.mss", plan_pktprop},
    {"tcp.seq", plan_hdr_field},
    {"tcp.window", plan_hdr_field},
    {"tcp.wscale", plan_pktprop},
    {"threshold", plan_threshold},
    {"tls.cert_chain_len", plan_tls},
    {"tls.cert_expired", plan_tls},
    {"tls.cert_notafter", plan_tls},
    {"tls.cert_notbefore", plan_tls},
    {"tls.cert_valid", plan_tls},
    {"tls.fingerprint", plan_tls},
    {"tls.issuerdn", plan_tls},
    {"tls.subject", plan_tls},
    {"tls.version", plan_tls},
    {"tls_cert_expired", plan_tls},
    {"tls_cert_notafter", plan_tls},
    {"tls_cert_notbefore", plan_tls},
    {"tls_cert_valid", plan_tls},
    {"tos", plan_hdr_field},
    {"ttl", plan_hdr_field},
    {"uricontent", plan_content},
    {"urilen", plan_buflen},
    {"vlan.id", plan_pktprop},
    {"vlan.layers", plan_pktprop},
    {"window", plan_hdr_field},
    {"xbits", plan_xbits},
};

static int by_name(const void *key, const void *row)
{
    return strcmp(key, ((const struct plan_row *)row)->name);
}

plan_fn plan_fn_of(const char *keyword)
{
    const struct plan_row *r =
        bsearch(keyword, ROWS, sizeof ROWS / sizeof ROWS[0], sizeof ROWS[0], by_name);
    return r ? r->fn : NULL;
}

const char *plan_table_name(size_t i)
{
    return i < sizeof ROWS / sizeof ROWS[0] ? ROWS[i].name : NULL;
}
