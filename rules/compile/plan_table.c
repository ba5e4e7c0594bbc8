/* plan_table.c — keyword → plan function: how each implemented option becomes part of a
 * rule's plan (plan.h). One line per keyword, sorted by name (strcmp order: looked up by
 * binary search; rules/tests/test_units.c checks the order). A keyword with no line is
 * "not compiled yet". Modifiers, sticky buffers and transforms need none: make_plan folds
 * them into the options they apply to. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "registry.h"

static const struct plan_row {
    const char *name;
    plan_fn fn;
} ROWS[] = {
    {"absent", plan_absent},
    {"ack", plan_hdr_field},
    {"alert", plan_alert},
    {"app-layer-event", plan_event},
    {"app-layer-protocol", plan_app_layer_protocol},
    {"app-layer-state", plan_app_layer_state},
    {"asn1", plan_asn1},
    {"base64_decode", plan_base64_decode},
    {"ber_data", plan_ber},
    {"ber_skip", plan_ber},
    {"bsize", plan_buflen},
    {"bufferlen", plan_buflen},
    {"bypass", plan_meta},
    {"byte_extract", plan_byte},
    {"byte_jump", plan_byte},
    {"byte_math", plan_byte},
    {"byte_test", plan_byte},
    {"cip_service", plan_named_field},
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
    {"dhcp.leasetime", plan_dns_field},
    {"dhcp.rebinding_time", plan_dns_field},
    {"dhcp.renewal_time", plan_dns_field},
    {"dnp3_func", plan_named_field},
    {"dnp3_ind", plan_named_field},
    {"dnp3_obj", plan_named_field},
    {"dns.opcode", plan_dns_field},
    {"dns.rcode", plan_dns_field},
    {"dns.rrtype", plan_dns_field},
    {"dsize", plan_dsize},
    {"enip.capabilities", plan_dns_field},
    {"enip.cip_attribute", plan_dns_field},
    {"enip.cip_class", plan_dns_field},
    {"enip.cip_extendedstatus", plan_dns_field},
    {"enip.cip_instance", plan_dns_field},
    {"enip.cip_status", plan_dns_field},
    {"enip.device_type", plan_dns_field},
    {"enip.identity_status", plan_dns_field},
    {"enip.product_code", plan_dns_field},
    {"enip.protocol_version", plan_dns_field},
    {"enip.revision", plan_dns_field},
    {"enip.serial", plan_dns_field},
    {"enip.state", plan_dns_field},
    {"enip.status", plan_dns_field},
    {"enip.vendor_id", plan_dns_field},
    {"enip_command", plan_named_field},
    {"entropy", plan_entropy},
    {"fileext", plan_file},
    {"filemagic", plan_file},
    {"filemd5", plan_file},
    {"filename", plan_file},
    {"filesha1", plan_file},
    {"filesha256", plan_file},
    {"filesize", plan_file},
    {"filestore", plan_filestore},
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
    {"icmpv4-csum", plan_pktprop},
    {"icmpv6-csum", plan_pktprop},
    {"icmpv6.mtu", plan_pktprop},
    {"icode", plan_hdr_field},
    {"id", plan_hdr_field},
    {"ike.chosen_sa_attribute", plan_ike_attr},
    {"ike.exchtype", plan_dns_field},
    {"ike.key_exchange_payload_length", plan_dns_field},
    {"ike.nonce_payload_length", plan_dns_field},
    {"ip_proto", plan_ip_proto},
    {"ipopts", plan_ipopts},
    {"ipv4-csum", plan_pktprop},
    {"isdataat", plan_isdataat},
    {"itype", plan_hdr_field},
    {"krb5.ticket_encryption", plan_krb5_enc},
    {"krb5_err_code", plan_dns_field},
    {"krb5_msg_type", plan_dns_field},
    {"ldap.request.operation", plan_dns_field},
    {"ldap.responses.count", plan_field_index},
    {"ldap.responses.operation", plan_field_index},
    {"ldap.responses.result_code", plan_field_index},
    {"lua", plan_lua},
    {"luajit", plan_lua},
    {"metadata", plan_meta},
    {"modbus", plan_fields},
    {"mqtt.connack.return_code", plan_dns_field},
    {"mqtt.connack.session_present", plan_dns_field},
    {"mqtt.connect.flags", plan_dns_field},
    {"mqtt.flags", plan_dns_field},
    {"mqtt.protocol_version", plan_dns_field},
    {"mqtt.qos", plan_dns_field},
    {"mqtt.reason_code", plan_dns_field},
    {"mqtt.type", plan_dns_field},
    {"msg", plan_meta},
    {"nfs.version", plan_dns_field},
    {"nfs_procedure", plan_dns_field},
    {"nfs_version", plan_dns_field},
    {"noalert", plan_noalert},
    {"ntp.mode", plan_dns_field},
    {"ntp.stratum", plan_dns_field},
    {"ntp.version", plan_dns_field},
    {"pcre", plan_pcre},
    {"pop3.command", plan_dns_field},
    {"pop3.status", plan_dns_field},
    {"prefilter", plan_meta},
    {"priority", plan_meta},
    {"reference", plan_meta},
    {"requires", plan_meta},
    {"rev", plan_meta},
    {"rfb.secresult", plan_dns_field},
    {"rfb.sectype", plan_dns_field},
    {"rpc", plan_rpc},
    {"sameip", plan_sameip},
    {"seq", plan_hdr_field},
    {"service", plan_service},
    {"sid", plan_meta},
    {"sip_method", plan_field_set},
    {"sip_stat_code", plan_field_set},
    {"smb.version", plan_dns_field},
    {"snmp.pdu_type", plan_dns_field},
    {"snmp.version", plan_dns_field},
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
    {"tcpv4-csum", plan_pktprop},
    {"tcpv6-csum", plan_pktprop},
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
    {"udpv4-csum", plan_pktprop},
    {"udpv6-csum", plan_pktprop},
    {"uricontent", plan_content},
    {"urilen", plan_buflen},
    {"vlan.id", plan_pktprop},
    {"vlan.layers", plan_pktprop},
    {"websocket.flags", plan_dns_field},
    {"websocket.mask", plan_dns_field},
    {"websocket.opcode", plan_dns_field},
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

/* By keyword id, each id's row looked up once: make_plan asks for every option of every
 * plan, and the TLS test once more per option (7.6 % of the startup by name). */
static plan_fn *by_kw;
static size_t nkw;
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static void kw_build(void)
{
    size_t n = opt_def_count();
    plan_fn *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return; /* out of memory at startup: plan_fn_of_kw looks up by name */
    for (size_t i = 0; i < n; i++)
        v[i] = plan_fn_of(opt_def_by_id(i)->name);
    by_kw = v;
    nkw = n;
}

plan_fn plan_fn_of_kw(size_t kw)
{
    pthread_once(&kw_once, kw_build);
    if (by_kw)
        return kw < nkw ? by_kw[kw] : NULL;
    const struct opt_def *d = opt_def_by_id(kw);
    return d ? plan_fn_of(d->name) : NULL;
}

const char *plan_table_name(size_t i)
{
    return i < sizeof ROWS / sizeof ROWS[0] ? ROWS[i].name : NULL;
}
